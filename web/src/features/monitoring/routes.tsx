import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const DeviceGroupsPage = lazy(() =>
  import('./pages/device-groups-page.tsx').then((m) => ({ default: m.DeviceGroupsPage })),
);
const DeviceManagePage = lazy(() =>
  import('./pages/device-manage-page.tsx').then((m) => ({ default: m.DeviceManagePage })),
);
const ItemsPage = lazy(() => import('./pages/items-page.tsx').then((m) => ({ default: m.ItemsPage })));

export const monitoringRoutes: RouteObject[] = [
  { path: '/setting_device_groups', element: <DeviceGroupsPage /> },
  { path: '/setting_device_mange', element: <DeviceManagePage /> },
  { path: '/setting_items', element: <ItemsPage /> },
];
