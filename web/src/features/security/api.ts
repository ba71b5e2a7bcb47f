import { authRoutes } from '@sitewatch/contract/auth';
import { usersRoutes } from '@sitewatch/contract/users';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const configQuery = <K extends 'ACCOUNT_SAFE' | 'LOGIN_SAFE' | 'PWD_COMPLEXITY'>(k: K) =>
  queryOptions({
    queryKey: ['security', 'gc', k],
    queryFn: () => api.call(authRoutes.globalConfigGet, { query: { k } }),
  });
export const blocksQuery = queryOptions({
  queryKey: ['security', 'blocks'],
  queryFn: () => api.call(usersRoutes.blocks),
});
export const allUsersQuery = queryOptions({
  queryKey: ['security', 'users'],
  queryFn: () => api.call(usersRoutes.list, { query: { page: 1, limit: 1000 } }),
});
