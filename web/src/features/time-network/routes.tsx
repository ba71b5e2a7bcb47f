import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const TimePage = lazy(() => import('./pages/time-page.tsx').then((m) => ({ default: m.TimePage })));
const NetworkPage = lazy(() => import('./pages/network-page.tsx').then((m) => ({ default: m.NetworkPage })));

export const timeNetworkRoutes: RouteObject[] = [
  { path: '/setting_time', element: <TimePage /> },
  { path: '/setting_IP', element: <NetworkPage /> },
];
