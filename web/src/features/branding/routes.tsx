import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const SysEditionPage = lazy(() => import('./pages/sys-edition-page.tsx').then((m) => ({ default: m.SysEditionPage })));

export const brandingRoutes: RouteObject[] = [{ path: '/setting_sys_edition', element: <SysEditionPage /> }];
