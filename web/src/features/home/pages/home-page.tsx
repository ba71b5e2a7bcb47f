import { LogoutOutlined, MonitorOutlined } from '@ant-design/icons';
import { type CurveRange, curveRanges, riskOf, signalLevel } from '@sitewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, DatePicker, Empty, Flex, Progress, Radio, Select, Space, Tooltip, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import { type CSSProperties, lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { defaultEdition } from '../../../session/edition.ts';
import { useLogoutConfirm } from '../../../session/logout.ts';
import { useSession } from '../../../session/session.ts';
import { useTabs } from '../../../session/tabs.ts';
import {
  curveRefreshMs,
  electricalQuery,
  environmentQuery,
  lastInspectionQuery,
  levelCountQuery,
  rankingQuery,
  recentAlarmsQuery,
  statisticsQuery,
  systemInfoQuery,
} from '../api.ts';
import { AlarmScroller } from '../components/alarm-scroller.tsx';
import { fs, Panel } from '../components/panel.tsx';
import { Meter, ServiceRow, SignalBars, Stat } from '../components/widgets.tsx';
import { readCurve } from '../curve.ts';

// ECharts is fetched as soon as this page loads, beside the dashboard's first reads, not after them.
const envChartModule = import('../components/env-chart.tsx');
const EnvChart = lazy(() => envChartModule.then((m) => ({ default: m.EnvChart })));

const riskColors = { low: '#52c41a', medium: '#faad14', high: '#fa8c16', serious: '#f5222d' } as const;
/** Fallback colours of levels 1–5 when a level has none configured (most severe first). */
const levelFallback = ['#f5222d', '#fa541c', '#fa8c16', '#faad14', '#1677ff'];
const riskKeys = {
  low: 'homeUi.riskLevels.low',
  medium: 'homeUi.riskLevels.medium',
  high: 'homeUi.riskLevels.high',
  serious: 'homeUi.riskLevels.serious',
} as const;
/** A tab's address without the single-page switch, so the console opens with its menu and tabs. */
const withoutFullShow = (url: string) => {
  const u = new URL(url, 'http://x');
  u.searchParams.delete('fullShow');
  return `${u.pathname}${u.search}`;
};
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
 * The home dashboard (000 §2.6), shown alone (fullShow=yes): risk index, five counters, the
 * temperature and humidity curve, the top-5 alarm ranking, the system running status, the
 * scrolling recent alarms, signal, inspection and notification service, and alarm counts by level.
 * Polls per 000 §9 and refreshes at once on every alarm push. docs/dashboard.md.
 */
