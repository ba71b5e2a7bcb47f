import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const DataListPage = lazy(() => import('./pages/data-list-page.tsx').then((m) => ({ default: m.DataListPage })));
const HistoryReportPage = lazy(() =>
  import('./pages/history-report-page.tsx').then((m) => ({ default: m.HistoryReportPage })),
);

export const reportsRoutes: RouteObject[] = [
  { path: '/data_list', element: <DataListPage /> },
  { path: '/history_report', element: <HistoryReportPage /> },
];
