import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const BackupPage = lazy(() => import('./pages/backup-page.tsx').then((m) => ({ default: m.BackupPage })));

export const maintenanceRoutes: RouteObject[] = [{ path: '/setting_backup', element: <BackupPage /> }];
