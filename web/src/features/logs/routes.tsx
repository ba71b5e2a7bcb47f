import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const OperationLogPage = lazy(() =>
  import('./pages/operation-log-page.tsx').then((m) => ({ default: m.OperationLogPage })),
);

export const logsRoutes: RouteObject[] = [{ path: '/system_log_user', element: <OperationLogPage /> }];
