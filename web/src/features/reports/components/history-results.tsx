import type { RouteData } from '@sitewatch/contract';
import type { seriesRoutes } from '@sitewatch/contract/series';
import { useQueries } from '@tanstack/react-query';
import { Card, Empty, Flex, Spin, Table, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { historySeriesQuery } from '../api.ts';
import type { Resolved, RunQuery } from './history-selection.tsx';

// ECharts loads with the chart only, in its own chunk.
const CurveChart = lazy(() => import('../../../components/curve-chart.tsx').then((m) => ({ default: m.CurveChart })));

/** At most this many items are drawn on the chart (the table shows every item). */
export const chartItemLimit = 20;

const timeFormats: Record<Resolved, string> = {
  raw: 'YYYY-MM-DD HH:mm:ss',
  minute: 'YYYY-MM-DD HH:mm',
  hour: 'YYYY-MM-DD HH:00',
  day: 'YYYY-MM-DD',
};

const round = (v: number) => String(Math.round(v * 100) / 100);

/** A run's table as the server answers it: times × items. */
type HistoryTableAnswer = RouteData<typeof seriesRoutes.historyTable>;
type Column = HistoryTableAnswer['items'][number];

/** The chart of a run: the bounded, down-sampled series of each item (spikes kept), not the table's page. */
export const HistoryChart = ({ run, items }: { run: RunQuery; items: Column[] }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const chartItems = items.slice(0, chartItemLimit);
  const series = useQueries({
    queries: chartItems.map((c) => historySeriesQuery(c.item_id, run.t1, run.t2)),
  });
  // The chart redraws when an item's points change, not on every render of the page.
  const linesKey = `${chartItems.map((c) => c.item_id).join(',')}|${series.map((s) => s.dataUpdatedAt).join(',')}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: linesKey stands for chartItems and series
  const lines = useMemo(
    () =>
      chartItems.map((c, i) => ({
        name: `${c.device_name} ${c.item_name}`,
        unit: c.unit,
        data: (series[i]?.data?.points ?? []).map((p) => [p.ts * 1000, p.value] as [number, number]),
      })),
    [linesKey],
  );
  const chartPoints = lines.reduce((n, l) => n + l.data.length, 0);
  const colors = useMemo(
    () => ({
      text: token.colorText,
      secondary: token.colorTextSecondary,
      border: token.colorBorderSecondary,
      background: token.colorBgContainer,
    }),
    [token],
  );
  return (
    <Card
      size="small"
      title={t('reportsUi.history.chart')}
      extra={
        items.length > chartItemLimit ? (
          <Typography.Text type="secondary">
            {t('reportsUi.history.chartLimit', { count: chartItemLimit })}
          </Typography.Text>
        ) : null
      }
    >
      <div data-testid="history-chart" data-points={chartPoints}>
        {series.some((s) => s.isLoading) && chartPoints === 0 ? (
          <Flex justify="center" style={{ height: 300 }} align="center">
            <Spin />
          </Flex>
        ) : chartPoints === 0 ? (
          <Empty description={t('reportsUi.history.noData')} style={{ height: 300, paddingTop: 100 }} />
        ) : (
          <Suspense fallback={<Spin />}>
            <CurveChart
              lines={lines}
              colors={colors}
              noUnit={t('reportsUi.history.noUnit')}
              height={300}
              range={[run.t1 * 1000, run.t2 * 1000]}
            />
          </Suspense>
        )}
      </div>
    </Card>
  );
};

export interface Paging {
  page: number;
  limit: number;
  order: 'asc' | 'desc';
}

/** The table of a run: times × items, paged and ordered by the server. */
export const HistoryTable = ({
  run,
  table,
  loading,
  paging,
  onPaging,
}: {
  run: RunQuery;
  table: HistoryTableAnswer | undefined;
  loading: boolean;
  paging: Paging;
  onPaging: (paging: Paging) => void;
}) => {
  const { t } = useTranslation();
  const items = table?.items ?? [];
  const columns: ColumnsType<{ ts: number; values: Array<number | null> }> = [
    {
      key: 'ts',
      title: t('monitoring.history.time'),
      dataIndex: 'ts',
      fixed: 'left',
      width: 170,
      sorter: true,
      sortOrder: paging.order === 'asc' ? 'ascend' : 'descend',
      sortDirections: ['ascend', 'descend', 'ascend'],
      render: (ts: number) => dayjs.unix(ts).format(timeFormats[run.interval]),
    },
    ...items.map((c, i) => ({
      key: String(c.item_id),
      title: (
        <Flex vertical>
          <span>{c.item_name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
            {c.device_name}
            {c.unit ? ` · ${c.unit}` : ''}
          </Typography.Text>
        </Flex>
      ),
      align: 'right' as const,
      width: 140,
      render: (_: unknown, row: { values: Array<number | null> }) => {
        const v = row.values[i];
        return v === null || v === undefined ? <Typography.Text type="secondary">—</Typography.Text> : round(v);
      },
    })),
  ];
  return (
    <Card size="small" title={t('reportsUi.history.table')}>
      <Table
        rowKey="ts"
        size="small"
        columns={columns}
        dataSource={table?.data ?? []}
        loading={loading}
        scroll={{ x: 170 + 140 * items.length }}
        locale={{ emptyText: <Empty description={t('reportsUi.history.noData')} /> }}
        onChange={(pagination, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const order = s?.order === 'descend' ? 'desc' : 'asc';
          onPaging({
            page: order !== paging.order ? 1 : (pagination.current ?? 1),
            limit: pagination.pageSize ?? 20,
            order,
          });
        }}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          total: table?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (total) => t('reportsUi.total', { total }),
        }}
      />
    </Card>
  );
};
