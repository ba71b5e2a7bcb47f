import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const HttpsPage = lazy(() => import('./pages/https-page.tsx').then((m) => ({ default: m.HttpsPage })));

export const httpsRoutes: RouteObject[] = [{ path: '/setting_port', element: <HttpsPage /> }];
