import { Spin } from 'antd';
import { Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { authRoutes, authShellRoutes } from '../features/auth/routes.tsx';
import { ldapRoutes } from '../features/ldap/routes.tsx';
import { logsRoutes } from '../features/logs/routes.tsx';
import { monitoringRoutes } from '../features/monitoring/routes.tsx';
import { securityRoutes } from '../features/security/routes.tsx';
import { usersRoutes } from '../features/users/routes.tsx';
import { normalizePage } from './guard.ts';
import { NotFoundPage } from './not-found-page.tsx';
import { useSession } from './session.ts';
import { ShellLayout } from './shell/shell-layout.tsx';

/** Pages shown inside the application shell (menu, top bar, tabs); each feature adds its routes here. */
export const shellRoutes: RouteObject[] = [
  ...usersRoutes,
  ...securityRoutes,
  ...logsRoutes,
  ...monitoringRoutes,
  ...ldapRoutes,
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

const Lazy = () => (
  <Suspense fallback={<Spin fullscreen />}>
    <Outlet />
  </Suspense>
);

export const routes: RouteObject[] = [
  {
    element: <Lazy />,
    children: [
      ...authRoutes,
      {
        element: <ShellLayout />,
        children: [{ path: '/', element: <RootRedirect /> }, ...authShellRoutes(isAdmin), ...shellRoutes],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
