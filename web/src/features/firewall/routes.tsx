import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const FirewallPage = lazy(() => import('./pages/firewall-page.tsx').then((m) => ({ default: m.FirewallPage })));

export const firewallRoutes: RouteObject[] = [{ path: '/firewall', element: <FirewallPage /> }];
