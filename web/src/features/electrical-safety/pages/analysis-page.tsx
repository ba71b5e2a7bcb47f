import { type AnalysisAnswer, electricalSafetyRoutes as r } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, DatePicker, Empty, Flex, Row, Select, Spin, Table, Typography } from 'antd';
import type dayjs from 'dayjs';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../../api/client.ts';
import { rangeBounds } from '../../../components/time-ranges.ts';
import { useEChart } from '../../../components/use-echart.ts';
import { electricalKeys, metersQuery } from '../api.ts';
import { fmt, roleKey } from '../components/labels.ts';

use([LineChart, GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

const ranges = ['today', 'last24h', 'last3d', 'week', 'last7d', 'month', 'custom'] as const;
type Range = (typeof ranges)[number];
type Point = AnalysisAnswer['points'][number];
type Line = { name: string; pick: (p: Point) => number | null | undefined };

/** One chart of a few lines over the buckets, with the limit as a dashed line when there is one. */
const QualityChart = ({
  title,
  points,
  lines,
  limit,
}: {
  title: string;
  points: Point[];
  lines: Line[];
  limit?: number;
}) => {
  const { box, chart } = useEChart();
  useEffect(() => {
    chart.current?.setOption(
      {
        // No animation, as the energy charts: a figure is read, and a picture shows it at once.
        animation: false,
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        grid: { left: 48, right: 16, top: 32, bottom: 28 },
        xAxis: { type: 'time' },
        yAxis: { type: 'value', scale: true },
        series: lines.map((l, i) => ({
          name: l.name,
          type: 'line',
          showSymbol: false,
          data: points.map((p) => [p.ts * 1000, l.pick(p) ?? null]),
          ...(i === 0 && limit !== undefined
            ? {
                markLine: { symbol: 'none', lineStyle: { type: 'dashed', color: '#f5222d' }, data: [{ yAxis: limit }] },
              }
            : {}),
        })),
      },
      true,
    );
  }, [points, lines, limit, chart]);
  return (
    <Card size="small" title={title}>
      <div ref={box} style={{ height: 220 }} />
    </Card>
  );
};

/**
 * /energy_manage/elect_analysis: one meter over a time range (002 §4), from the series store's
 * minute or hour means: phase voltages and currents, voltage and current unbalance, THD, power
 * factor and frequency, each against its limit, and a summary of how long each was beyond it.
 */
export const AnalysisPage = () => {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const meters = useQuery(metersQuery(null));
  const withPoints = (meters.data ?? []).filter((m) => Object.values(m.points).some((v) => v !== null));
  const deviceId = Number(params.get('device_id')) || withPoints[0]?.device_id || null;
  const [range, setRange] = useState<Range>('last24h');
  const [custom, setCustom] = useState<[dayjs.Dayjs, dayjs.Dayjs] | null>(null);
  const [anchor, setAnchor] = useState(() => Date.now());
  const [t1, t2] = rangeBounds(range, anchor, custom ? [custom[0].unix(), custom[1].unix()] : undefined);
  const analysis = useQuery({
    queryKey: [...electricalKeys.all, 'analysis', deviceId, t1, t2],
    queryFn: () => api.call(r.analysis, { query: { device_id: deviceId!, t1, t2 } }),
    enabled: deviceId !== null,
  });
  const a = analysis.data;
  const points = a?.points ?? [];
  const charts = useMemo(() => {
    const role = (k: 'ua' | 'ub' | 'uc' | 'ia' | 'ib' | 'ic'): Line => ({
      name: t(roleKey(k)),
      pick: (p) => p.phases[k],
    });
    return [
      { key: 'u', title: t('electricalUi.phaseVoltages'), lines: [role('ua'), role('ub'), role('uc')] },
      { key: 'i', title: t('electricalUi.phaseCurrents'), lines: [role('ia'), role('ib'), role('ic')] },
      {
        key: 'unbalance',
        title: t('electricalUi.figures.voltage_unbalance'),
        lines: [
          { name: t('electricalUi.figures.voltage_unbalance'), pick: (p: Point) => p.vuf ?? p.voltage_unbalance },
          { name: t('electricalUi.figures.current_unbalance'), pick: (p: Point) => p.current_unbalance },
        ],
        limit: a?.limits.voltage_unbalance_max,
      },
      {
        key: 'thd',
        title: t('electricalUi.figures.thd'),
        lines: [
          { name: t('electricalUi.figures.thd_u'), pick: (p: Point) => p.thd_u },
          { name: t('electricalUi.figures.thd_i'), pick: (p: Point) => p.thd_i },
        ],
        limit: a?.limits.thd_u_max,
      },
      {
        key: 'pf',
        title: t('electricalUi.figures.pf'),
        lines: [{ name: t('electricalUi.figures.pf'), pick: (p: Point) => p.pf }],
        limit: a?.limits.pf_min,
      },
      {
        key: 'f',
        title: t('electricalUi.figures.frequency'),
        lines: [{ name: t('electricalUi.figures.frequency'), pick: (p: Point) => p.frequency }],
      },
    ];
  }, [t, a]);
  const summaryRows = Object.entries(a?.summary ?? {}).map(([key, s]) => ({ key, ...s }));

  return (
    <div data-testid="elect-analysis-page">
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Select<number>
          value={deviceId ?? undefined}
          style={{ width: 260 }}
          showSearch
          optionFilterProp="label"
          placeholder={t('electricalUi.chooseMeter')}
          aria-label={t('electricalUi.meter')}
          loading={meters.isPending}
          options={withPoints.map((m) => ({ value: m.device_id, label: `${m.device_group_name} / ${m.device_name}` }))}
          onChange={(id) => setParams({ device_id: String(id) })}
        />
        <Select<Range>
          value={range}
          onChange={(v) => {
            setRange(v);
            setAnchor(Date.now());
          }}
          style={{ width: 130 }}
          aria-label={t('electricalUi.range')}
          options={ranges.map((v) => ({ value: v, label: t(`deviceUi.curve.ranges.${v}`) }))}
        />
        {range === 'custom' && (
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={custom}
            onChange={(v) => setCustom(v?.[0] && v[1] ? [v[0], v[1]] : null)}
          />
        )}
        <Button onClick={() => setAnchor(Date.now())}>{t('electricalUi.refresh')}</Button>
        {a && (
          <Typography.Text type="secondary" data-testid="analysis-resolution">
            {t(
              a.resolution === 'minute'
                ? 'electricalUi.byMinute'
                : a.resolution === 'hour'
                  ? 'electricalUi.byHour'
                  : 'electricalUi.byDay',
              { n: points.length },
            )}
          </Typography.Text>
        )}
      </Flex>
      {deviceId === null ? (
        meters.isPending ? (
          <Spin />
        ) : (
          <Empty description={t('electricalUi.noDevices')} />
        )
      ) : (
        <>
          <Table
            size="small"
            rowKey="key"
            loading={analysis.isFetching}
            pagination={false}
            dataSource={summaryRows}
            style={{ marginBottom: 12 }}
            data-testid="analysis-summary"
            columns={[
              {
                title: t('electricalUi.figure'),
                dataIndex: 'key',
                render: (k: string) => t(`electricalUi.figures.${k}` as 'electricalUi.figures.pf'),
              },
              { title: t('electricalUi.avg'), dataIndex: 'avg', render: (v: number | null) => fmt(v, 3) },
              { title: t('electricalUi.min'), dataIndex: 'min', render: (v: number | null) => fmt(v, 3) },
              { title: t('electricalUi.max'), dataIndex: 'max', render: (v: number | null) => fmt(v, 3) },
              { title: t('electricalUi.limit'), dataIndex: 'limit', render: (v: number | null) => fmt(v, 2) },
              {
                title: t('electricalUi.overPct'),
                dataIndex: 'over_pct',
                render: (v: number | null) =>
                  v === null ? (
                    '—'
                  ) : (
                    <Typography.Text type={v > 0 ? 'danger' : undefined}>{`${v.toFixed(2)} %`}</Typography.Text>
                  ),
              },
            ]}
          />
          <Row gutter={[12, 12]}>
            {charts.map((c) => (
              <Col key={c.key} xs={24} xl={12}>
                <QualityChart title={c.title} points={points} lines={c.lines} limit={c.limit} />
              </Col>
            ))}
          </Row>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: 12 }}>
            {t('electricalUi.definitions')}
          </Typography.Paragraph>
        </>
      )}
    </div>
  );
};
