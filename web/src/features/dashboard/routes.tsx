import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const HomePage = lazy(() => import('./pages/home-page.tsx').then((m) => ({ default: m.HomePage })));
const OverviewPage = lazy(() => import('./pages/overview-page.tsx').then((m) => ({ default: m.OverviewPage })));

/** The home dashboard (always allowed, opened with fullShow=yes) and the site overview (menu 105). */
export const homeRoutes: RouteObject[] = [
  { path: '/home', element: <HomePage /> },
  { path: '/overview', element: <OverviewPage /> },
];

/** Starts the dashboard's reads for a browser opening /home (its chunk is the page's own). */
export const prefetchHome = (client: QueryClient) => import('./prefetch.ts').then((m) => m.prefetchHomeReads(client));
