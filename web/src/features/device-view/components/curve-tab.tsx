import type { CurveSeries } from '@sitewatch/contract/device-view';
import type { LiveItem } from '@sitewatch/contract/monitoring';
import { useQuery } from '@tanstack/react-query';
import { App, Button, DatePicker, Empty, Flex, Select, Spin, Switch, Tag, Typography, theme } from 'antd';
import type dayjs from 'dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CurveChart,
  type CurveChartHandle,
  type CurveColors,
  type CurveLine,
} from '../../../components/curve-chart.tsx';
import { compareShift, rangeBounds, type TimeRange, timeRanges } from '../../../components/time-ranges.ts';
import { curveQuery, exportCurve, itemSearchQuery } from '../api.ts';

const rangeKeys = {
  last4h: 'deviceUi.curve.ranges.last4h',
  today: 'deviceUi.curve.ranges.today',
  week: 'deviceUi.curve.ranges.week',
  month: 'deviceUi.curve.ranges.month',
  year: 'deviceUi.curve.ranges.year',
  last24h: 'deviceUi.curve.ranges.last24h',
  last3d: 'deviceUi.curve.ranges.last3d',
  last7d: 'deviceUi.curve.ranges.last7d',
  custom: 'deviceUi.curve.ranges.custom',
} as const;
const resolutionKeys = {
  raw: 'deviceUi.curve.resolutions.raw',
  minute: 'deviceUi.curve.resolutions.minute',
  hour: 'deviceUi.curve.resolutions.hour',
} as const;
const maxSeries = 20;

const save = (href: string, fileName: string) => {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.click();
};

const fileStamp = () => new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');

/**
 * Curve: any items of the device, optionally items of other devices and the previous period, over
 * the ranges of 002 §4; down-sampled by the server to at most 1000 points a series.
 */
