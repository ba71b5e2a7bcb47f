import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const UsersPage = lazy(() => import('./pages/users-page.tsx').then((m) => ({ default: m.UsersPage })));
const UserGroupsPage = lazy(() => import('./pages/user-groups-page.tsx').then((m) => ({ default: m.UserGroupsPage })));
const RolesPage = lazy(() => import('./pages/roles-page.tsx').then((m) => ({ default: m.RolesPage })));

export const usersRoutes: RouteObject[] = [
  { path: '/setting_users', element: <UsersPage /> },
  { path: '/setting_user_groups', element: <UserGroupsPage /> },
  { path: '/authority_groups', element: <RolesPage /> },
];
