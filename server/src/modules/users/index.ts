import { nowSeconds, sharedText } from '@sitewatch/contract';
import type { CatalogueMenu } from '@sitewatch/contract/users';
import { operationLogExportPath, operationLogQuery, userMenus, usersRoutes } from '@sitewatch/contract/users';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus/bus.ts';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { adminRoleId, rootUserId } from '../access/index.ts';
import type { AuditLog } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';
import { createGrantRules } from './grants.ts';
import { createUsersRepository } from './repository.ts';

const m = userMenus;

/** The "who may grant what" checks, for other areas that give roles (LDAP import). */
export type GrantRules = ReturnType<typeof createGrantRules>;
export const grantRulesOf = (db: Db): GrantRules => createGrantRules(createUsersRepository(db));

/**
 * Users, user groups, roles with their grants, the account block list and the operation log
 * (002 §3, §5.1, §5.3, §7.1). User id 1 is never restricted, deleted or disabled; role id 1 is the
 * administrator and cannot change.
 */
export const registerUsers = (
  app: FastifyInstance,
  deps: { db: Db; auth: AuthService; audit: AuditLog; clock?: () => number; bus?: Pick<EventBus, 'publish'> },
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
  const now = () => nowSeconds((deps.clock ?? Date.now)());
  const audit = (request: FastifyRequest, module: string, action: string, target: string | number, detail = '') =>
    deps.audit.write({ module, action, target: String(target), success: true, detail }, request);

  const checkRefs = async (roleIds: number[], groupIds: number[]) => {
    const roles = await repo.existing('roles', roleIds);
    if (roles.length !== new Set(roleIds).size) throw badRequest('users.unknownRole');
    const groups = await repo.existing('user_groups', groupIds);
    if (groups.length !== new Set(groupIds).size) throw badRequest('users.unknownGroup');
  };

  const toRow = (
    user: NonNullable<Awaited<ReturnType<typeof repo.findUser>>>,
    roles: Map<number, number[]>,
    groups: Map<number, number[]>,
  ) => ({
    id: user.id,
    user_name: user.user_name,
    alias: user.alias,
    email: user.email,
    phone: user.phone,
    enable: Boolean(user.enable),
    login_type: user.login_type,
    locked: user.locked_at !== null,
    role_ids: roles.get(user.id) ?? [],
    user_group_ids: groups.get(user.id) ?? [],
    created_at: user.created_at,
  });

  addRoute(
    app,
    usersRoutes.list,
    async ({ query }) => {
      const { total, rows } = await repo.listUsers(
        { name: query.name, enable: query.enable === undefined ? undefined : Number(query.enable) },
        query.page,
        query.limit,
      );
      const ids = rows.map((r) => r.id);
      const [roles, groups] = await Promise.all([repo.rolesOf(ids), repo.groupsOf(ids)]);
      return { total, data: rows.map((r) => toRow(r, roles, groups)) };
    },
    { permission: { menu: m.users } },
  );

  addRoute(
    app,
    usersRoutes.get,
    async ({ params }) => {
      const user = await repo.findUser(params.id);
      if (!user) throw notFound('users.unknownUser');
      const [roles, groups] = await Promise.all([repo.rolesOf([user.id]), repo.groupsOf([user.id])]);
      return toRow(user, roles, groups);
    },
    { permission: { menu: m.users } },
  );

  addRoute(
    app,
    usersRoutes.create,
    async ({ body, request }) => {
      if (await repo.findUserByName(body.user_name)) throw conflict('users.nameTaken');
      await checkRefs(body.role_ids, body.user_group_ids);
      await rules.requireAssignable(request, body.role_ids);
      const password_hash = await deps.auth.acceptNewPassword(body.password, body.user_name, requestLanguage(request));
      const id = await repo.saveUser(
        null,
        {
          user_name: body.user_name,
          alias: body.alias,
          email: body.email,
          phone: body.phone,
          enable: body.enable ? 1 : 0,
          password_hash,
          must_change_password: 1,
        },
        body.role_ids,
        body.user_group_ids,
        now(),
      );
      await audit(request, 'users', 'create', body.user_name);
      return { id };
    },
    { permission: { menu: m.users, func: 'add' } },
  );

  addRoute(
    app,
    usersRoutes.update,
    async ({ params, body, request }) => {
      const user = await repo.findUser(params.id);
      if (!user) throw notFound('users.unknownUser');
      await rules.requireManageableUser(request, user.id);
      if (user.id === rootUserId && (!body.enable || !body.role_ids.includes(adminRoleId))) {
        throw badRequest('users.cannotDeleteRoot');
      }
      if (user.id === request.principal?.user_id && !(await rules.isAdmin(request))) {
        // Only an administrator changes their own roles (docs/users.md, "Who may grant what").
        const own = (await repo.rolesOf([user.id])).get(user.id) ?? [];
        const same = (a: number[]) => [...new Set(a)].sort((x, y) => x - y).join();
        if (same(own) !== same(body.role_ids)) throw forbidden('users.ownRoles');
      }
      await checkRefs(body.role_ids, body.user_group_ids);
      await rules.requireAssignable(request, body.role_ids);
      if (body.password && user.login_type !== 1) throw badRequest('users.directoryPassword');
      const password_hash = body.password
        ? await deps.auth.acceptNewPassword(body.password, user.user_name, requestLanguage(request))
        : undefined;
      await repo.saveUser(
        user.id,
        {
          alias: body.alias,
          email: body.email,
          phone: body.phone,
          enable: body.enable ? 1 : 0,
          ...(password_hash ? { password_hash } : {}),
          ...(body.unlock ? { unlock: true } : {}),
        },
        body.role_ids,
        body.user_group_ids,
        now(),
      );
      if (!body.enable) await deps.auth.endSessions(user.id, 'disabled');
      else if (password_hash) await deps.auth.endSessions(user.id, 'password_changed');
      await audit(request, 'users', 'update', user.user_name, password_hash ? 'password reset' : '');
      return null;
    },
    { permission: { menu: m.users, func: 'edit' } },
  );

  addRoute(
    app,
    usersRoutes.remove,
    async ({ params, request }) => {
      if (params.id === rootUserId) throw badRequest('users.cannotDeleteRoot');
      if (params.id === request.principal?.user_id) throw badRequest('users.cannotDeleteSelf');
      const user = await repo.findUser(params.id);
      if (!user) throw notFound('users.unknownUser');
      await rules.requireManageableUser(request, user.id);
      await repo.deleteUser(user.id);
      await audit(request, 'users', 'delete', user.user_name);
      return null;
    },
    { permission: { menu: m.users, func: 'delete' } },
  );

  addRoute(app, usersRoutes.userRoles, async ({ query, request }) => {
    // Anyone may read their own roles (the shell needs them); others' need the users page.
    if (query.user_id !== request.principal?.user_id) await request.server.access.require(request, { menu: m.users });
    const roles = await repo.rolesOf([query.user_id]);
    return { user_id: query.user_id, data: roles.get(query.user_id) ?? [] };
  });

  // User groups: a tree by parent_id.
  addRoute(app, usersRoutes.groups, async () => {
    const data = await repo.listGroups();
    return { total: data.length, data };
  });
  addRoute(
    app,
    usersRoutes.group,
    async ({ params }) => {
      const group = (await repo.listGroups()).find((g) => g.id === params.id);
      if (!group) throw notFound('users.unknownGroup');
      return group;
    },
    { permission: { menu: m.userGroups } },
  );
  const checkParent = async (id: number | null, parentId: number) => {
    if (parentId === 0) return;
    const groups = await repo.listGroups();
    const parents = new Map(groups.map((g) => [g.id, g.parent_id]));
    if (!parents.has(parentId)) throw badRequest('users.groupParentInvalid');
    // The parent may not be the group itself or one of its descendants.
    for (let cursor: number | undefined = parentId; cursor; cursor = parents.get(cursor)) {
      if (cursor === id) throw badRequest('users.groupParentInvalid');
    }
  };
  addRoute(
    app,
    usersRoutes.groupCreate,
    async ({ body, request }) => {
      await checkParent(null, body.parent_id);
      if (await repo.groupByName(body.parent_id, body.name)) throw conflict('users.groupNameTaken');
      const id = await repo.insertGroup(body, now());
      await audit(request, 'user_groups', 'create', body.name);
      return { id };
    },
    { permission: { menu: m.userGroups, func: 'add' } },
  );
  addRoute(
    app,
    usersRoutes.groupUpdate,
    async ({ params, body, request }) => {
      if (!(await repo.findGroup(params.id))) throw notFound('users.unknownGroup');
      await checkParent(params.id, body.parent_id);
      const same = await repo.groupByName(body.parent_id, body.name);
      if (same && same.id !== params.id) throw conflict('users.groupNameTaken');
      await repo.updateGroup(params.id, body);
      await audit(request, 'user_groups', 'update', body.name);
      return null;
    },
    { permission: { menu: m.userGroups, func: 'edit' } },
  );
  addRoute(
    app,
    usersRoutes.groupRemove,
    async ({ params, request }) => {
      const group = await repo.findGroup(params.id);
      if (!group) throw notFound('users.unknownGroup');
      if ((await repo.groupChildren(group.id)) > 0) throw badRequest('users.groupHasChildren');
      if ((await repo.groupUsers(group.id)) > 0) throw badRequest('users.groupHasUsers');
      await repo.deleteGroup(group.id);
      await audit(request, 'user_groups', 'delete', group.name);
      return null;
    },
    { permission: { menu: m.userGroups, func: 'delete' } },
  );

  // Roles and their grants.
  addRoute(
    app,
    usersRoutes.roles,
    async () => {
      const data = await repo.listRoles();
      return { total: data.length, data };
    },
    { permission: { menu: m.users } },
  );
  addRoute(app, usersRoutes.role, async ({ params, request }) => {
    // The shell reads its own roles' sites (000 §6); other roles need the roles page.
    const access = await request.server.access.forUser(request.principal?.user_id ?? 0);
    if (!access.roleIds.includes(params.id)) await request.server.access.require(request, { menu: m.roles });
    const role = (await repo.listRoles()).find((r) => r.id === params.id);
    if (!role) throw notFound('users.unknownRole');
    return { ...role, ...(await repo.roleGrants(role.id)) };
  });
  const checkGrants = async (body: { menu_ids: number[]; function_ids: number[]; contact_ids: number[] }) => {
    if ((await repo.existingMenus(body.menu_ids)).length !== new Set(body.menu_ids).size)
      throw badRequest('errors.badRequest');
    if ((await repo.existingFunctions(body.function_ids)).length !== new Set(body.function_ids).size)
      throw badRequest('errors.badRequest');
    if ((await repo.existingContacts(body.contact_ids)).length !== new Set(body.contact_ids).size)
      throw badRequest('users.unknownContact');
  };
  addRoute(
    app,
    usersRoutes.roleCreate,
    async ({ body, request }) => {
      if (await repo.roleByName(body.name)) throw conflict('users.roleNameTaken');
      await checkGrants(body);
      await rules.requireGrantable(request, body);
      const id = await repo.saveRole(null, { name: body.name, remark: body.remark }, body, now());
      await audit(request, 'roles', 'create', body.name);
      return { id };
    },
    { permission: { menu: m.roles, func: 'add' } },
  );
  addRoute(
    app,
    usersRoutes.roleUpdate,
    async ({ params, body, request }) => {
      if (params.id === adminRoleId) throw badRequest('users.adminRoleFixed');
      if (!(await repo.findRole(params.id))) throw notFound('users.unknownRole');
      await rules.requireManageableRole(request, params.id);
      const same = await repo.roleByName(body.name);
      if (same && same.id !== params.id) throw conflict('users.roleNameTaken');
      await checkGrants(body);
      await rules.requireGrantable(request, body);
      await repo.saveRole(params.id, { name: body.name, remark: body.remark }, body, now());
      await audit(request, 'roles', 'update', body.name);
      return null;
    },
    { permission: { menu: m.roles, func: 'edit' } },
  );
  addRoute(
    app,
    usersRoutes.roleRemove,
    async ({ params, request }) => {
      if (params.id === adminRoleId) throw badRequest('users.adminRoleFixed');
      const role = await repo.findRole(params.id);
      if (!role) throw notFound('users.unknownRole');
      await rules.requireManageableRole(request, role.id);
      if ((await repo.roleUsers(role.id)) > 0) throw badRequest('users.roleInUse');
      await repo.deleteRole(role.id);
      await audit(request, 'roles', 'delete', role.name);
      return null;
    },
    { permission: { menu: m.roles, func: 'delete' } },
  );

  addRoute(
    app,
    usersRoutes.menus,
    async ({ request }) => {
      const language = requestLanguage(request);
      // The form offers only what the editor may grant: their own pages and functions.
      const held = await rules.offered(request);
      const [menus, functions] = await Promise.all([repo.menus(), repo.functions()]);
      const build = (parentId: number): CatalogueMenu[] =>
        menus
          .filter((row) => row.parent_id === parentId && (!held || held.menus.has(row.id)))
          .map((row) => ({
            id: row.id,
            name: row.name_key ? sharedText(language, row.name_key) : row.name,
            url: row.url,
            functions: functions
              .filter((f) => f.menu_id === row.id && (!held || held.functions.has(f.id)))
              .map((f) => ({ id: f.id, code: f.code, name: sharedText(language, f.name_key) })),
            children: build(row.id),
          }));
      return { list: build(0) };
    },
    { permission: { menu: m.roles } },
  );
  addRoute(
    app,
    usersRoutes.grantableContacts,
    async ({ request }) => ({ list: await repo.contacts(await request.server.access.contacts(request)) }),
    { permission: { menu: m.roles } },
  );
  addRoute(
    app,
    usersRoutes.functions,
    async ({ request }) => {
      const language = requestLanguage(request);
      const held = await rules.offered(request);
      const list = (await repo.functions())
        .filter((f) => !held || held.functions.has(f.id))
        .map((f) => ({
          id: f.id,
          menu_id: f.menu_id,
          code: f.code,
          name: sharedText(language, f.name_key),
        }));
      return { list };
    },
    { permission: { menu: m.roles } },
  );

  // The account block list (002 §3, §5.3).
  addRoute(
    app,
    usersRoutes.blocks,
    async () => {
      const data = await repo.listBlocks(now());
      return { total: data.length, data };
    },
    { permission: { menu: m.security } },
  );
  addRoute(
    app,
    usersRoutes.block,
    async ({ body, request }) => {
      if (body.user_ids.includes(request.principal?.user_id ?? -1)) throw badRequest('users.cannotBlockSelf');
      if ((await repo.existingUsers(body.user_ids)).length !== new Set(body.user_ids).size)
        throw badRequest('users.unknownUser');
      for (const userId of new Set(body.user_ids)) await rules.requireManageableUser(request, userId);
      const time = now();
      const expires_at = body.days === null ? null : time + body.days * 86_400;
      await repo.insertBlocks(
        [...new Set(body.user_ids)].map((user_id) => ({
          user_id,
          reason: body.reason,
          created_at: time,
          expires_at,
          created_by: request.principal?.user_id ?? 0,
        })),
      );
      for (const userId of body.user_ids) await deps.auth.endSessions(userId, 'disabled');
      await audit(request, 'security', 'block', body.user_ids.join(','), body.reason);
      return null;
    },
    { permission: { menu: m.security, func: 'block' } },
  );
  addRoute(
    app,
    usersRoutes.unblock,
    async ({ params, request }) => {
      const block = await repo.findBlock(params.id);
      if (!block) throw notFound();
      await rules.requireManageableUser(request, block.user_id);
      await repo.deleteBlock(block.id);
      await audit(request, 'security', 'unblock', params.id);
      return null;
    },
    { permission: { menu: m.security, func: 'block' } },
  );

  // The operation log (/system_log_user).
  addRoute(
    app,
    usersRoutes.operationLog,
    async ({ query }) => {
      const { total, rows } = await repo.operationLog(query, query.page, query.limit);
      return { total, data: rows };
    },
    { permission: { menu: m.operationLog } },
  );
  addRoute(
    app,
    usersRoutes.operationLogClear,
    async ({ body, request }) => {
      const principal = request.principal;
      if (!principal) throw new AppError('notLoggedIn');
      await deps.auth.verifyOwnPassword(principal, body.verify_password, { ip: request.ip });
      await repo.clearOperationLog();
      await audit(request, 'logs', 'clear', 'operation_record');
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
        await request.server.access.require(request, { menu: m.operationLog, func: 'export' });
      },
    },
    async (request, reply) => {
      const query = request.query as ReturnType<typeof operationLogQuery.parse>;
      const { rows } = await repo.operationLog(query, 1, 100_000);
      const language = requestLanguage(request);
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('operation_record');
      sheet.columns = [
        { header: sharedText(language, 'logs.time'), key: 'time', width: 20 },
        { header: sharedText(language, 'logs.user'), key: 'user_name', width: 16 },
        { header: sharedText(language, 'logs.ip'), key: 'ip', width: 18 },
        { header: sharedText(language, 'logs.module'), key: 'module', width: 14 },
        { header: sharedText(language, 'logs.action'), key: 'action', width: 18 },
        { header: sharedText(language, 'logs.target'), key: 'target', width: 24 },
        { header: sharedText(language, 'logs.result'), key: 'result', width: 10 },
        { header: sharedText(language, 'logs.detail'), key: 'detail', width: 40 },
      ];
      for (const row of rows) {
        sheet.addRow({
          ...row,
          time: new Date(row.time * 1000).toISOString().replace('T', ' ').slice(0, 19),
          result: sharedText(language, row.result ? 'logs.success' : 'logs.failure'),
        });
      }
      const buffer = Buffer.from(await book.xlsx.writeBuffer());
      await audit(request, 'logs', 'export', 'operation_record', `${rows.length} rows`);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="operation_record.xlsx"')
        .send(buffer);
    },
  );
  return { grants: rules };
};
