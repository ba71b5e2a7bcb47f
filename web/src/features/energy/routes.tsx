import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const MetersPage = lazy(() => import('./pages/meters-page.tsx').then((m) => ({ default: m.MetersPage })));
const TariffsPage = lazy(() => import('./pages/tariffs-page.tsx').then((m) => ({ default: m.TariffsPage })));
const OverviewPage = lazy(() => import('./pages/overview-page.tsx').then((m) => ({ default: m.OverviewPage })));
const ConsumptionPage = lazy(() =>
  import('./pages/consumption-page.tsx').then((m) => ({ default: m.ConsumptionPage })),
);
const AnalysisPage = lazy(() => import('./pages/analysis-page.tsx').then((m) => ({ default: m.AnalysisPage })));
const CostPage = lazy(() => import('./pages/cost-page.tsx').then((m) => ({ default: m.CostPage })));
const ElectricStatisticsPage = lazy(() =>
  import('./pages/electric-statistics-page.tsx').then((m) => ({ default: m.ElectricStatisticsPage })),
);
const TimeSharePage = lazy(() => import('./pages/time-share-page.tsx').then((m) => ({ default: m.TimeSharePage })));

/** Energy (issue 17; docs/energy.md "Web pages"): meters, tariffs and the analysis pages of 002 §2.1. */
export const energyRoutes: RouteObject[] = [
  { path: '/setting_energy', element: <MetersPage /> },
  { path: '/electric_statistics', element: <ElectricStatisticsPage /> },
  { path: '/energy_manage/param_config', element: <TariffsPage /> },
  { path: '/energy_survey', element: <OverviewPage /> },
  { path: '/energy_manage/energy_servey', element: <OverviewPage /> },
  { path: '/energy_manage/energy_static', element: <ConsumptionPage /> },
  { path: '/energy_manage/energy_analysis', element: <AnalysisPage /> },
  { path: '/energy_manage/cost_static', element: <CostPage /> },
  { path: '/energy_manage/time_share_static', element: <TimeSharePage /> },
];
