import type { QueryClient } from '@tanstack/react-query';
import { Spin } from 'antd';
import { lazy, Suspense, use, useEffect, useState } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { alarmsRoutes } from '../features/alarms/routes.tsx';
import { authRoutes, authShellRoutes } from '../features/auth/routes.tsx';
import { automationRoutes } from '../features/automation/routes.tsx';
import { brandingRoutes } from '../features/branding/routes.tsx';
import { customMenusRoutes } from '../features/custom-menus/routes.tsx';
import { homeRoutes, prefetchHome } from '../features/dashboard/routes.tsx';
import { deviceViewRoutes } from '../features/device-view/routes.tsx';
import { doorAccessRoutes } from '../features/door-access/routes.tsx';
import { dutyRoutes } from '../features/duty/routes.tsx';
import { electricalSafetyRoutes } from '../features/electrical-safety/routes.tsx';
import { energyRoutes } from '../features/energy/routes.tsx';
import { firewallRoutes } from '../features/firewall/routes.tsx';
import { httpsRoutes } from '../features/https/routes.tsx';
import { inspectionRoutes } from '../features/inspection/routes.tsx';
import { ldapRoutes } from '../features/ldap/routes.tsx';
import { licenceRoutes } from '../features/licence/routes.tsx';
import { logsRoutes } from '../features/logs/routes.tsx';
import { maintenanceRoutes } from '../features/maintenance/routes.tsx';
import { monitoringRoutes } from '../features/monitoring/routes.tsx';
import { networkRoutes } from '../features/network/routes.tsx';
import { notifyRoutes } from '../features/notify/routes.tsx';
import { reportsRoutes } from '../features/reports/routes.tsx';
import { securityRoutes } from '../features/security/routes.tsx';
import { siteMapRoutes, siteMapStandaloneRoutes } from '../features/site-map/routes.tsx';
import { systemRoutes } from '../features/system/routes.tsx';
import { timeNetworkRoutes } from '../features/time-network/routes.tsx';
import { tokensShellRoutes } from '../features/tokens/routes.tsx';
import { usersRoutes } from '../features/users/routes.tsx';
import { videoRoutes } from '../features/video/routes.tsx';
import { workOrderRoutes } from '../features/work-orders/routes.tsx';
import { allTextsLoaded, loadAllTexts } from '../i18n/index.ts';
import { normalizePage } from '../session/guard.ts';
import { useSession } from '../session/session.ts';

// The shell and the 404 page load on demand, so the login page sends only what it needs.
const ShellLayout = lazy(() => import('./shell/shell-layout.tsx').then((m) => ({ default: m.ShellLayout })));
const NotFoundPage = lazy(() => import('./not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })));
const WorkOrderAlert = lazy(() =>
  import('../features/work-orders/components/work-order-alert.tsx').then((m) => ({ default: m.WorkOrderAlert })),
);

/** Pages without the shell have no bell: a new work order is told by a dialog there instead (001 §2). */
const WithoutShell = () => (
  <>
    <Outlet />
    <Suspense fallback={null}>
      <WorkOrderAlert />
    </Suspense>
  </>
);

/** Pages shown inside the application shell (menu, top bar, tabs); each feature adds its routes here. */
export const shellRoutes: RouteObject[] = [
  ...usersRoutes,
  ...securityRoutes,
  ...httpsRoutes,
  ...firewallRoutes,
  ...timeNetworkRoutes,
  ...logsRoutes,
  ...monitoringRoutes,
  ...deviceViewRoutes,
  ...reportsRoutes,
  ...networkRoutes,
  ...ldapRoutes,
  ...alarmsRoutes,
  ...notifyRoutes,
  ...homeRoutes,
  ...siteMapRoutes,
  ...inspectionRoutes,
  ...dutyRoutes,
  ...workOrderRoutes,
  ...videoRoutes,
  ...energyRoutes,
  ...electricalSafetyRoutes,
  ...licenceRoutes,
  ...brandingRoutes,
  ...systemRoutes,
  ...maintenanceRoutes,
  ...automationRoutes,
  ...customMenusRoutes,
  ...doorAccessRoutes,
];

const isAdmin = () => {
  const user = useSession.getState().user;
  return Boolean(user && (user.id === 1 || user.role_ids.includes(1)));
};

const hasPage = (path: string, list: RouteObject[]) => list.some((r) => r.path === path);

/**
 * `/` goes to the home route in single-page mode (000 §2.4). Until the home dashboard exists,
 * it goes to the user's first page instead (docs/shell.md).
 */
const RootRedirect = () => {
  const enableMenuList = useSession((s) => s.enableMenuList);
  if (hasPage('/home', shellRoutes)) return <Navigate to="/home?fullShow=yes" replace />;
  // The first menu page this build has a page for (menus may list pages of later releases).
  const first = enableMenuList.find((url) =>
    shellRoutes.some((r) => r.path && normalizePage(r.path) === normalizePage(url)),
  );
  return <Navigate to={first ?? '/setting_auto_login'} replace />;
};

const HashProductDialog = lazy(() =>
  import('../features/licence/components/hash-dialog.tsx').then((m) => ({ default: m.HashProductDialog })),
);

/** `#type=active` on the login page opens the product dialog (000 §2.1); the shell's top bar handles it elsewhere. */
const LoginProductDialog = () => {
  const { pathname } = useLocation();
  const [asked, setAsked] = useState(() => window.location.hash === '#type=active');
  useEffect(() => {
    const onHash = () => setAsked((was) => was || window.location.hash === '#type=active');
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  if (!asked || normalizePage(pathname) !== 'login') return null;
  return (
    <Suspense fallback={null}>
      <HashProductDialog />
    </Suspense>
  );
};

const RecoveryDialog = lazy(() =>
  import('../features/recovery/components/recovery-dialog.tsx').then((m) => ({ default: m.RecoveryDialog })),
);

/** `#type=recovery` on the login page opens the administrator's recovery (docs/recovery.md). */
const LoginRecoveryDialog = () => {
  const { pathname } = useLocation();
  const [asked, setAsked] = useState(() => window.location.hash === '#type=recovery');
  useEffect(() => {
    const onHash = () => setAsked(window.location.hash === '#type=recovery');
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  if (!asked || normalizePage(pathname) !== 'login') return null;
  const close = () => {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    setAsked(false);
  };
  return (
    <Suspense fallback={null}>
      <RecoveryDialog onClose={close} />
    </Suspense>
  );
};

/**
 * What a signed-in browser opening `pathname` can ask for before the router renders: the home
 * dashboard's reads (`/`, in single-page mode, goes there too).
 */
export const prefetchLanding = (pathname: string, client: QueryClient) => {
  if (pathname === '/home' || pathname === '/') void prefetchHome(client);
};

const Lazy = () => (
  <Suspense fallback={<Spin fullscreen />}>
    <Outlet />
    <LoginProductDialog />
    <LoginRecoveryDialog />
  </Suspense>
);

/** Every page past the login page renders once all the texts are in, so no key ever shows raw. */
const AllTexts = () => {
  if (!allTextsLoaded()) use(loadAllTexts());
  return <Outlet />;
};

export const routes: RouteObject[] = [
  {
    element: <Lazy />,
    children: [
      ...authRoutes,
      {
        element: <AllTexts />,
        children: [
          { element: <WithoutShell />, children: siteMapStandaloneRoutes },
          {
            element: <ShellLayout />,
            children: [
              { path: '/', element: <RootRedirect /> },
              ...authShellRoutes(isAdmin),
              ...tokensShellRoutes(isAdmin),
              ...shellRoutes,
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
