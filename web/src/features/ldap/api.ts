import { ldapRoutes } from '@sitewatch/contract/ldap';
import { usersRoutes } from '@sitewatch/contract/users';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { useCan } from '../../session/permissions.ts';

export const ldapSettingsQuery = queryOptions({
  queryKey: ['ldap', 'settings'],
  queryFn: () => api.call(ldapRoutes.settingsGet),
});

export const remoteUsersQuery = (query: { page: number; limit: number; name?: string | undefined }) =>
  queryOptions({
    queryKey: ['ldap', 'remote-users', query],
    queryFn: () => api.call(ldapRoutes.remoteUsers, { query }),
    retry: false,
  });

/** Roles and user groups to give imported users (empty when the caller may not list them). */
export const rolesQuery = queryOptions({
  queryKey: ['ldap', 'roles'],
  queryFn: () => api.call(usersRoutes.roles),
  retry: false,
});
export const groupsQuery = queryOptions({
  queryKey: ['ldap', 'groups'],
  queryFn: () => api.call(usersRoutes.groups),
  retry: false,
});

/** The functions (edit, import) the current user holds on the LDAP page. */
export const useLdapFunctions = () => ({
  canEdit: useCan('/setting_LDAP', 'edit'),
  canImport: useCan('/setting_LDAP', 'import'),
});
