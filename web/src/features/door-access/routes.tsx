import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const DoorDevicesPage = lazy(() => import('./pages/devices-page.tsx').then((m) => ({ default: m.DoorDevicesPage })));
const DoorCardsPage = lazy(() => import('./pages/cards-page.tsx').then((m) => ({ default: m.DoorCardsPage })));
const DoorRemotePage = lazy(() => import('./pages/remote-page.tsx').then((m) => ({ default: m.DoorRemotePage })));
const DoorLogsPage = lazy(() => import('./pages/logs-page.tsx').then((m) => ({ default: m.DoorLogsPage })));
const DoorsLogsPage = lazy(() => import('./pages/doors-logs-page.tsx').then((m) => ({ default: m.DoorsLogsPage })));
const DoorLogCustomPage = lazy(() =>
  import('./pages/log-custom-page.tsx').then((m) => ({ default: m.DoorLogCustomPage })),
);
const DoorPermissionPage = lazy(() =>
  import('./pages/permission-page.tsx').then((m) => ({ default: m.DoorPermissionPage })),
);
const DoorDevicePage = lazy(() => import('./pages/device-page.tsx').then((m) => ({ default: m.DoorDevicePage })));
const DoorNoticeConfigPage = lazy(() =>
  import('./pages/notice-config-page.tsx').then((m) => ({ default: m.DoorNoticeConfigPage })),
);
const DoorSettingPage = lazy(() => import('./pages/setting-page.tsx').then((m) => ({ default: m.DoorSettingPage })));

/** Door access (docs/door-access.md). */
export const doorAccessRoutes: RouteObject[] = [
  { path: '/door_devices', element: <DoorDevicesPage /> },
  { path: '/door_cards', element: <DoorCardsPage /> },
  { path: '/door_remote_control', element: <DoorRemotePage /> },
  { path: '/door_logs', element: <DoorLogsPage /> },
  { path: '/doors_logs', element: <DoorsLogsPage /> },
  { path: '/door_log_custom', element: <DoorLogCustomPage /> },
  { path: '/door_permission', element: <DoorPermissionPage /> },
  { path: '/door_device', element: <DoorDevicePage /> },
  { path: '/door_notice_config', element: <DoorNoticeConfigPage /> },
  { path: '/door_setting', element: <DoorSettingPage /> },
];
