import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const WorkOrderPage = lazy(() => import('./pages/work-order-page.tsx').then((m) => ({ default: m.WorkOrderPage })));
const StatisticsPage = lazy(() => import('./pages/statistics-page.tsx').then((m) => ({ default: m.StatisticsPage })));

/** Work orders (menus 741, 742; docs/work-orders.md). */
export const workOrderRoutes: RouteObject[] = [
  { path: '/work_order', element: <WorkOrderPage /> },
  { path: '/workorder_statistics', element: <StatisticsPage /> },
];
