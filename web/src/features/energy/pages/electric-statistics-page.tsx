import { energyRoutes as r } from '@sitewatch/contract/energy';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { energyKey, kwh, ratio, yuan } from '../api.ts';
import { EnergyChart } from '../components/energy-chart.tsx';

const change = (now: number, before: number) =>
  before > 0 ? `${now >= before ? '+' : ''}${(((now - before) / before) * 100).toFixed(1)}%` : '—';

/**
 * /electric_statistics (002 §2.1, energy settings): per granted site with meters of its own, this
 * month's and last month's energy, this month's cost and PUE, and the tariff in force now
 * (setting/electricity_statistics). Each row is the site's total as every energy page shows it (the
 * server's one rule, docs/energy.md "A site's total"), its sub-sites included.
 */
export const ElectricStatisticsPage = () => {
  const { t } = useTranslation();
  const stats = useQuery({
    queryKey: [...energyKey, 'electricity-statistics'],
    queryFn: () => api.call(r.electricityStatistics, { query: {} }),
  });
  const rows = stats.data ?? [];
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 64, right: 16, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: rows.map((s) => s.name) },
      yAxis: { type: 'value', name: 'kWh' },
      series: [
        { name: t('energyUi.statistics.lastMonth'), type: 'bar', data: rows.map((s) => s.last_month_kwh) },
        { name: t('energyUi.statistics.month'), type: 'bar', data: rows.map((s) => s.month_kwh) },
      ],
    }),
    [rows, t],
  );
  return (
    <Card title={t('energyUi.statistics.title')}>
      <EnergyChart option={stats.data ? option : null} height={260} />
      <Table
        rowKey="device_group_id"
        size="small"
        loading={stats.isLoading}
        dataSource={rows}
        pagination={false}
        columns={[
          { title: t('energyUi.site'), dataIndex: 'name' },
          { title: t('energyUi.statistics.meters'), dataIndex: 'meters', align: 'right' },
          { title: t('energyUi.statistics.monthKwh'), render: (_, s) => kwh(s.month_kwh), align: 'right' },
          { title: t('energyUi.statistics.lastMonthKwh'), render: (_, s) => kwh(s.last_month_kwh), align: 'right' },
          { title: t('energyUi.trend.mom'), render: (_, s) => change(s.month_kwh, s.last_month_kwh), align: 'right' },
          { title: t('energyUi.statistics.monthCost'), render: (_, s) => yuan(s.month_cost_cents), align: 'right' },
          { title: t('energyUi.statistics.monthPue'), render: (_, s) => ratio(s.month_pue), align: 'right' },
          {
            title: t('energyUi.statistics.tariff'),
            render: (_, s) =>
              s.tariff_name ?? <Typography.Text type="secondary">{t('energyUi.statistics.noTariff')}</Typography.Text>,
          },
        ]}
      />
    </Card>
  );
};
