import { type CurveRange, curveRanges } from '@sitewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Empty, Flex, Radio, Select, Space, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { curveQuery } from '../curve.ts';
import type { HomeQueries } from '../use-home-queries.ts';
import { fs, Panel } from './panel.tsx';

// ECharts is fetched as soon as this module loads (with the page), beside the dashboard's first reads, not after them.
const envChartModule = import('./env-chart.tsx');
const EnvChart = lazy(() => envChartModule.then((m) => ({ default: m.EnvChart })));

const rangeKeys = {
  0: 'homeUi.range.last4h',
  1: 'homeUi.range.today',
  2: 'homeUi.range.week',
  3: 'homeUi.range.month',
  4: 'homeUi.range.year',
  5: 'homeUi.range.custom',
  6: 'homeUi.range.last1d',
  7: 'homeUi.range.last3d',
  8: 'homeUi.range.last7d',
} as const satisfies Record<CurveRange, string>;

/**
 * The temperature and humidity curve's state: the chosen device and range, its reads, and whether it
 * has settled (read and drawn, or nothing to draw), which the page's readiness waits for.
 */
export const useEnvCurve = (environment: HomeQueries['environment']) => {
  const devices = environment.data?.data ?? [];
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const device = devices.find((d) => d.id === deviceId) ?? devices[0];
  const [range, setRange] = useState<CurveRange>(0);
  const [weekInterval, setWeekInterval] = useState<120 | 3600>(3600);
  const [custom, setCustom] = useState<{ t1: number; t2: number } | undefined>();
  const curve = useQuery({
    ...curveQuery({ deviceName: device?.device_name ?? '', range, weekInterval, custom }),
    enabled: Boolean(device) && (range !== 5 || Boolean(custom)),
  });
  const [chartDrawn, setChartDrawn] = useState(false);
  const settled =
    environment.isSuccess && devices.length === 0 ? true : curve.status !== 'pending' && chartDrawn && curve.isFetched;
  return {
    environment,
    devices,
    device,
    setDeviceId,
    range,
    setRange,
    weekInterval,
    setWeekInterval,
    setCustom,
    curve,
    onDrawn: () => curve.isFetched && setChartDrawn(true),
    settled,
  };
};

/** The curve panel (000 §2.6): device, range and its sub-choices, the current values and the chart. */
export const CurvePanel = ({ state }: { state: ReturnType<typeof useEnvCurve> }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { devices, device, range, weekInterval, curve } = state;
  const chartColors = useMemo(
    () => ({ text: token.colorText, secondary: token.colorTextSecondary, border: token.colorBorderSecondary }),
    [token.colorText, token.colorTextSecondary, token.colorBorderSecondary],
  );
  const lines = useMemo(() => {
    const unitOf = (cell: string, fallback: string) =>
      device?.items.find((i) => i.item_cell_name === cell)?.unit || fallback;
    return [
      { name: t('homeUi.temperature'), unit: unitOf('TEMP', '℃'), color: '#fa8c16', data: curve.data?.temp ?? [] },
      { name: t('homeUi.humidity'), unit: unitOf('HUM', '%RH'), color: '#13c2c2', data: curve.data?.hum ?? [] },
    ];
  }, [curve.data, device, t]);

  const choices = (
    <Space size={6} wrap>
      {devices.length > 0 && (
        <Select
          size="small"
          style={{ width: 170 }}
          value={device?.id}
          onChange={state.setDeviceId}
          aria-label={t('homeUi.device')}
          options={devices.map((d) => ({ value: d.id, label: `${d.device_group} / ${d.name}` }))}
          popupMatchSelectWidth={false}
        />
      )}
      <Select
        size="small"
        // Wide enough for the longest range name in every language ("Last 4 hours").
        style={{ minWidth: 110 }}
        popupMatchSelectWidth={false}
        value={range}
        onChange={(v) => state.setRange(v)}
        aria-label={t('homeUi.range.label')}
        data-testid="home-range"
        options={curveRanges.map((r) => ({ value: r, label: t(rangeKeys[r]) }))}
      />
      {range === 2 && (
        <Radio.Group
          size="small"
          optionType="button"
          value={weekInterval}
          onChange={(e) => state.setWeekInterval(e.target.value)}
          options={[
            { value: 120, label: t('homeUi.range.twoMinutes') },
            { value: 3600, label: t('homeUi.range.oneHour') },
          ]}
        />
      )}
      {range === 5 && (
        <DatePicker.RangePicker
          size="small"
          showTime
          onChange={(v: [Dayjs | null, Dayjs | null] | null) =>
            state.setCustom(v?.[0] && v[1] ? { t1: v[0].unix(), t2: v[1].unix() } : undefined)
          }
        />
      )}
    </Space>
  );

  return (
    <Panel title={t('homeUi.curve')} testId="home-curve-panel" style={{ flex: 1 }} extra={choices}>
      {device ? (
        <Flex vertical style={{ height: '100%' }}>
          <Flex gap={16} style={{ fontSize: fs.body }} data-testid="home-env-now">
            {device.items.map((i) => (
              <span key={i.id}>
                {i.item_cell_name === 'TEMP' ? t('homeUi.temperature') : t('homeUi.humidity')}:{' '}
                <b style={{ color: token.colorPrimary }}>{i.value === null ? '—' : i.value.toFixed(1)}</b> {i.unit}
              </span>
            ))}
          </Flex>
          <div style={{ flex: 1, minHeight: 120 }}>
            <Suspense fallback={null}>
              <EnvChart lines={lines} colors={chartColors} onDrawn={state.onDrawn} />
            </Suspense>
          </div>
        </Flex>
      ) : (
        state.environment.isSuccess && (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeUi.noEnvironment')} />
        )
      )}
    </Panel>
  );
};
