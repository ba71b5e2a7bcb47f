import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const SysInformationPage = lazy(() =>
  import('./pages/sys-information-page.tsx').then((m) => ({ default: m.SysInformationPage })),
);
const ToolsPage = lazy(() => import('./pages/tools-page.tsx').then((m) => ({ default: m.ToolsPage })));
const DownloadProtocolPage = lazy(() =>
  import('./pages/download-protocol-page.tsx').then((m) => ({ default: m.DownloadProtocolPage })),
);
const SecretListPage = lazy(() => import('./pages/secret-list-page.tsx').then((m) => ({ default: m.SecretListPage })));
const WeekTimePage = lazy(() => import('./pages/week-time-page.tsx').then((m) => ({ default: m.WeekTimePage })));

/** The system pages of 002 §2.1 built by the system area, and /week_time (docs/system.md). */
export const systemRoutes: RouteObject[] = [
  { path: '/sys_information', element: <SysInformationPage /> },
  { path: '/tools', element: <ToolsPage /> },
  { path: '/download_protocol', element: <DownloadProtocolPage /> },
  { path: '/secret_list', element: <SecretListPage /> },
  { path: '/week_time', element: <WeekTimePage /> },
];
