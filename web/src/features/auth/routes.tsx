import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const LoginPage = lazy(() => import('./pages/login-page.tsx').then((m) => ({ default: m.LoginPage })));
const AutoLoginPage = lazy(() => import('./pages/auto-login-page.tsx').then((m) => ({ default: m.AutoLoginPage })));

/** Pages outside the shell. */
export const authRoutes: RouteObject[] = [{ path: '/login', element: <LoginPage /> }];

/** Pages inside the shell; `isAdmin` comes from the app's session. */
export const authShellRoutes = (isAdmin: () => boolean): RouteObject[] => [
  { path: '/setting_auto_login', element: <AutoLoginRoute isAdmin={isAdmin} /> },
];

const AutoLoginRoute = ({ isAdmin }: { isAdmin: () => boolean }) => <AutoLoginPage isAdmin={isAdmin()} />;
