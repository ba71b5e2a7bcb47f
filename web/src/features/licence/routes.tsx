import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const SoftwareVersionPage = lazy(() =>
  import('./pages/software-version-page.tsx').then((m) => ({ default: m.SoftwareVersionPage })),
);

export const licenceRoutes: RouteObject[] = [{ path: '/software_version', element: <SoftwareVersionPage /> }];
