import { workOrderRoutes as r } from '@sitewatch/contract/work-orders';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, DatePicker, Row, Statistic } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { useEChart } from '../../../components/use-echart.ts';
import { priorityKey, stateKey } from '../api.ts';

use([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

const hours = (s: number | null | undefined) => (s === null || s === undefined ? '—' : (s / 3600).toFixed(1));

/** /workorder_statistics: counts by state, priority and handler, overdue, mean times, and per month. */
export const StatisticsPage = () => {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  const stats = useQuery({ queryKey: ['work-orders', 'stats'], queryFn: () => api.call(r.statistics, {}) });
  const months = useQuery({
    queryKey: ['work-orders', 'stats', 'month', year],
    queryFn: () => api.call(r.month, { query: { year } }),
  });
  // work_order_main_page/time: created and completed per day of a range (the last 30 days at first).
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day').startOf('day'), dayjs()]);
  const start = range[0].startOf('day').unix();
  const end = range[1].endOf('day').unix() + 1;
  const days = useQuery({
    queryKey: ['work-orders', 'stats', 'time', start, end],
    queryFn: () => api.call(r.time, { query: { start, end } }),
  });
  const byState = useEChart();
  const byHandler = useEChart();
  const byPriority = useEChart();
  const perMonth = useEChart();
  const perDay = useEChart();
  const s = stats.data;
  useEffect(() => {
    if (!s) return;
    byState.chart.current?.setOption({
      // Drawn at once: a picture of the page shows its figures, not a pie half swept.
      animation: false,
      tooltip: {},
      // Named slices and a legend: the states are told apart by name, not only by colour.
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: '55%',
          center: ['50%', '45%'],
          label: { formatter: '{b}: {c}' },
          data: s.by_state.filter((x) => x.count > 0).map((x) => ({ name: t(stateKey(x.key)), value: x.count })),
        },
      ],
    });
    byHandler.chart.current?.setOption({
      animation: false,
      tooltip: {},
      grid: { left: 40, right: 16, top: 16, bottom: 30 },
      xAxis: { type: 'category', data: s.by_handler.map((x) => x.name) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', data: s.by_handler.map((x) => x.count) }],
    });
    byPriority.chart.current?.setOption({
      animation: false,
      tooltip: {},
      grid: { left: 40, right: 16, top: 16, bottom: 30 },
      xAxis: { type: 'category', data: s.by_priority.map((x) => t(priorityKey(x.key))) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', data: s.by_priority.map((x) => x.count) }],
    });
  }, [s, t, byState.chart, byHandler.chart, byPriority.chart]);
  useEffect(() => {
    if (!months.data) return;
    perMonth.chart.current?.setOption({
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 36, bottom: 30 },
      xAxis: { type: 'category', data: months.data.map((m) => m.label) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: t('workOrderUi.created'), type: 'line', data: months.data.map((m) => m.created) },
        { name: t('workOrderUi.completed'), type: 'line', data: months.data.map((m) => m.completed) },
      ],
    });
  }, [months.data, t, perMonth.chart]);
  useEffect(() => {
    if (!days.data) return;
    perDay.chart.current?.setOption({
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 36, bottom: 30 },
      xAxis: { type: 'category', data: days.data.map((d) => d.label.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: t('workOrderUi.created'), type: 'bar', data: days.data.map((d) => d.created) },
        { name: t('workOrderUi.completed'), type: 'bar', data: days.data.map((d) => d.completed) },
      ],
    });
  }, [days.data, t, perDay.chart]);
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card title={t('workOrderUi.statistics')} data-testid="work-order-stats">
          <Row gutter={16}>
            <Col span={6}>
              <Statistic title={t('workOrderUi.total')} value={s?.total ?? 0} />
            </Col>
            <Col span={6}>
              <Statistic
                title={t('workOrderUi.states.4')}
                value={s?.by_state.find((x) => x.key === 4)?.count ?? 0}
                data-testid="work-order-stats-passed"
              />
            </Col>
            <Col span={4}>
              <Statistic title={t('workOrderUi.overdue')} value={s?.overdue ?? 0} />
            </Col>
            <Col span={4}>
              <Statistic title={t('workOrderUi.avgReceive')} value={hours(s?.avg_receive_seconds)} />
            </Col>
            <Col span={4}>
              <Statistic title={t('workOrderUi.avgComplete')} value={hours(s?.avg_complete_seconds)} />
            </Col>
          </Row>
        </Card>
      </Col>
      <Col span={8}>
        <Card title={t('workOrderUi.byState')}>
          <div ref={byState.box} style={{ height: 260 }} />
        </Card>
      </Col>
      <Col span={8}>
        <Card title={t('workOrderUi.byPriority')}>
          <div ref={byPriority.box} style={{ height: 260 }} />
        </Card>
      </Col>
      <Col span={8}>
        <Card title={t('workOrderUi.byHandler')}>
          <div ref={byHandler.box} style={{ height: 260 }} />
        </Card>
      </Col>
      <Col span={24}>
        <Card
          title={t('workOrderUi.perDay')}
          extra={
            <DatePicker.RangePicker
              allowClear={false}
              value={range}
              maxDate={dayjs()}
              onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
            />
          }
          data-testid="work-order-stats-days"
        >
          <div ref={perDay.box} style={{ height: 280 }} />
        </Card>
      </Col>
      <Col span={24}>
        <Card title={t('workOrderUi.perMonth')}>
          <div ref={perMonth.box} style={{ height: 280 }} />
        </Card>
      </Col>
    </Row>
  );
};
