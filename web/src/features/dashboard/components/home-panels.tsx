import { LogoutOutlined, MonitorOutlined } from '@ant-design/icons';
import { riskOf, signalLevel } from '@sitewatch/contract';
import { App, Button, Empty, Flex, Progress, Space, Tooltip, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo.tsx';
import { useEdition } from '../../../session/edition.ts';
import { useLogoutConfirm } from '../../../session/logout.ts';
import { useSession } from '../../../session/session.ts';
import { useTabs } from '../../../session/tabs.ts';
import type { HomeData, HomeQueries } from '../use-home-queries.ts';
import { fs, Panel } from './panel.tsx';
import { Meter, ServiceRow, SignalBars, Stat } from './widgets.tsx';

/** The dashboard's panels (000 §2.6), each drawing what one or two of the page's reads answered. */

const riskColors = { low: '#52c41a', medium: '#faad14', high: '#fa8c16', serious: '#f5222d' } as const;
/** Fallback colours of levels 1–5 when a level has none configured (most severe first). */
const levelFallback = ['#f5222d', '#fa541c', '#fa8c16', '#faad14', '#1677ff'];
const riskKeys = {
  low: 'homeUi.riskLevels.low',
  medium: 'homeUi.riskLevels.medium',
  high: 'homeUi.riskLevels.high',
  serious: 'homeUi.riskLevels.serious',
} as const;
const fiveColumns = { display: 'grid', gridTemplateColumns: 'repeat(5, minmax(0, 1fr))', gap: 6 } as const;

/** A tab's address without the single-page switch, so the console opens with its menu and tabs. */
const withoutFullShow = (url: string) => {
  const u = new URL(url, 'http://x');
  u.searchParams.delete('fullShow');
  return `${u.pathname}${u.search}`;
};

/** The title bar of the page shown alone (fullShow=yes, 000 §2.5): the way to the console, and logout. */
export const HomeHeader = () => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const confirmLogout = useLogoutConfirm();
  const edition = useEdition();
  const session = useSession();
  /** The monitoring console: the first open tab, else the first page of the menu (000 §2.6). */
  const openConsole = () => {
    // The first open tab that is not the dashboard itself.
    const first = useTabs.getState().tabs.find((tab) => tab.id !== 'home');
    navigate(first ? withoutFullShow(first.url) : (session.firstPage ?? '/setting_auto_login'));
  };
  return (
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
      <BrandLogo kind="main" maxHeight={40} fallbackSize={28} style={{ justifySelf: 'start' }} />
      <h1
        style={{ margin: 0, fontSize: fs.huge, color: token.colorPrimary, whiteSpace: 'nowrap', justifySelf: 'center' }}
        data-testid="home-title"
      >
        {edition.sys_show ? edition.sys_name || t('app.name') : ''}
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
  );
};

/** The risk index and the five counters. */
export const RiskPanel = ({ stats }: { stats: HomeData<'statistics'> }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const risk = riskOf(stats?.item_abnormal ?? 0, stats?.items ?? 0);
  return (
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
        <div style={fiveColumns}>
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
  );
};

/** The system running status: CPU, memory, disk and the three services. */
export const SystemPanel = ({ sys }: { sys: HomeData<'system'> }) => {
  const { t } = useTranslation();
  return (
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
  );
};

/** The top-5 alarm ranking, each with a bar against 1.1 × the largest count. */
export const RankingPanel = ({ ranking }: { ranking: HomeQueries['ranking'] }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const rows = ranking.data?.data ?? [];
  const maxCount = Math.max(0, ...rows.map((r) => r.alarm_count));
  return (
    <Panel title={t('homeUi.ranking')} testId="home-ranking" style={{ flex: 1 }}>
      {rows.length === 0 ? (
        ranking.isSuccess && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeUi.noAlarms')} />
      ) : (
        <Flex vertical gap={8} style={{ height: '100%', justifyContent: 'space-around' }}>
          {rows.map((r, i) => (
            <div key={r.id} data-testid="home-ranking-row" style={{ fontSize: fs.body }}>
              <Flex justify="space-between" gap={8}>
                <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  <b style={{ color: i < 3 ? token.colorError : token.colorTextSecondary, marginRight: 6 }}>{i + 1}</b>
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
  );
};

/** Electrical safety: meters, meters beyond their limits, switches on and off, the load. */
export const ElectricalPanel = ({ elec }: { elec: HomeData<'electrical'> }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Panel title={t('homeUi.electrical')} testId="home-electrical">
      {elec && elec.meters + elec.switches === 0 ? (
        <span style={{ fontSize: fs.body, color: token.colorTextSecondary }}>{t('homeUi.noElectrical')}</span>
      ) : (
        <div style={fiveColumns}>
          <Stat label={t('homeUi.electricalMeters')} value={elec?.meters ?? '—'} testId="home-electrical-meters" />
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
          <Stat label={t('homeUi.electricalOff')} value={elec?.switches_off ?? '—'} testId="home-electrical-off" />
          <Stat
            label={t('homeUi.electricalPower')}
            value={elec?.power_kw == null ? '—' : elec.power_kw.toFixed(1)}
            testId="home-electrical-power"
          />
        </div>
      )}
    </Panel>
  );
};

/** Alarm counts by level, in the level's colour (or a fallback). */
export const LevelsPanel = ({ levels }: { levels: HomeData<'levels'> }) => {
  const { t } = useTranslation();
  const rows = levels?.data ?? [1, 2, 3, 4, 5].map((level) => ({ level, name: '', color: '', count: 0 }));
  return (
    <Panel title={t('homeUi.levels')} testId="home-levels">
      <div style={fiveColumns}>
        {rows.map((l) => (
          <Tooltip key={l.level} title={l.name || t('homeUi.level', { level: l.level })}>
            <div style={{ borderTop: `3px solid ${l.color || levelFallback[l.level - 1]}`, minWidth: 0 }}>
              <Stat
                label={l.name || t('homeUi.level', { level: l.level })}
                value={levels ? l.count : '—'}
                color={l.color || levelFallback[l.level - 1]}
                testId={`home-level-${l.level}`}
              />
            </div>
          </Tooltip>
        ))}
      </div>
    </Panel>
  );
};

/** The card: signal, time since the last inspection, the notification service, and inspect now. */
export const CardPanel = ({ sys, inspection }: { sys: HomeData<'system'>; inspection: HomeData<'inspection'> }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const session = useSession();
  const lastReport = inspection?.report;
  /** Time since the last inspection (000 §2.6). */
  const sinceText = (seconds: number) => {
    const m = Math.max(0, Math.floor((Date.now() / 1000 - seconds) / 60));
    if (m < 60) return t('homeUi.minutesAgo', { n: m });
    if (m < 1440) return t('homeUi.hoursAgo', { n: Math.floor(m / 60) });
    return t('homeUi.daysAgo', { n: Math.floor(m / 1440) });
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
  return (
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
  );
};
