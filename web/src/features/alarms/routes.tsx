import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const AlarmPage = lazy(() => import('./pages/alarm-page.tsx').then((m) => ({ default: m.AlarmPage })));
const AlarmLogPage = lazy(() => import('./pages/log-pages.tsx').then((m) => ({ default: m.AlarmLogPage })));
const NotificationLogPage = lazy(() =>
  import('./pages/log-pages.tsx').then((m) => ({ default: m.NotificationLogPage })),
);

export const alarmsRoutes: RouteObject[] = [
  { path: '/alarm', element: <AlarmPage /> },
  { path: '/system_log_alarm', element: <AlarmLogPage /> },
  { path: '/system_log_notification', element: <NotificationLogPage /> },
];