export const CurveTab = ({ deviceName, items }: { deviceName: string; items: LiveItem[] }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const chart = useRef<CurveChartHandle>(null);
  const [selected, setSelected] = useState<number[]>(() =>
    items
      .filter((i) => i.value_type === 1)
      .slice(0, 3)
      .map((i) => i.id),
  );
  const [others, setOthers] = useState<Array<{ value: number; label: string }>>([]);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [range, setRange] = useState<TimeRange>('last7d');
  const [custom, setCustom] = useState<[dayjs.Dayjs, dayjs.Dayjs] | null>(null);
  const [compare, setCompare] = useState(false);
  const [anchor, setAnchor] = useState(() => Date.now());
  const [exporting, setExporting] = useState(false);

  // The search waits until typing pauses; rolling ranges move with the clock every minute.
  useEffect(() => {
    const id = setTimeout(() => setSearch(typed), 500);
    return () => clearTimeout(id);
  }, [typed]);
  useEffect(() => {
    if (range === 'custom') return;
    setAnchor(Date.now());
    const id = setInterval(() => setAnchor(Date.now()), 60_000);
    return () => clearInterval(id);
  }, [range]);

  const [t1, t2] = rangeBounds(range, anchor, custom ? [custom[0].unix(), custom[1].unix()] : undefined);
  const shift = compareShift(range, t1, t2);
  const ids = [...selected, ...others.map((o) => o.value)];
  const current = useQuery(curveQuery(ids, t1, t2));
  const previous = useQuery({ ...curveQuery(ids, t1, t2, shift), enabled: compare && ids.length > 0 });
  const found = useQuery({ ...itemSearchQuery(search), enabled: search.length > 0 });
  const own = new Set(items.map((i) => i.id));

  const colors: CurveColors = {
    text: token.colorText,
    secondary: token.colorTextSecondary,
    border: token.colorBorderSecondary,
    background: token.colorBgContainer,
  };
  const label = (s: CurveSeries) => (own.has(s.item_id) ? s.item_name : `${s.device_name} · ${s.item_name}`);
  const shown = ids.length > 0 ? (current.data ?? []) : [];
  // The lines change only with the answers and the comparison, so the chart keeps its zoom meanwhile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answers and the id list decide the lines
  const lines = useMemo<CurveLine[]>(() => {
    const out: CurveLine[] = shown.map((s) => ({
      name: label(s),
      unit: s.unit,
      data: s.points.map((p) => [p.ts * 1000, p.value] as [number, number]),
    }));
    if (compare && previous.data) {
      for (const s of previous.data) {
        if (!ids.includes(s.item_id)) continue;
        out.push({
          name: t('deviceUi.curve.previous', { name: label(s) }),
          unit: s.unit,
          dashed: true,
          data: s.points.map((p) => [(p.ts + shift) * 1000, p.value] as [number, number]),
        });
      }
    }
    return out;
  }, [current.data, previous.data, compare, shift, ids.join(',')]);
  const chartRange = useMemo<[number, number]>(() => [t1 * 1000, t2 * 1000], [t1, t2]);
  const pointCount = lines.reduce((n, l) => n + l.data.length, 0);
  const resolutions = [...new Set(shown.map((s) => s.resolution))];

  const exportXlsx = async () => {
    setExporting(true);
    try {
      const blob = await exportCurve({ item_ids: ids, t1, t2, shift: compare ? shift : 0 });
      const href = URL.createObjectURL(blob);
      save(href, `${deviceName}-${fileStamp()}.xlsx`);
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
    } catch (err) {
      void message.error(err instanceof Error ? err.message : String(err));
    } finally {
      setExporting(false);
    }
  };
  const exportPng = () => {
    const url = chart.current?.png();
    if (url) save(url, `${deviceName}-${fileStamp()}.png`);
  };

  return (
    <Flex vertical gap={12} style={{ height: '100%' }}>
      <Flex gap={12} wrap align="center">
        <Select<number[]>
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          style={{ minWidth: 260, flex: '1 1 260px' }}
          placeholder={t('deviceUi.curve.pickItems')}
          aria-label={t('deviceUi.curve.items')}
          value={selected}
          optionFilterProp="label"
          onChange={(v) => {
            if (v.length + others.length > maxSeries) void message.warning(t('deviceUi.curve.tooMany'));
            else setSelected(v);
          }}
          options={items.map((i) => ({ value: i.id, label: i.unit ? `${i.name} (${i.unit})` : i.name }))}
          data-testid="curve-items"
        />
        <Select<Array<{ value: number; label: string }>>
          mode="multiple"
          labelInValue
          allowClear
          showSearch={{ filterOption: false, onSearch: setTyped }}
          maxTagCount="responsive"
          style={{ minWidth: 260, flex: '1 1 260px' }}
          placeholder={t('deviceUi.curve.otherItems')}
          aria-label={t('deviceUi.curve.otherItems')}
          value={others}
          notFoundContent={found.isFetching ? <Spin size="small" /> : null}
          onChange={(v) => {
            if (v.length + selected.length > maxSeries) void message.warning(t('deviceUi.curve.tooMany'));
            else setOthers(v.map((o) => ({ value: o.value, label: String(o.label) })));
          }}
          options={(found.data?.data ?? [])
            .filter((i) => !own.has(i.id))
            .map((i) => ({ value: i.id, label: `${i.site} / ${i.device_name} / ${i.name}` }))}
        />
      </Flex>
      <Flex gap={12} wrap align="center">
        <Select<TimeRange>
          value={range}
          onChange={setRange}
          style={{ width: 150 }}
          aria-label={t('deviceUi.curve.range')}
          options={timeRanges.map((r) => ({ value: r, label: t(rangeKeys[r]) }))}
          data-testid="curve-range"
        />
        {range === 'custom' ? (
          <DatePicker.RangePicker
            showTime
            value={custom}
            onChange={(v) => setCustom(v?.[0] && v[1] ? [v[0], v[1]] : null)}
          />
        ) : null}
        <Flex gap={6} align="center">
          <Switch checked={compare} onChange={setCompare} aria-label={t('deviceUi.curve.compare')} size="small" />
          <Typography.Text>{t('deviceUi.curve.compare')}</Typography.Text>
        </Flex>
        <Flex gap={8} style={{ marginInlineStart: 'auto' }}>
          <Button onClick={exportPng} disabled={pointCount === 0}>
            {t('deviceUi.curve.exportPng')}
          </Button>
          <Button onClick={() => void exportXlsx()} loading={exporting} disabled={ids.length === 0}>
            {t('deviceUi.curve.exportXlsx')}
          </Button>
        </Flex>
      </Flex>
      <Flex gap={8} align="center" wrap>
        {current.isFetching ? <Spin size="small" /> : null}
        <Typography.Text type="secondary">{t('deviceUi.curve.points', { n: pointCount })}</Typography.Text>
        {resolutions.map((r) => (
          <Tag key={r}>
            {t('deviceUi.curve.resolution')}: {t(resolutionKeys[r])}
          </Tag>
        ))}
      </Flex>
      <div data-testid="device-curve" data-points={pointCount} data-loading={current.isFetching ? 'true' : 'false'}>
        {ids.length === 0 ? (
          <Empty description={t('deviceUi.curve.pickItems')} />
        ) : (
          <div style={{ position: 'relative' }}>
            <CurveChart
              ref={chart}
              lines={lines}
              colors={colors}
              noUnit={t('deviceUi.curve.noUnit')}
              height={Math.max(300, window.innerHeight - 300)}
              range={chartRange}
            />
            {current.isSuccess && pointCount === 0 ? (
              <Flex justify="center" align="center" style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
                <Typography.Text type="secondary">{t('deviceUi.curve.noData')}</Typography.Text>
              </Flex>
            ) : null}
          </div>
        )}
      </div>
    </Flex>
  );
};
