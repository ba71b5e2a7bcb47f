import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const StationPage = lazy(() => import('./pages/station-page.tsx').then((m) => ({ default: m.StationPage })));

/** The live views of devices: the station page and, inside it, one device's overview, items, log and curves. */
export const deviceViewRoutes: RouteObject[] = [{ path: '/station', element: <StationPage /> }];
