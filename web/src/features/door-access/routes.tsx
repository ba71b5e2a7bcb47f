import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const DoorDevicesPage = lazy(() => import('./pages/devices-page.tsx').then((m) => ({ default: m.DoorDevicesPage })));
const DoorCardsPage = lazy(() => import('./pages/cards-page.tsx').then((m) => ({ default: m.DoorCardsPage })));
const DoorRemotePage = lazy(() => import('./pages/remote-page.tsx').then((m) => ({ default: m.DoorRemotePage })));
const DoorLogsPage = lazy(() => import('./pages/logs-page.tsx').then((m) => ({ default: m.DoorLogsPage })));

/** Door access (docs/door-access.md). */
export const doorAccessRoutes: RouteObject[] = [
  { path: '/door_devices', element: <DoorDevicesPage /> },
  { path: '/door_cards', element: <DoorCardsPage /> },
  { path: '/door_remote_control', element: <DoorRemotePage /> },
  { path: '/door_logs', element: <DoorLogsPage /> },
];
