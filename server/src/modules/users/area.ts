import { defineArea } from '../../area.ts';
import { type GrantRules, grantRulesOf, registerUsers } from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** The "who may grant what" checks, for other areas that give roles (LDAP import). */
    grantRules: GrantRules;
  }
}

/** Users, user groups, roles and their grants, the block list and the operation log (002 §3, §7.1). */
export const area = defineArea({
  name: 'users',
  needs: ['auth', 'audit', 'access'],
  provides: ['grantRules'],
  tables: {
    roles: { sites: 'global' },
    user_roles: { sites: 'global' },
    role_menus: { sites: 'global' },
    role_functions: { sites: 'global' },
    role_sites: { sites: { site: 'site_id' } },
    role_contacts: { sites: 'global' },
    role_videos: { sites: 'global' },
    user_groups: { sites: 'global' },
    user_user_groups: { sites: 'global' },
    account_blocks: { sites: 'global' },
  },
  events: { publishes: ['grants.changed'] },
  menus: [
    {
      id: 221,
      parent_id: 220,
      name_key: 'menu.users',
      url: '/setting_users',
      icon: 'user',
      weight: 90,
      functions: ['add', 'edit', 'delete'],
    },
    {
      id: 222,
      parent_id: 220,
      name_key: 'menu.userGroups',
      url: '/setting_user_groups',
      icon: 'team',
      weight: 80,
      functions: ['add', 'edit', 'delete'],
    },
    {
      id: 223,
      parent_id: 220,
      name_key: 'menu.roles',
      url: '/authority_groups',
      icon: 'safety',
      weight: 70,
      functions: ['add', 'edit', 'delete'],
    },
    {
      id: 301,
      parent_id: 300,
      name_key: 'menu.operationLog',
      url: '/system_log_user',
      icon: 'file-text',
      weight: 90,
      functions: ['export', 'clear'],
    },
  ],
  create: ({ kernel, needs }) => ({
    provides: { grantRules: grantRulesOf(kernel.db) },
    routes: (app) => {
      registerUsers(app, {
        db: kernel.db,
        auth: needs.auth,
        audit: needs.audit,
        clock: kernel.clock,
        bus: kernel.bus,
        access: needs.access,
      });
    },
  }),
});
