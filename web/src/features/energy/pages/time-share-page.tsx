import { energyRoutes as r, type TimeShareAnswer } from '@sitewatch/contract/energy';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { energyKey, kwh } from '../api.ts';
import { EnergyChart } from '../components/energy-chart.tsx';
import { bucketLabel, EnergyFilterBar, useEnergyFilter } from '../components/energy-filter.tsx';
import { ExportButton } from '../components/export-button.tsx';

const periods = ['sharp', 'peak', 'flat', 'valley', 'none'] as const;
const colors = { sharp: '#cf1322', peak: '#fa8c16', flat: '#1677ff', valley: '#52c41a', none: '#bfbfbf' } as const;

/**
 * /energy_manage/time_share_static: a site's consumption per time-share period (sharp, peak, flat,
 * valley) under the tariffs in force; hours under a stair tariff or none have no period.
 */
export const TimeSharePage = () => {
  const { t } = useTranslation();
  const filter = useEnergyFilter({ range: 'month' });
  const q = filter.query;
  const interval = q.interval ?? 'day';
  const shares = useQuery({
    queryKey: [...energyKey, 'time-sharing', q],
    queryFn: () => api.call(r.timeSharing, { query: q }),
  });
  const a = shares.data;
  const label = (p: (typeof periods)[number]) => t(`energyUi.timeShare.periods.${p}`);
  const bars = useMemo(
    () =>
      a
        ? {
            tooltip: { trigger: 'axis' },
            legend: { top: 0 },
            grid: { left: 56, right: 16, top: 40, bottom: 30 },
            xAxis: { type: 'category', data: a.buckets.map((b) => bucketLabel(b.ts, interval)) },
            yAxis: { type: 'value', name: 'kWh' },
            series: periods.map((p) => ({
              name: t(`energyUi.timeShare.periods.${p}`),
              type: 'bar',
              stack: 'kwh',
              itemStyle: { color: colors[p] },
              data: a.buckets.map((b) => b[p]),
            })),
          }
        : null,
    [a, interval, t],
  );
  const pie = useMemo(
    () =>
      a
        ? {
            tooltip: { trigger: 'item', formatter: '{b}: {c} kWh ({d}%)' },
            legend: { bottom: 0 },
            series: [
              {
                type: 'pie',
                radius: ['35%', '65%'],
                label: { formatter: '{d}%' },
                data: periods
                  .filter((p) => a.total[p] > 0)
                  .map((p) => ({
                    name: t(`energyUi.timeShare.periods.${p}`),
                    value: a.total[p],
                    itemStyle: { color: colors[p] },
                  })),
              },
            ],
          }
        : null,
    [a, t],
  );
  return (
    <Card title={t('energyUi.timeShare.title')}>
      <EnergyFilterBar filter={filter} extra={<ExportButton report="time_sharing" query={q} name="time-sharing" />} />
      <Row gutter={16} style={{ marginBottom: 16 }}>
        {periods.map((p) => (
          <Col key={p} xs={12} lg={4}>
            <Statistic
              title={`${label(p)} (kWh)`}
              value={a ? kwh(a.total[p]) : '—'}
              suffix={a ? <Typography.Text type="secondary">{a.percent[p].toFixed(1)}%</Typography.Text> : null}
              data-testid={`time-share-${p}`}
            />
          </Col>
        ))}
      </Row>
      <Row gutter={16}>
        <Col xs={24} lg={16}>
          <EnergyChart option={bars} height={300} />
        </Col>
        <Col xs={24} lg={8}>
          <EnergyChart option={pie} height={300} />
        </Col>
      </Row>
      <Typography.Paragraph type="secondary">
        {a ? t(`energyUi.sources.${a.source}`) : null} · {t('energyUi.timeShare.help')}
      </Typography.Paragraph>
      <Table
        rowKey="ts"
        size="small"
        loading={shares.isLoading}
        dataSource={a?.buckets ?? []}
        pagination={{ pageSize: 31, hideOnSinglePage: true }}
        columns={[
          { title: t('energyUi.used.interval'), render: (_, b) => bucketLabel(b.ts, interval) },
          ...periods.map((p) => ({
            title: label(p),
            render: (_: unknown, b: TimeShareAnswer['buckets'][number]) => kwh(b[p]),
            align: 'right' as const,
          })),
        ]}
      />
    </Card>
  );
};
