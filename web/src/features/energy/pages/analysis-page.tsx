import type { PueAnswer } from '@sitewatch/contract/energy';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Descriptions, Empty, Row, Table, Tabs, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryKey, type EnergyQuery, kwh, pueQuery, rankingQuery, ratio, ratioQuery } from '../api.ts';
import { EnergyChart } from '../components/energy-chart.tsx';
import { bucketLabel, EnergyFilterBar, useEnergyFilter } from '../components/energy-filter.tsx';
import { ExportButton } from '../components/export-button.tsx';
import { meterLabel } from '../components/facility.ts';
import { Load, Trend } from '../components/trend-tabs.tsx';

/** Meters by consumption over the range, largest first. */
const Ranking = ({ q }: { q: EnergyQuery }) => {
  const { t } = useTranslation();
  const ranking = useQuery(rankingQuery(q));
  const rows = ranking.data ?? [];
  const option = useMemo(() => {
    const top = rows.slice(0, 15).reverse();
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 140, right: 40, top: 10, bottom: 30 },
      xAxis: { type: 'value', name: 'kWh' },
      yAxis: { type: 'category', data: top.map(meterLabel) },
      series: [{ type: 'bar', data: top.map((r) => r.kwh), label: { show: true, position: 'right' } }],
    };
  }, [rows]);
  return (
    <Row gutter={16}>
      <Col xs={24} lg={12}>
        <EnergyChart option={ranking.data ? option : null} height={Math.max(240, Math.min(rows.length, 15) * 28)} />
      </Col>
      <Col xs={24} lg={12} data-testid="ranking-table">
        <Table
          rowKey="meter_id"
          size="small"
          loading={ranking.isLoading}
          dataSource={rows}
          pagination={{ pageSize: 15, hideOnSinglePage: true }}
          columns={[
            { title: '#', render: (_, __, i) => i + 1, width: 48 },
            { title: t('energyUi.site'), dataIndex: 'site_name', width: 120, ellipsis: true },
            { title: t('energyUi.meters.name'), dataIndex: 'name' },
            { title: t('energyUi.meters.category'), render: (_, r) => t(categoryKey(r.category)) },
            { title: 'kWh', render: (_, r) => kwh(r.kwh), align: 'right' },
          ]}
        />
      </Col>
    </Row>
  );
};

/** Consumption by category and its share of the parts (incoming meters hold the parts: left out). */
const Proportion = ({ q }: { q: EnergyQuery }) => {
  const { t } = useTranslation();
  const shares = useQuery(ratioQuery(q));
  const rows = shares.data ?? [];
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'item', formatter: '{b}: {c} kWh ({d}%)' },
      legend: { bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['35%', '65%'],
          label: { formatter: '{d}%' },
          data: rows.filter((r) => r.kwh > 0).map((r) => ({ name: t(categoryKey(r.category)), value: r.kwh })),
        },
      ],
    }),
    [rows, t],
  );
  return (
    <Row gutter={16}>
      <Col xs={24} lg={12}>
        <EnergyChart option={shares.data ? option : null} height={300} />
      </Col>
      <Col xs={24} lg={12}>
        <Table
          rowKey="category"
          size="small"
          pagination={false}
          loading={shares.isLoading}
          dataSource={rows}
          columns={[
            { title: t('energyUi.meters.category'), render: (_, r) => t(categoryKey(r.category)) },
            { title: 'kWh', render: (_, r) => kwh(r.kwh), align: 'right' },
            { title: '%', render: (_, r) => r.percent.toFixed(1), align: 'right' },
          ]}
        />
        <Alert type="info" showIcon message={t('energyUi.ratio.help')} style={{ marginTop: 12 }} />
      </Col>
    </Row>
  );
};

