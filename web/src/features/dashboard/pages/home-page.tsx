import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlarmScroller } from '../components/alarm-scroller.tsx';
import { CurvePanel, useEnvCurve } from '../components/curve-panel.tsx';
import {
  CardPanel,
  ElectricalPanel,
  HomeHeader,
  LevelsPanel,
  RankingPanel,
  RiskPanel,
  SystemPanel,
} from '../components/home-panels.tsx';
import { Panel } from '../components/panel.tsx';
import { useHomeQueries } from '../use-home-queries.ts';

const cell: CSSProperties = { minHeight: 0, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 12 };

/**
 * The home dashboard (000 §2.6), shown alone (fullShow=yes): risk index, five counters, the
 * temperature and humidity curve, the top-5 alarm ranking, the system running status, the
 * scrolling recent alarms, signal, inspection and notification service, and alarm counts by level.
 * Polls per 000 §9 and refreshes at once on every alarm push. docs/dashboard.md.
 */
export const HomePage = () => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // Alone (fullShow=yes, 000 §2.5) the page has its own title bar; inside the shell it has the shell's.
  const [params] = useSearchParams();
  const standalone = params.get('fullShow') === 'yes';
  const q = useHomeQueries();
  const curve = useEnvCurve(q.environment);

  const settled = (query: { status: string }) => query.status !== 'pending';
  const ready =
    [q.statistics, q.levels, q.ranking, q.recent, q.system, q.environment].every(settled) &&
    (q.environment.isError || curve.settled);

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
      {standalone && <HomeHeader />}
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
          <RiskPanel stats={q.statistics.data} />
        </div>
        <div style={cell}>
          <CurvePanel state={curve} />
        </div>
        <div style={cell}>
          <SystemPanel sys={q.system.data} />
        </div>
        <div style={cell}>
          <RankingPanel ranking={q.ranking} />
        </div>
        <div style={cell}>
          <ElectricalPanel elec={q.electrical.data} />
          <Panel title={t('homeUi.recent')} testId="home-recent" style={{ flex: 1 }}>
            <AlarmScroller rows={q.recent.data?.data ?? []} />
          </Panel>
        </div>
        <div style={cell}>
          <LevelsPanel levels={q.levels.data} />
          <CardPanel sys={q.system.data} inspection={q.inspection.data} />
        </div>
      </main>
    </div>
  );
};
