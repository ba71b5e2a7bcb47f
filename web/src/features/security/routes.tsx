import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const SecurityPage = lazy(() => import('./pages/security-page.tsx').then((m) => ({ default: m.SecurityPage })));

export const securityRoutes: RouteObject[] = [{ path: '/setting_security', element: <SecurityPage /> }];
