import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const OverviewPage = lazy(() => import('./pages/overview-page.tsx').then((m) => ({ default: m.OverviewPage })));
const DistributionPage = lazy(() =>
  import('./pages/distribution-page.tsx').then((m) => ({ default: m.DistributionPage })),
);
const SwitchOptPage = lazy(() => import('./pages/switch-opt-page.tsx').then((m) => ({ default: m.SwitchOptPage })));
const MonitorPage = lazy(() => import('./pages/monitor-page.tsx').then((m) => ({ default: m.MonitorPage })));
const AnalysisPage = lazy(() => import('./pages/analysis-page.tsx').then((m) => ({ default: m.AnalysisPage })));

/** Electrical quality and safety (menus 771–775, docs/electrical-safety.md). */
export const electricalSafetyRoutes: RouteObject[] = [
  { path: '/electricity_safe/overview', element: <OverviewPage /> },
  { path: '/electricity_safe/distribution_power', element: <DistributionPage /> },
  { path: '/electricity_safe/switch_opt', element: <SwitchOptPage /> },
  { path: '/energy_manage/elect_monitor', element: <MonitorPage /> },
  { path: '/energy_manage/elect_analysis', element: <AnalysisPage /> },
];
