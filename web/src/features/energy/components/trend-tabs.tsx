import { type MeterCategory, meterCategories, energyRoutes as r } from '@sitewatch/contract/energy';
import { useQuery } from '@tanstack/react-query';
import { Col, Descriptions, Flex, Row, Select, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { categoryKey, type EnergyQuery, energyKey, kwh } from '../api.ts';
import { EnergyChart } from './energy-chart.tsx';
import { bucketLabel } from './energy-filter.tsx';
import { ExportButton } from './export-button.tsx';

const change = (p: number | null) =>
  p === null ? (
    '—'
  ) : (
    <Typography.Text type={p > 0 ? 'danger' : 'success'}>{`${p > 0 ? '+' : ''}${p.toFixed(1)}%`}</Typography.Text>
  );

/**
 * The trend with month-on-month (against the interval before) and year-on-year (the same interval a
 * year earlier), of the site's facility energy, one category or one meter (energy/analysis).
 */
export const Trend = ({ q }: { q: EnergyQuery }) => {
  const { t } = useTranslation();
  const [category, setCategory] = useState<MeterCategory | null>(null);
  const query = { ...q, ...(category ? { category } : {}) };
  const trend = useQuery({
    queryKey: [...energyKey, 'analysis', query],
    queryFn: () => api.call(r.analysis, { query }),
  });
  const a = trend.data;
  const interval = q.interval ?? 'day';
  const option = useMemo(
    () =>
      a
        ? {
            tooltip: { trigger: 'axis' },
            legend: { top: 0 },
            grid: { left: 56, right: 56, top: 40, bottom: 30 },
            xAxis: { type: 'category', data: a.buckets.map((b) => bucketLabel(b.ts, interval)) },
            yAxis: [
              { type: 'value', name: 'kWh' },
              { type: 'value', name: '%', splitLine: { show: false } },
            ],
            series: [
              { name: t('energyUi.trend.current'), type: 'bar', data: a.buckets.map((b) => b.kwh) },
              { name: t('energyUi.trend.lastYear'), type: 'bar', data: a.buckets.map((b) => b.last_year_kwh) },
              { name: t('energyUi.trend.mom'), type: 'line', yAxisIndex: 1, data: a.buckets.map((b) => b.mom_percent) },
              { name: t('energyUi.trend.yoy'), type: 'line', yAxisIndex: 1, data: a.buckets.map((b) => b.yoy_percent) },
            ],
          }
        : null,
    [a, interval, t],
  );
  return (
    <>
      <Flex gap={8} style={{ marginBottom: 12 }}>
        <Select<MeterCategory>
          allowClear
          value={category}
          onChange={(v) => setCategory(v ?? null)}
          placeholder={t('energyUi.facility')}
          aria-label={t('energyUi.meters.category')}
          style={{ width: 160 }}
          options={meterCategories.map((c) => ({ value: c, label: t(categoryKey(c)) }))}
        />
        <Flex style={{ marginInlineStart: 'auto' }}>
          <ExportButton report="analysis" query={query} name="trend" />
        </Flex>
      </Flex>
      <Descriptions size="small" layout="vertical" bordered column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('energyUi.trend.total')}>{a ? kwh(a.total_kwh) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('energyUi.trend.lastYearTotal')}>
          {a ? kwh(a.last_year_total_kwh) : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('energyUi.trend.yoy')}>
          <span data-testid="trend-yoy">{a ? change(a.yoy_percent) : '—'}</span>
        </Descriptions.Item>
      </Descriptions>
      <EnergyChart option={option} height={300} />
      {a ? <Typography.Paragraph type="secondary">{t(`energyUi.sources.${a.source}`)}</Typography.Paragraph> : null}
      <Table
        rowKey="ts"
        size="small"
        loading={trend.isLoading}
        dataSource={a?.buckets ?? []}
        pagination={{ pageSize: 31, hideOnSinglePage: true }}
        columns={[
          { title: t('energyUi.used.interval'), render: (_, b) => bucketLabel(b.ts, interval) },
          { title: 'kWh', render: (_, b) => kwh(b.kwh), align: 'right' },
          { title: t('energyUi.trend.previous'), render: (_, b) => kwh(b.previous_kwh), align: 'right' },
          { title: t('energyUi.trend.mom'), render: (_, b) => change(b.mom_percent), align: 'right' },
          { title: t('energyUi.trend.lastYear'), render: (_, b) => kwh(b.last_year_kwh), align: 'right' },
          { title: t('energyUi.trend.yoy'), render: (_, b) => change(b.yoy_percent), align: 'right' },
          {
            title: '',
            render: (_, b) => (b.estimated ? <Tag color="gold">{t('energyUi.used.estimated')}</Tag> : null),
          },
        ]}
      />
    </>
  );
};

/** The load per interval (mean kW, the peak hourly mean and when) from the hourly energy (energy/load). */
export const Load = ({ q }: { q: EnergyQuery }) => {
  const { t } = useTranslation();
  const load = useQuery({ queryKey: [...energyKey, 'load', q], queryFn: () => api.call(r.load, { query: q }) });
  const a = load.data;
  const interval = q.interval ?? 'day';
  const option = useMemo(
    () =>
      a
        ? {
            tooltip: { trigger: 'axis' },
            legend: { top: 0 },
            grid: { left: 56, right: 16, top: 40, bottom: 30 },
            xAxis: { type: 'category', data: a.buckets.map((b) => bucketLabel(b.ts, interval)) },
            yAxis: { type: 'value', name: 'kW' },
            series: [
              { name: t('energyUi.load.avg'), type: 'line', data: a.buckets.map((b) => b.avg_kw) },
              { name: t('energyUi.load.peak'), type: 'line', data: a.buckets.map((b) => b.peak_kw) },
              { name: t('energyUi.load.itAvg'), type: 'line', data: a.buckets.map((b) => b.it_avg_kw) },
            ],
          }
        : null,
    [a, interval, t],
  );
  const at = (ts: number | null) => (ts === null ? '—' : dayjs.unix(ts).format('YYYY-MM-DD HH:00'));
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Flex justify="space-between" align="center">
          <Descriptions size="small" layout="vertical" bordered column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label={t('energyUi.load.avg')}>
              {a ? `${a.avg_kw.toFixed(2)} kW` : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('energyUi.load.peak')}>
              {a ? `${a.peak_kw.toFixed(2)} kW` : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('energyUi.load.peakAt')}>{a ? at(a.peak_ts) : '—'}</Descriptions.Item>
          </Descriptions>
          <ExportButton report="load" query={q} name="load" />
        </Flex>
      </Col>
      <Col span={24}>
        <EnergyChart option={option} height={300} />
        {a ? <Typography.Text type="secondary">{t(`energyUi.sources.${a.source}`)}</Typography.Text> : null}
      </Col>
    </Row>
  );
};
