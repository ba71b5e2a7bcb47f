import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const LdapPage = lazy(() => import('./pages/ldap-page.tsx').then((m) => ({ default: m.LdapPage })));

export const ldapRoutes: RouteObject[] = [{ path: '/setting_LDAP', element: <LdapPage /> }];
