import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const StationPage = lazy(() => import('./pages/station-page.tsx').then((m) => ({ default: m.StationPage })));
const DeviceGroupsPage = lazy(() =>
  import('./pages/device-groups-page.tsx').then((m) => ({ default: m.DeviceGroupsPage })),
);
const DeviceManagePage = lazy(() =>
  import('./pages/device-manage-page.tsx').then((m) => ({ default: m.DeviceManagePage })),
);
const DataListPage = lazy(() => import('./pages/data-list-page.tsx').then((m) => ({ default: m.DataListPage })));
const HistoryReportPage = lazy(() =>
  import('./pages/history-report-page.tsx').then((m) => ({ default: m.HistoryReportPage })),
);
const ItemsPage = lazy(() => import('./pages/items-page.tsx').then((m) => ({ default: m.ItemsPage })));

export const monitoringRoutes: RouteObject[] = [
  { path: '/station', element: <StationPage /> },
  { path: '/data_list', element: <DataListPage /> },
  { path: '/history_report', element: <HistoryReportPage /> },
  { path: '/setting_device_groups', element: <DeviceGroupsPage /> },
  { path: '/setting_device_mange', element: <DeviceManagePage /> },
  { path: '/setting_items', element: <ItemsPage /> },
];
