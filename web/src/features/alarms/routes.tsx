import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const AlarmPage = lazy(() => import('./pages/alarm-page.tsx').then((m) => ({ default: m.AlarmPage })));
const AlarmLogPage = lazy(() => import('./pages/log-pages.tsx').then((m) => ({ default: m.AlarmLogPage })));
const NotificationLogPage = lazy(() =>
  import('./pages/log-pages.tsx').then((m) => ({ default: m.NotificationLogPage })),
);
const settings = (name: keyof typeof import('./pages/settings-pages.tsx')) =>
  lazy(() => import('./pages/settings-pages.tsx').then((m) => ({ default: m[name] })));
const AlarmParamPage = settings('AlarmParamPage');
const WarningLevelPage = settings('WarningLevelPage');

export const alarmsRoutes: RouteObject[] = [
  { path: '/alarm', element: <AlarmPage /> },
  { path: '/system_log_alarm', element: <AlarmLogPage /> },
  { path: '/system_log_notification', element: <NotificationLogPage /> },
  { path: '/setting_alarm_param', element: <AlarmParamPage /> },
  { path: '/warning_level', element: <WarningLevelPage /> },
];