export const HomePage = () => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const navigate = useNavigate();
  // Alone (fullShow=yes, 000 §2.5) the page has its own title bar; inside the shell it has the shell's.
  const [params] = useSearchParams();
  const standalone = params.get('fullShow') === 'yes';
  const confirmLogout = useLogoutConfirm();
  const session = useSession();

  const statistics = useQuery(statisticsQuery);
  const levels = useQuery(levelCountQuery);
  const ranking = useQuery(rankingQuery);
  const recent = useQuery(recentAlarmsQuery);
  const system = useQuery(systemInfoQuery);
  const inspection = useQuery(lastInspectionQuery);
  const lastReport = inspection.data?.report;
  /** Time since the last inspection (000 §2.6). */
  const sinceText = (seconds: number) => {
    const m = Math.max(0, Math.floor((Date.now() / 1000 - seconds) / 60));
    if (m < 60) return t('homeUi.minutesAgo', { n: m });
    if (m < 1440) return t('homeUi.hoursAgo', { n: Math.floor(m / 60) });
    return t('homeUi.daysAgo', { n: Math.floor(m / 1440) });
  };
  const environment = useQuery(environmentQuery);
  const electrical = useQuery(electricalQuery);
  const elec = electrical.data;

  const devices = environment.data?.data ?? [];
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const device = devices.find((d) => d.id === deviceId) ?? devices[0];
  const [range, setRange] = useState<CurveRange>(0);
  const [weekInterval, setWeekInterval] = useState<120 | 3600>(3600);
  const [custom, setCustom] = useState<{ t1: number; t2: number } | undefined>();
  const curve = useQuery({
    queryKey: ['home', 'curve', device?.device_name, range, weekInterval, custom],
    queryFn: async () => {
      const req = { deviceName: device!.device_name, range, weekInterval, custom, nowMs: Date.now() };
      const [temp, hum] = await Promise.all([readCurve(req, 'TEMP'), readCurve(req, 'HUM')]);
      return { temp, hum };
    },
    enabled: Boolean(device) && (range !== 5 || Boolean(custom)),
    refetchInterval: curveRefreshMs,
    retry: 0,
    staleTime: 0,
  });
  const [chartDrawn, setChartDrawn] = useState(false);

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

  const settled = (q: { status: string }) => q.status !== 'pending';
  const curveSettled =
    environment.isSuccess && devices.length === 0 ? true : settled(curve) && chartDrawn && curve.isFetched;
  const ready =
    [statistics, levels, ranking, recent, system, environment].every(settled) && (environment.isError || curveSettled);

  const stats = statistics.data;
  const risk = riskOf(stats?.item_abnormal ?? 0, stats?.items ?? 0);
  const rows = ranking.data?.data ?? [];
  const maxCount = Math.max(0, ...rows.map((r) => r.alarm_count));
  const sys = system.data;

  /** The monitoring console: the first open tab, else the first page of the menu (000 §2.6). */
  const openConsole = () => {
    // The first open tab that is not the dashboard itself.
    const first = useTabs.getState().tabs.find((tab) => tab.id !== 'home');
    navigate(first ? withoutFullShow(first.url) : (session.firstPage ?? '/setting_auto_login'));
  };
  /** Inspect now: the Inspection page when the menu has it (000 §2.6). */
  const inspectNow = () => {
    if (session.status !== 'ready') return void message.warning(t('common.loading'));
    if (session.enableMenuList.some((url) => url.replace(/\.html$/, '').replace(/\//g, '') === 'polling_main')) {
      navigate('/polling_main');
      return;
    }
    void message.warning(t('homeUi.moduleClosed'));
  };

  const cell: CSSProperties = { minHeight: 0, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 12 };
  return (
    <div
      data-testid={ready ? 'home-ready' : 'home-loading'}
      style={{
        margin: -16,
        height: standalone ? '100vh' : 'calc(100% + 32px)',
        minHeight: 640,
        display: 'flex',
        flexDirection: 'column',
        background: token.colorBgLayout,
        color: token.colorText,
      }}
    >
      {standalone && (
        <header
          style={{
            height: 'max(48px, 0.6rem)',
            flex: 'none',
            display: 'grid',
            gridTemplateColumns: '1fr auto 1fr',
            alignItems: 'center',
            gap: 16,
            padding: '0 16px',
            background: token.colorBgContainer,
            borderBottom: `2px solid ${token.colorPrimary}`,
          }}
        >
          {/* The title stands in the middle: the shell's waiting-alarm button sits in the free space at the left. */}
          <img src="/favicon.svg" alt="" width={28} height={28} style={{ justifySelf: 'start' }} />
          <h1
            style={{
              margin: 0,
              fontSize: fs.huge,
              color: token.colorPrimary,
              whiteSpace: 'nowrap',
              justifySelf: 'center',
            }}
            data-testid="home-title"
          >
            {defaultEdition.sys_name || t('app.name')}
          </h1>
          <Space size="middle" style={{ justifySelf: 'end' }}>
            <Button type="link" icon={<MonitorOutlined />} onClick={openConsole} data-testid="home-console">
              {t('homeUi.console')}
            </Button>
            <Button type="link" icon={<LogoutOutlined />} onClick={() => confirmLogout()} data-testid="home-logout">
              {t('shell.logout.label')}
            </Button>
          </Space>
        </header>
      )}

      <main
        style={{
          flex: 1,
          minHeight: 0,
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1.7fr) minmax(0, 1fr)',
          gridTemplateRows: 'minmax(0, 1fr) minmax(0, 1fr)',
          gap: 12,
          padding: 12,
        }}
      >
        <div style={cell}>
          <Panel title={t('homeUi.risk')} testId="home-risk" style={{ flex: 1 }}>
            <Flex vertical gap={8} style={{ height: '100%' }}>
              <Flex align="center" justify="center" gap={16} style={{ flex: 1, minHeight: 0 }}>
                <Progress
                  type="dashboard"
                  percent={risk.percent}
                  size={96}
                  strokeColor={riskColors[risk.level]}
                  format={(p) => <span style={{ color: token.colorText, fontSize: fs.big }}>{p}%</span>}
                />
                <Flex vertical align="flex-start">
                  <span style={{ fontSize: fs.small, color: token.colorTextSecondary }}>{t('homeUi.riskLevel')}</span>
                  <span
                    data-testid="home-risk-level"
                    data-level={risk.level}
                    style={{ fontSize: fs.big, fontWeight: 700, color: riskColors[risk.level] }}
                  >
                    {t(riskKeys[risk.level])}
                  </span>
                </Flex>
              </Flex>
              <div style={{ display: 'grid', gridTemplateColumns: 'repeat(5, minmax(0, 1fr))', gap: 6 }}>
                <Stat
                  label={t('homeUi.counters.deviceGroups')}
                  value={stats?.device_groups ?? '—'}
                  testId="home-count-device_groups"
                />
                <Stat label={t('homeUi.counters.devices')} value={stats?.devices ?? '—'} testId="home-count-devices" />
                <Stat label={t('homeUi.counters.items')} value={stats?.items ?? '—'} testId="home-count-items" />
                <Stat
                  label={t('homeUi.counters.normal')}
                  value={stats?.item_normal ?? '—'}
                  color={token.colorSuccess}
                  testId="home-count-item_normal"
                />
                <Stat
                  label={t('homeUi.counters.abnormal')}
                  value={stats?.item_abnormal ?? '—'}
                  color={token.colorError}
                  testId="home-count-item_abnormal"
                />
              </div>
            </Flex>
          </Panel>
        </div>

        <div style={cell}>
          <Panel
            title={t('homeUi.curve')}
            testId="home-curve-panel"
            style={{ flex: 1 }}
            extra={
              <Space size={6} wrap>
                {devices.length > 0 && (
                  <Select
                    size="small"
                    style={{ width: 170 }}
                    value={device?.id}
                    onChange={setDeviceId}
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
                  onChange={(v) => setRange(v)}
                  aria-label={t('homeUi.range.label')}
                  data-testid="home-range"
                  options={curveRanges.map((r) => ({ value: r, label: t(rangeKeys[r]) }))}
                />
                {range === 2 && (
                  <Radio.Group
                    size="small"
                    optionType="button"
                    value={weekInterval}
                    onChange={(e) => setWeekInterval(e.target.value)}
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
                      setCustom(v?.[0] && v[1] ? { t1: v[0].unix(), t2: v[1].unix() } : undefined)
                    }
                  />
                )}
              </Space>
            }
          >
            {device ? (
              <Flex vertical style={{ height: '100%' }}>
                <Flex gap={16} style={{ fontSize: fs.body }} data-testid="home-env-now">
                  {device.items.map((i) => (
                    <span key={i.id}>
                      {i.item_cell_name === 'TEMP' ? t('homeUi.temperature') : t('homeUi.humidity')}:{' '}
                      <b style={{ color: token.colorPrimary }}>{i.value === null ? '—' : i.value.toFixed(1)}</b>{' '}
                      {i.unit}
                    </span>
                  ))}
                </Flex>
                <div style={{ flex: 1, minHeight: 120 }}>
                  <Suspense fallback={null}>
                    <EnvChart
                      lines={lines}
                      colors={chartColors}
                      onDrawn={() => curve.isFetched && setChartDrawn(true)}
                    />
                  </Suspense>
                </div>
              </Flex>
            ) : (
              environment.isSuccess && (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeUi.noEnvironment')} />
              )
            )}
          </Panel>
        </div>

        <div style={cell}>
          <Panel title={t('homeUi.system')} testId="home-system" style={{ flex: 1 }}>
            <Flex vertical gap={6} style={{ height: '100%', justifyContent: 'space-around' }}>
              <Meter
                label={t('homeUi.cpu')}
                percent={sys?.cpu.percent ?? null}
                detail={sys?.cpu.percent == null ? '—' : `${sys.cpu.percent.toFixed(2)}%`}
                testId="home-cpu"
              />
              <Meter
                label={t('homeUi.memory')}
                percent={sys?.memory.percent ?? null}
                detail={sys ? `${sys.memory.used} / ${sys.memory.total}` : '—'}
                testId="home-memory"
              />
              <Meter
                label={t('homeUi.disk')}
                percent={sys?.disk.percent ?? null}
                detail={sys ? `${sys.disk.used} / ${sys.disk.total}` : '—'}
                testId="home-disk"
              />
              <ServiceRow label={t('homeUi.alertService')} state={sys?.alert_service} testId="home-service-alert" />
              <ServiceRow label={t('homeUi.systemService')} state={sys?.system_serice} testId="home-service-system" />
              <ServiceRow
                label={t('homeUi.collectionService')}
                state={sys?.collection_service}
                testId="home-service-collection"
              />
            </Flex>
          </Panel>
        </div>

        <div style={cell}>
          <Panel title={t('homeUi.ranking')} testId="home-ranking" style={{ flex: 1 }}>
            {rows.length === 0 ? (
              ranking.isSuccess && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeUi.noAlarms')} />
            ) : (
              <Flex vertical gap={8} style={{ height: '100%', justifyContent: 'space-around' }}>
                {rows.map((r, i) => (
                  <div key={r.id} data-testid="home-ranking-row" style={{ fontSize: fs.body }}>
                    <Flex justify="space-between" gap={8}>
                      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                        <b style={{ color: i < 3 ? token.colorError : token.colorTextSecondary, marginRight: 6 }}>
                          {i + 1}
                        </b>
                        {[...r.device.DeviceGroups.map((g) => g.name), r.device.name, r.name].join(' / ')}
                      </span>
                      <b>{r.alarm_count}</b>
                    </Flex>
                    <div style={{ height: 6, background: token.colorFillSecondary, borderRadius: 3 }}>
                      <div
                        data-testid="home-ranking-bar"
                        style={{
                          height: '100%',
                          width: `${maxCount > 0 ? (r.alarm_count / (1.1 * maxCount)) * 100 : 0}%`,
                          background: `linear-gradient(90deg, ${token.colorPrimary}, ${token.colorError})`,
                          borderRadius: 3,
                        }}
                      />
                    </div>
                  </div>
                ))}
              </Flex>
            )}
          </Panel>
        </div>

        <div style={cell}>
          <Panel title={t('homeUi.electrical')} testId="home-electrical">
            {elec && elec.meters + elec.switches === 0 ? (
              <span style={{ fontSize: fs.body, color: token.colorTextSecondary }}>{t('homeUi.noElectrical')}</span>
            ) : (
              <div style={{ display: 'grid', gridTemplateColumns: 'repeat(5, minmax(0, 1fr))', gap: 6 }}>
                <Stat
                  label={t('homeUi.electricalMeters')}
                  value={elec?.meters ?? '—'}
                  testId="home-electrical-meters"
                />
                <Stat
                  label={t('homeUi.electricalIssues')}
                  value={elec?.meters_with_issues ?? '—'}
                  color={elec?.meters_with_issues ? token.colorError : token.colorSuccess}
                  testId="home-electrical-issues"
                />
                <Stat
                  label={t('homeUi.electricalOn')}
                  value={elec?.switches_on ?? '—'}
                  color={token.colorSuccess}
                  testId="home-electrical-on"
                />
                <Stat
                  label={t('homeUi.electricalOff')}
                  value={elec?.switches_off ?? '—'}
                  testId="home-electrical-off"
                />
                <Stat
                  label={t('homeUi.electricalPower')}
                  value={elec?.power_kw == null ? '—' : elec.power_kw.toFixed(1)}
                  testId="home-electrical-power"
                />
              </div>
            )}
          </Panel>
          <Panel title={t('homeUi.recent')} testId="home-recent" style={{ flex: 1 }}>
            <AlarmScroller rows={recent.data?.data ?? []} />
          </Panel>
        </div>

        <div style={cell}>
          <Panel title={t('homeUi.levels')} testId="home-levels">
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(5, minmax(0, 1fr))', gap: 6 }}>
              {(levels.data?.data ?? [1, 2, 3, 4, 5].map((level) => ({ level, name: '', color: '', count: 0 }))).map(
                (l) => (
                  <Tooltip key={l.level} title={l.name || t('homeUi.level', { level: l.level })}>
                    <div style={{ borderTop: `3px solid ${l.color || levelFallback[l.level - 1]}`, minWidth: 0 }}>
                      <Stat
                        label={l.name || t('homeUi.level', { level: l.level })}
                        value={levels.data ? l.count : '—'}
                        color={l.color || levelFallback[l.level - 1]}
                        testId={`home-level-${l.level}`}
                      />
                    </div>
                  </Tooltip>
                ),
              )}
            </div>
          </Panel>
          <Panel title={t('homeUi.card')} testId="home-card" style={{ flex: 1 }}>
            <Flex vertical gap={8} style={{ height: '100%', justifyContent: 'space-around', fontSize: fs.body }}>
              <Flex justify="space-between" align="center">
                <span>{t('homeUi.signal')}</span>
                {sys?.signal == null ? (
                  <span data-testid="home-signal" style={{ color: token.colorTextSecondary }}>
                    {t('homeUi.noData')}
                  </span>
                ) : (
                  <SignalBars level={signalLevel(sys.signal)} />
                )}
              </Flex>
              <Flex justify="space-between" align="center">
                <span>{t('homeUi.lastInspection')}</span>
                <span data-testid="home-inspection" style={{ color: token.colorTextSecondary }}>
                  {lastReport ? sinceText(lastReport.create_time) : t('homeUi.noDataYet')}
                </span>
              </Flex>
              <ServiceRow
                label={t('homeUi.notificationService')}
                state={sys?.notification_service}
                testId="home-service-notification"
              />
              <Button type="primary" block onClick={inspectNow} data-testid="home-inspect">
                {t('homeUi.inspectNow')}
              </Button>
            </Flex>
          </Panel>
        </div>
      </main>
    </div>
  );
};