/** PUE and partial PUE of cooling per interval, with the Green Grid category of the figure. */
const Pue = ({ q }: { q: EnergyQuery }) => {
  const { t } = useTranslation();
  const pue = useQuery({ ...pueQuery(q), enabled: q.device_group_id !== undefined });
  const p: PueAnswer | undefined = pue.data;
  const interval = q.interval ?? 'day';
  const option = useMemo(
    () =>
      p
        ? {
            tooltip: { trigger: 'axis' },
            legend: { top: 0 },
            grid: { left: 48, right: 16, top: 36, bottom: 30 },
            xAxis: { type: 'category', data: p.buckets.map((b) => bucketLabel(b.ts, interval)) },
            yAxis: { type: 'value', min: 1, scale: true },
            series: [
              {
                name: 'PUE',
                type: 'line',
                data: p.buckets.map((b) => (b.estimated ? { value: b.pue, symbol: 'triangle', symbolSize: 9 } : b.pue)),
              },
              { name: t('energyUi.pue.ppueCooling'), type: 'line', data: p.buckets.map((b) => b.ppue_cooling) },
            ],
          }
        : null,
    [p, interval, t],
  );
  if (q.device_group_id === undefined) return <Empty description={t('energyUi.pue.chooseSite')} />;
  return (
    <>
      <Descriptions
        size="small"
        layout="vertical"
        column={{ xs: 1, md: 2, xl: 4 }}
        bordered
        style={{ marginBottom: 16 }}
      >
        <Descriptions.Item label="PUE">
          <span data-testid="pue-value">{ratio(p?.pue)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('energyUi.pue.ppueCooling')}>{ratio(p?.ppue_cooling)}</Descriptions.Item>
        <Descriptions.Item label={t('energyUi.pue.category')}>
          <span data-testid="pue-category">
            {p && p.category > 0 ? t('energyUi.pue.categoryN', { n: p.category }) : t('energyUi.pue.noCategory')}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('energyUi.pue.totalSource')}>
          {p ? t(`energyUi.pue.sources.${p.total_source}`) : '—'}
        </Descriptions.Item>
      </Descriptions>
      <EnergyChart option={option} height={300} />
      <Table
        rowKey="ts"
        size="small"
        pagination={{ pageSize: 24, hideOnSinglePage: true }}
        dataSource={p?.buckets ?? []}
        loading={pue.isLoading}
        columns={[
          { title: t('energyUi.used.interval'), render: (_, b) => bucketLabel(b.ts, interval) },
          { title: t('energyUi.facilityKwh'), render: (_, b) => kwh(b.total_kwh), align: 'right' },
          { title: t('energyUi.itKwh'), render: (_, b) => kwh(b.it_kwh), align: 'right' },
          { title: t('energyUi.coolingKwh'), render: (_, b) => kwh(b.cooling_kwh), align: 'right' },
          { title: 'PUE', render: (_, b) => ratio(b.pue), align: 'right' },
          { title: t('energyUi.pue.ppueCooling'), render: (_, b) => ratio(b.ppue_cooling), align: 'right' },
          {
            title: '',
            render: (_, b) => (b.estimated ? <Tag color="gold">{t('energyUi.used.estimated')}</Tag> : null),
          },
        ]}
      />
      <Alert type="info" showIcon message={t('energyUi.pue.help')} style={{ marginTop: 12 }} />
    </>
  );
};

/** /energy_manage/energy_analysis: ranking, proportion, trend with YoY and MoM, load and PUE over one site, range and interval. */
export const AnalysisPage = () => {
  const { t } = useTranslation();
  const filter = useEnergyFilter({ range: 'month' });
  const q = filter.query;
  const [tab, setTab] = useState<'ranking' | 'ratio' | 'trend' | 'load' | 'pue'>('ranking');
  return (
    <Card title={t('energyUi.analysis.title')}>
      <EnergyFilterBar
        filter={filter}
        extra={
          tab === 'ranking' || tab === 'ratio' || tab === 'pue' ? (
            <ExportButton report={tab} query={q} name={tab} />
          ) : null
        }
      />
      <Tabs
        destroyOnHidden
        activeKey={tab}
        onChange={(k) => setTab(k as typeof tab)}
        items={[
          { key: 'ranking', label: t('energyUi.ranking.title'), children: <Ranking q={q} /> },
          { key: 'ratio', label: t('energyUi.ratio.title'), children: <Proportion q={q} /> },
          { key: 'trend', label: t('energyUi.trend.title'), children: <Trend q={q} /> },
          { key: 'load', label: t('energyUi.load.title'), children: <Load q={q} /> },
          { key: 'pue', label: t('energyUi.pue.title'), children: <Pue q={q} /> },
        ]}
      />
    </Card>
  );
};
