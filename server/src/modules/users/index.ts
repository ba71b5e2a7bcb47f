import type { OperationLogAction, OperationLogDetail, OperationLogModule } from '@sitewatch/contract/operation-log';
import { operationLogExportPath, operationLogQuery, userMenus, usersRoutes } from '@sitewatch/contract/users';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus/bus.ts';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import type { AccessService } from '../access/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { createGrantRules } from './grants.ts';
import { createUsersRepository } from './repository.ts';
import { type Caller, createUsersService } from './service.ts';

const m = userMenus;

/** The "who may grant what" checks, for other areas that give roles (LDAP import). */
export type GrantRules = ReturnType<typeof createGrantRules>;
export const grantRulesOf = (db: Db): GrantRules => createGrantRules(createUsersRepository(db));

/**
 * Users, user groups, roles with their grants, the account block list and the operation log
 * (002 §3, §5.1, §5.3, §7.1): routes, permissions and audit; the rules are in service.ts and grants.ts.
 */
export const registerUsers = (
  app: FastifyInstance,
  deps: {
    db: Db;
    auth: AuthService;
    audit: AuditLog;
    clock?: () => number;
    bus?: Pick<EventBus, 'publish'>;
    access: AccessService;
  },
) => {
  const repo = createUsersRepository(deps.db);
  // A successful write of users, roles or user groups may change anyone's grants: whoever caches
  // grants (the push side) forgets them, so open sockets follow at once.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || reply.statusCode >= 300) return;
    if (/^\/api\/v1\/setting\/(users|roles|user_groups)\b/.test(request.routeOptions.url ?? '')) {
      deps.bus?.publish('grants.changed', { user_ids: null });
    }
  });
  const rules = createGrantRules(repo);
  const service = createUsersService({ repo, auth: deps.auth, clock: deps.clock });
  const caller = (request: FastifyRequest): Caller => ({
    userId: request.principal?.user_id,
    rules: rules.of(request),
  });
  const audit = (
    request: FastifyRequest,
    module: OperationLogModule,
    action: OperationLogAction,
    target: string | number,
    detail?: OperationLogDetail,
  ) => deps.audit.write({ module, action, target: String(target), success: true, detail }, request);

  addRoute(app, usersRoutes.list, ({ query }) => service.listUsers(query), { permission: { menu: m.users } });
  addRoute(app, usersRoutes.get, ({ params }) => service.getUser(params.id), { permission: { menu: m.users } });
  addRoute(
    app,
    usersRoutes.create,
    async ({ body, request }) => {
      const id = await service.createUser(body, caller(request), requestLanguage(request));
      await audit(request, 'users', 'create', body.user_name);
      return { id };
    },
    { permission: { menu: m.users, func: 'add' } },
  );
  addRoute(
    app,
    usersRoutes.update,
    async ({ params, body, request }) => {
      const done = await service.updateUser(params.id, body, caller(request), requestLanguage(request));
      await audit(
        request,
        'users',
        'update',
        done.userName,
        done.passwordReset ? { code: 'passwordReset' } : undefined,
      );
      return null;
    },
    { permission: { menu: m.users, func: 'edit' } },
  );
  addRoute(
    app,
    usersRoutes.remove,
    async ({ params, request }) => {
      await audit(request, 'users', 'delete', await service.removeUser(params.id, caller(request)));
      return null;
    },
    { permission: { menu: m.users, func: 'delete' } },
  );
  addRoute(app, usersRoutes.userRoles, async ({ query, request }) => {
    // Anyone may read their own roles (the shell needs them); others' need the users page.
    if (query.user_id !== request.principal?.user_id) await deps.access.require(request, { menu: m.users });
    return service.userRoles(query.user_id);
  });

  // User groups: the list is shown by the users page (its form), the user-group page and the LDAP page.
  const groupPages = [m.users, m.userGroups, m.ldap];
  addRoute(app, usersRoutes.groups, async ({ request }) => {
    const access = await deps.access.forUser(request.principal?.user_id ?? 0);
    const shown = groupPages.some((menu) => !access.excluded.has(menu) && (access.all || access.menuIds.has(menu)));
    if (!shown) throw forbidden();
    return service.groups();
  });
  addRoute(app, usersRoutes.group, ({ params }) => service.group(params.id), { permission: { menu: m.userGroups } });
  addRoute(
    app,
    usersRoutes.groupCreate,
    async ({ body, request }) => {
      const id = await service.createGroup(body);
      await audit(request, 'user_groups', 'create', body.name);
      return { id };
    },
    { permission: { menu: m.userGroups, func: 'add' } },
  );
  addRoute(
    app,
    usersRoutes.groupUpdate,
    async ({ params, body, request }) => {
      await service.updateGroup(params.id, body);
      await audit(request, 'user_groups', 'update', body.name);
      return null;
    },
    { permission: { menu: m.userGroups, func: 'edit' } },
  );
  addRoute(
    app,
    usersRoutes.groupRemove,
    async ({ params, request }) => {
      await audit(request, 'user_groups', 'delete', await service.removeGroup(params.id));
      return null;
    },
    { permission: { menu: m.userGroups, func: 'delete' } },
  );

  // Roles and their grants.
  addRoute(app, usersRoutes.roles, () => service.roles(), { permission: { menu: m.users } });
  addRoute(app, usersRoutes.role, async ({ params, request }) => {
    // The shell reads its own roles' sites (000 §6); other roles need the roles page.
    const access = await deps.access.forUser(request.principal?.user_id ?? 0);
    if (!access.roleIds.includes(params.id)) await deps.access.require(request, { menu: m.roles });
    return service.role(params.id);
  });
  addRoute(
    app,
    usersRoutes.roleCreate,
    async ({ body, request }) => {
      const id = await service.createRole(body, caller(request));
      await audit(request, 'roles', 'create', body.name);
      return { id };
    },
    { permission: { menu: m.roles, func: 'add' } },
  );
  addRoute(
    app,
    usersRoutes.roleUpdate,
    async ({ params, body, request }) => {
      await service.updateRole(params.id, body, caller(request));
      await audit(request, 'roles', 'update', body.name);
      return null;
    },
    { permission: { menu: m.roles, func: 'edit' } },
  );
  addRoute(
    app,
    usersRoutes.roleRemove,
    async ({ params, request }) => {
      await audit(request, 'roles', 'delete', await service.removeRole(params.id, caller(request)));
      return null;
    },
    { permission: { menu: m.roles, func: 'delete' } },
  );
  addRoute(app, usersRoutes.menus, ({ request }) => service.menus(caller(request), requestLanguage(request)), {
    permission: { menu: m.roles },
  });
  addRoute(
    app,
    usersRoutes.grantableContacts,
    async ({ request }) => service.grantableContacts(await deps.access.contacts(request)),
    { permission: { menu: m.roles } },
  );
  addRoute(app, usersRoutes.functions, ({ request }) => service.functions(caller(request), requestLanguage(request)), {
    permission: { menu: m.roles },
  });

  // The account block list.
  addRoute(app, usersRoutes.blocks, () => service.blocks(), { permission: { menu: m.security } });
  addRoute(
    app,
    usersRoutes.block,
    async ({ body, request }) => {
      await service.block(body, caller(request));
      await audit(request, 'security', 'block', body.user_ids.join(','), body.reason);
      return null;
    },
    { permission: { menu: m.security, func: 'block' } },
  );
  addRoute(
    app,
    usersRoutes.unblock,
    async ({ params, request }) => {
      await service.unblock(params.id, caller(request));
      await audit(request, 'security', 'unblock', params.id);
      return null;
    },
    { permission: { menu: m.security, func: 'block' } },
  );

  // The operation log (/system_log_user).
  addRoute(app, usersRoutes.operationLog, ({ query }) => service.operationLog(query), {
    permission: { menu: m.operationLog },
  });
  addRoute(
    app,
    usersRoutes.operationLogClear,
    async ({ body, request }) => {
      const principal = request.principal;
      if (!principal) throw new AppError('notLoggedIn');
      await deps.auth.verifyOwnPassword(principal, body.verify_password, { ip: request.ip });
      await service.clearOperationLog();
      await audit(request, 'operation_record', 'clear', '');
      return null;
    },
    { permission: { menu: m.operationLog, func: 'clear' } },
  );
  app.get(
    operationLogExportPath,
    {
      schema: {
        summary: 'The operation log as an xlsx file (same filters as the list)',
        tags: ['logs'],
        querystring: operationLogQuery,
      },
      preValidation: async (request) => {
        await deps.access.require(request, { menu: m.operationLog, func: 'export' });
      },
    },
    async (request, reply) => {
      const query = request.query as ReturnType<typeof operationLogQuery.parse>;
      const { buffer, count } = await service.exportOperationLog(query, requestLanguage(request));
      await audit(request, 'operation_record', 'export', '', { code: 'rows', params: { count } });
      return sendXlsx(reply, 'operation_record.xlsx', buffer);
    },
  );
  return { grants: rules };
};
