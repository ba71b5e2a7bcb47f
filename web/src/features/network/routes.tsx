import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const NetworkDevicePage = lazy(() =>
  import('./pages/network-device-page.tsx').then((m) => ({ default: m.NetworkDevicePage })),
);

/** Network devices: switches and routers with their ports (menu 106, docs/network-devices.md). */
export const networkRoutes: RouteObject[] = [{ path: '/network_device', element: <NetworkDevicePage /> }];
