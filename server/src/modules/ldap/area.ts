import { loginTypes } from '@sitewatch/contract/ldap';
import { defineArea } from '../../area.ts';
import { registerLdap } from './index.ts';

/** Sign-in against a directory and the import of its users (docs/ldap.md). */
export const area = defineArea({
  name: 'ldap',
  needs: ['globalConfig', 'audit', 'auth', 'grantRules'],
  menus: [
    {
      id: 224,
      parent_id: 220,
      name_key: 'menu.ldap',
      url: '/setting_LDAP',
      icon: 'cloud-server',
      weight: 85,
      functions: ['view', 'edit', 'import'],
    },
  ],
  create: ({ kernel, needs }) => {
    const ldap = registerLdap({
      db: kernel.db,
      config: needs.globalConfig,
      audit: needs.audit,
      auth: needs.auth,
      grants: needs.grantRules,
      rateLimit: kernel.config.loginRateLimit,
      clock: kernel.clock,
      log: kernel.log,
    });
    return {
      // Users of login type 2 prove their password to the directory.
      contributes: {
        passwordCheckers: [
          {
            loginType: loginTypes.ldap,
            check: (user, password) => ldap.service.checkOwnPassword(user.user_name, password),
          },
        ],
      },
      routes: ldap.routes,
    };
  },
});
