import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const MapPage = lazy(() => import('./pages/map-page.tsx').then((m) => ({ default: m.MapPage })));

/** The site map (issue 15): the live view /map (menu 107), inside the shell. */
export const siteMapRoutes: RouteObject[] = [{ path: '/map', element: <MapPage /> }];
