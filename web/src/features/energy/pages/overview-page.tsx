import { energyRoutes as r } from '@sitewatch/contract/energy';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Row, Statistic, Table, Tag } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import {
  categoryKey,
  costQuery,
  energyKey,
  kwh,
  metersQuery,
  pueQuery,
  rankingQuery,
  ratio,
  ratioQuery,
  yuan,
} from '../api.ts';
import { EnergyChart } from '../components/energy-chart.tsx';
import { bucketLabel, EnergyFilterBar, useEnergyFilter } from '../components/energy-filter.tsx';
import { siteTotalRows, sumOf } from '../components/facility.ts';

/**
 * /energy_survey and /energy_manage/energy_servey: a site's energy at a glance over the chosen range:
 * facility and IT energy, cost, PUE with its Green Grid category, the share of each category, the
 * largest consumers, and energy with PUE per interval.
 */
export const OverviewPage = () => {
  const { t } = useTranslation();
  const filter = useEnergyFilter({ range: 'month' });
  const meters = useQuery(metersQuery);
  // Open on the first site that has meters, so the page shows figures at once.
  const firstSite = meters.data?.[0]?.device_group_id ?? null;
  const { site, setSite } = filter;
  useEffect(() => {
    if (site === null && firstSite !== null) setSite(firstSite);
  }, [site, firstSite, setSite]);
  const q = filter.query;
  const pue = useQuery({ ...pueQuery(q), enabled: q.device_group_id !== undefined });
  const cost = useQuery(costQuery(q));
  const ranking = useQuery(rankingQuery(q));
  const shares = useQuery(ratioQuery(q));
  const power = useQuery({
    queryKey: [...energyKey, 'active-power', q.device_group_id],
    queryFn: () => api.call(r.activePower, { query: q.device_group_id ? { device_group_id: q.device_group_id } : {} }),
    refetchInterval: 60_000,
  });
  const facility = siteTotalRows(cost.data ?? []);
  const p = pue.data;

  const trend = useMemo(
    () =>
      p
        ? {
            tooltip: { trigger: 'axis' },
            legend: { top: 0 },
            grid: { left: 56, right: 48, top: 36, bottom: 30 },
            xAxis: { type: 'category', data: p.buckets.map((b) => bucketLabel(b.ts, q.interval ?? 'day')) },
            yAxis: [
              { type: 'value', name: 'kWh' },
              { type: 'value', name: 'PUE', min: 1, splitLine: { show: false } },
            ],
            series: [
              { name: t('energyUi.facility'), type: 'bar', data: p.buckets.map((b) => b.total_kwh) },
              { name: t('energyUi.categories.it'), type: 'bar', data: p.buckets.map((b) => b.it_kwh) },
              { name: 'PUE', type: 'line', yAxisIndex: 1, data: p.buckets.map((b) => b.pue) },
            ],
          }
        : null,
    [p, q.interval, t],
  );
  const pie = useMemo(
    () =>
      shares.data
        ? {
            tooltip: { trigger: 'item', formatter: '{b}: {c} kWh ({d}%)' },
            legend: { bottom: 0 },
            series: [
              {
                type: 'pie',
                radius: ['40%', '65%'],
                label: { formatter: '{d}%' },
                data: shares.data
                  .filter((s) => s.kwh > 0)
                  .map((s) => ({ name: t(categoryKey(s.category)), value: s.kwh })),
              },
            ],
          }
        : null,
    [shares.data, t],
  );

  return (
    <Card title={t('energyUi.overview.title')}>
      <EnergyFilterBar filter={filter} siteRequired />
      {meters.data && meters.data.length === 0 ? (
        <Alert type="info" showIcon message={t('energyUi.noMeters')} style={{ marginBottom: 16 }} />
      ) : null}
      <Row gutter={[16, 16]}>
        <Col xs={12} lg={4}>
          <Statistic
            title={t('energyUi.facilityKwh')}
            value={kwh(p ? sumOf(p.buckets, (b) => b.total_kwh) : sumOf(facility, (r) => r.kwh))}
            data-testid="overview-total"
          />
        </Col>
        <Col xs={12} lg={4}>
          <Statistic title={t('energyUi.itKwh')} value={kwh(p ? sumOf(p.buckets, (b) => b.it_kwh) : 0)} />
        </Col>
        <Col xs={12} lg={5}>
          <Statistic
            title={t('energyUi.costYuan')}
            value={yuan(sumOf(facility, (r) => r.cost_cents))}
            data-testid="overview-cost"
          />
        </Col>
        <Col xs={12} lg={5}>
          <Statistic title="PUE" value={ratio(p?.pue)} data-testid="overview-pue" />
          {p ? (
            <Tag color={p.category > 0 ? 'blue' : 'default'}>
              {p.category > 0 ? t('energyUi.pue.categoryN', { n: p.category }) : t('energyUi.pue.noCategory')}
            </Tag>
          ) : null}
        </Col>
        <Col xs={12} lg={3}>
          <Statistic title={t('energyUi.pue.ppueCooling')} value={ratio(p?.ppue_cooling)} />
        </Col>
        <Col xs={12} lg={3}>
          <Statistic
            title={t('energyUi.load.now')}
            value={power.data ? power.data.total_kw.toFixed(1) : '—'}
            data-testid="overview-power"
          />
        </Col>
        <Col xs={24} lg={16}>
          <Card size="small" title={t('energyUi.overview.perInterval')}>
            {q.device_group_id ? <EnergyChart option={trend} /> : <Empty description={t('energyUi.chooseSite')} />}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={t('energyUi.ratio.title')}>
            <EnergyChart option={pie} />
          </Card>
        </Col>
        <Col span={24}>
          <Card size="small" title={t('energyUi.overview.top')}>
            <Table
              rowKey="meter_id"
              size="small"
              pagination={false}
              dataSource={(ranking.data ?? []).slice(0, 5)}
              columns={[
                { title: '#', render: (_, __, i) => i + 1, width: 48 },
                { title: t('energyUi.site'), dataIndex: 'site_name', width: 120, ellipsis: true },
                { title: t('energyUi.meters.name'), dataIndex: 'name' },
                { title: t('energyUi.meters.category'), render: (_, x) => t(categoryKey(x.category)) },
                { title: 'kWh', render: (_, x) => kwh(x.kwh), align: 'right' },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </Card>
  );
};
