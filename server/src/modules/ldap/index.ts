import { ldapRoutes, loginTypes } from '@sitewatch/contract/ldap';
import { userMenus } from '@sitewatch/contract/users';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { forbidden, notLoggedIn } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { type AuthService, requestMeta } from '../auth/index.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { GrantRules } from '../users/index.ts';
import { createLdapRepository } from './repository.ts';
import { createLdapService, type LdapService } from './service.ts';

export { createLdapService, type LdapService } from './service.ts';

/** The LDAP page's menu id (docs/menus.md) and its functions. */
export const ldapMenuId = userMenus.ldap;

export const registerLdap = (deps: {
  db: Db;
  config: GlobalConfig;
  audit: AuditLog;
  auth: Pick<AuthService, 'loginVerifiedBy'>;
  /** Users given roles by LDAP get only roles the editor may give (docs/users.md, "Who may grant what"). */
  grants: Pick<GrantRules, 'requireAssignable'>;
  rateLimit: { max: number; timeWindow: number };
  clock?: () => number;
  log: FastifyBaseLogger;
}) => {
  const repo = createLdapRepository(deps.db);
  const ldap = createLdapService({
    repo,
    config: deps.config,
    audit: deps.audit,
    auth: deps.auth,
    log: deps.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  return { service: ldap, routes: (app: FastifyInstance) => registerLdapRoutes(app, ldap, repo, deps) };
};

const registerLdapRoutes = (
  app: FastifyInstance,
  ldap: LdapService,
  repo: ReturnType<typeof createLdapRepository>,
  deps: Parameters<typeof registerLdap>[0],
) => {
  /** Who is calling, for the operation log; LDAP users lose the LDAP page (000 §6: login type 2). */
  const caller = async (request: FastifyRequest) => {
    const principal = request.principal;
    if (!principal) throw notLoggedIn();
    const user = await repo.findUserById(principal.user_id);
    if (user?.login_type === loginTypes.ldap) throw forbidden();
    return { user_id: principal.user_id, user_name: principal.user_name, ip: request.ip };
  };
  const view = { permission: { menu: ldapMenuId } } as const;
  const edit = { permission: { menu: ldapMenuId, func: 'edit' } } as const;

  addRoute(
    app,
    ldapRoutes.settingsGet,
    async ({ request }) => {
      await caller(request);
      return ldap.getSettings();
    },
    view,
  );
  addRoute(
    app,
    ldapRoutes.settingsSet,
    async ({ body, request }) => {
      const who = await caller(request);
      // The default roles go to every user the directory signs in or imports.
      await deps.grants.requireAssignable(request, body.default_role_ids);
      return ldap.setSettings(body, who);
    },
    { ...edit, messageKey: 'ldap.saved' },
  );
  addRoute(
    app,
    ldapRoutes.test,
    async ({ body, request }) => {
      await caller(request);
      return ldap.test(body);
    },
    { ...edit, messageKey: 'ldap.testOk' },
  );
  addRoute(
    app,
    ldapRoutes.remoteUsers,
    async ({ query, request }) => {
      await caller(request);
      return ldap.remoteUsers(query);
    },
    view,
  );
  addRoute(
    app,
    ldapRoutes.import,
    async ({ body, request }) => {
      const who = await caller(request);
      await deps.grants.requireAssignable(request, body.role_ids ?? (await deps.config.get('LDAP')).default_role_ids);
      return ldap.importUsers(body, who);
    },
    { permission: { menu: ldapMenuId, func: 'import' } },
  );
  addRoute(app, ldapRoutes.login, ({ body, request }) => ldap.login(body, requestMeta(request)), {
    auth: false,
    rateLimit: deps.rateLimit,
    messageKey: 'auth.loginSuccess',
  });
};
