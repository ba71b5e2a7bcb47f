import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Statistic, Table, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryKey, costQuery, kwh, yuan } from '../api.ts';
import { EnergyChart } from '../components/energy-chart.tsx';
import { bucketLabel, EnergyFilterBar, useEnergyFilter } from '../components/energy-filter.tsx';
import { ExportButton } from '../components/export-button.tsx';
import { meterLabel, siteTotalRows, sumOf } from '../components/facility.ts';

/**
 * /energy_manage/cost_static: cost per meter and interval under the tariffs in force (a change of
 * tariff inside the range is costed on both sides). Money is the server's integer fen, shown as it
 * is; energy of hours before any tariff is shown apart as not costed.
 */
export const CostPage = () => {
  const { t } = useTranslation();
  const filter = useEnergyFilter({ range: 'month' });
  const q = filter.query;
  const interval = q.interval ?? 'day';
  const cost = useQuery(costQuery(q));
  const rows = cost.data ?? [];
  const facility = siteTotalRows(rows);
  const uncosted = sumOf(rows, (r) => r.uncosted_kwh);
  const option = useMemo(() => {
    const billed = siteTotalRows(rows);
    const stamps = [...new Set(billed.flatMap((r) => r.buckets.map((b) => b.ts)))].sort((a, b) => a - b);
    return {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 64, right: 16, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: stamps.map((ts) => bucketLabel(ts, interval)) },
      yAxis: { type: 'value', name: t('energyUi.yuan') },
      series: billed.map((r) => {
        const byTs = new Map(r.buckets.map((b) => [b.ts, b.cost_cents]));
        return {
          name: meterLabel(r),
          type: 'bar',
          stack: 'cost',
          // Fen to yuan for the axis only; the table shows the exact figures.
          data: stamps.map((ts) => (byTs.get(ts) ?? 0) / 100),
        };
      }),
    };
  }, [rows, interval, t]);
  return (
    <Card title={t('energyUi.cost.title')}>
      <EnergyFilterBar filter={filter} extra={<ExportButton report="cost" query={q} name="cost" />} />
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col xs={12} lg={6}>
          <Statistic
            title={t('energyUi.costYuan')}
            value={yuan(sumOf(facility, (r) => r.cost_cents))}
            data-testid="cost-total"
          />
        </Col>
        <Col xs={12} lg={6}>
          <Statistic title={t('energyUi.facilityKwh')} value={kwh(sumOf(facility, (r) => r.kwh))} />
        </Col>
        <Col xs={12} lg={6}>
          <Statistic title={t('energyUi.cost.uncosted')} value={kwh(uncosted)} />
        </Col>
      </Row>
      {uncosted > 0 ? (
        <Alert type="warning" showIcon message={t('energyUi.cost.uncostedHelp')} style={{ marginBottom: 16 }} />
      ) : null}
      <EnergyChart option={cost.data ? option : null} height={300} testId="cost-chart" />
      <div data-testid="cost-table">
        <Table
          rowKey="meter_id"
          size="small"
          loading={cost.isLoading}
          dataSource={rows}
          pagination={false}
          expandable={{
            expandedRowRender: (r) => (
              <Table
                rowKey="ts"
                size="small"
                pagination={{ pageSize: 24, hideOnSinglePage: true }}
                dataSource={r.buckets}
                columns={[
                  { title: t('energyUi.used.interval'), render: (_, b) => bucketLabel(b.ts, interval) },
                  { title: 'kWh', render: (_, b) => kwh(b.kwh), align: 'right' },
                  { title: t('energyUi.costYuan'), render: (_, b) => yuan(b.cost_cents), align: 'right' },
                ]}
              />
            ),
          }}
          columns={[
            { title: t('energyUi.site'), dataIndex: 'site_name', width: 120, ellipsis: true },
            { title: t('energyUi.meters.name'), dataIndex: 'name' },
            {
              title: t('energyUi.meters.category'),
              render: (_, r) => (
                <Tag color={r.category === 'total' ? 'blue' : undefined}>{t(categoryKey(r.category))}</Tag>
              ),
            },
            { title: 'kWh', render: (_, r) => kwh(r.kwh), align: 'right' },
            { title: t('energyUi.costYuan'), render: (_, r) => yuan(r.cost_cents), align: 'right' },
            {
              title: t('energyUi.cost.uncosted'),
              render: (_, r) => (r.uncosted_kwh > 0 ? <Tag color="orange">{kwh(r.uncosted_kwh)}</Tag> : 0),
              align: 'right',
            },
          ]}
        />
      </div>
    </Card>
  );
};
