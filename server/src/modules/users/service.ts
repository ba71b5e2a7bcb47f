import { type Language, nowSeconds, sharedText } from '@sitewatch/contract';
import { operationLogReader } from '@sitewatch/contract/operation-log';
import type {
  CatalogueMenu,
  operationLogQuery,
  roleInput,
  UserRow,
  userCreate,
  userGroupInput,
  userUpdate,
} from '@sitewatch/contract/users';
import type { z } from 'zod';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { sheetWorkbook } from '../../http/xlsx.ts';
import { adminRoleId, rootUserId } from '../access/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { CallerRules } from './grants.ts';
import type { UsersRepository } from './repository.ts';

export interface UsersServiceDeps {
  repo: UsersRepository;
  auth: Pick<AuthService, 'acceptNewPassword' | 'endSessions'>;
  clock?: (() => number) | undefined;
}

/** Who asks: their user id and the "who may grant what" rules bound to them (grants.ts). */
export interface Caller {
  userId: number | undefined;
  rules: CallerRules;
}

type UserRecord = NonNullable<Awaited<ReturnType<UsersRepository['findUser']>>>;
type GroupInput = z.output<typeof userGroupInput>;
type RoleInput = z.output<typeof roleInput>;
type LogQuery = z.output<typeof operationLogQuery>;

const toRow = (user: UserRecord, roles: Map<number, number[]>, groups: Map<number, number[]>): UserRow => ({
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

const sameSet = (a: number[], b: number[]) => {
  const key = (list: number[]) => [...new Set(list)].sort((x, y) => x - y).join();
  return key(a) === key(b);
};

/** What each part of the service is made with. */
interface Parts {
  repo: UsersRepository;
  auth: UsersServiceDeps['auth'];
  now: () => number;
}

/** Users: list, read, create, change, delete; who may change whom is the caller's rules. */
const userCalls = ({ repo, auth, now }: Parts) => {
  const checkRefs = async (roleIds: number[], groupIds: number[]) => {
    const roles = await repo.existing('roles', roleIds);
    if (roles.length !== new Set(roleIds).size) throw badRequest('users.unknownRole');
    const groups = await repo.existing('user_groups', groupIds);
    if (groups.length !== new Set(groupIds).size) throw badRequest('users.unknownGroup');
  };
  const userOrThrow = async (id: number) => {
    const user = await repo.findUser(id);
    if (!user) throw notFound('users.unknownUser');
    return user;
  };
  return {
    async listUsers(query: { page: number; limit: number; name?: string | undefined; enable?: '0' | '1' | undefined }) {
      const { total, rows } = await repo.listUsers(
        { name: query.name, enable: query.enable === undefined ? undefined : Number(query.enable) },
        query.page,
        query.limit,
      );
      const ids = rows.map((r) => r.id);
      const [roles, groups] = await Promise.all([repo.rolesOf(ids), repo.groupsOf(ids)]);
      return { total, data: rows.map((r) => toRow(r, roles, groups)) };
    },
    async getUser(id: number) {
      const user = await userOrThrow(id);
      const [roles, groups] = await Promise.all([repo.rolesOf([user.id]), repo.groupsOf([user.id])]);
      return toRow(user, roles, groups);
    },
    async createUser(body: z.output<typeof userCreate>, caller: Caller, language: Language) {
      if (await repo.findUserByName(body.user_name)) throw conflict('users.nameTaken');
      await checkRefs(body.role_ids, body.user_group_ids);
      await caller.rules.requireAssignable(body.role_ids);
      const password_hash = await auth.acceptNewPassword(body.password, body.user_name, language);
      const values = { user_name: body.user_name, alias: body.alias, email: body.email, phone: body.phone };
      return repo.saveUser(
        null,
        { ...values, enable: body.enable ? 1 : 0, password_hash, must_change_password: 1 },
        body.role_ids,
        body.user_group_ids,
        now(),
      );
    },
    /** Changes a user; what the audit names: the user and whether the password was reset. */
    async updateUser(id: number, body: z.output<typeof userUpdate>, caller: Caller, language: Language) {
      const user = await userOrThrow(id);
      await caller.rules.requireManageableUser(user.id);
      if (user.id === rootUserId && (!body.enable || !body.role_ids.includes(adminRoleId))) {
        throw badRequest('users.cannotDeleteRoot');
      }
      if (user.id === caller.userId && !(await caller.rules.isAdmin())) {
        // Only an administrator changes their own roles (docs/users.md, "Who may grant what").
        const own = (await repo.rolesOf([user.id])).get(user.id) ?? [];
        if (!sameSet(own, body.role_ids)) throw forbidden('users.ownRoles');
      }
      await checkRefs(body.role_ids, body.user_group_ids);
      await caller.rules.requireAssignable(body.role_ids);
      if (body.password && user.login_type !== 1) throw badRequest('users.directoryPassword');
      const password_hash = body.password
        ? await auth.acceptNewPassword(body.password, user.user_name, language)
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
      if (!body.enable) await auth.endSessions(user.id, 'disabled');
      else if (password_hash) await auth.endSessions(user.id, 'password_changed');
      return { userName: user.user_name, passwordReset: password_hash !== undefined };
    },
    /** Deletes a user; their name, for the audit. */
    async removeUser(id: number, caller: Caller) {
      if (id === rootUserId) throw badRequest('users.cannotDeleteRoot');
      if (id === caller.userId) throw badRequest('users.cannotDeleteSelf');
      const user = await userOrThrow(id);
      await caller.rules.requireManageableUser(user.id);
      await repo.deleteUser(user.id);
      return user.user_name;
    },
    async userRoles(userId: number) {
      const roles = await repo.rolesOf([userId]);
      return { user_id: userId, data: roles.get(userId) ?? [] };
    },
  };
};

/** User groups: a tree by parent_id. */
const groupCalls = ({ repo, now }: Parts) => {
  /** The parent may exist and may not be the group itself or one of its descendants. */
  const checkParent = async (id: number | null, parentId: number) => {
    if (parentId === 0) return;
    const parents = new Map((await repo.listGroups()).map((g) => [g.id, g.parent_id]));
    if (!parents.has(parentId)) throw badRequest('users.groupParentInvalid');
    for (let cursor: number | undefined = parentId; cursor; cursor = parents.get(cursor)) {
      if (cursor === id) throw badRequest('users.groupParentInvalid');
    }
  };
  return {
    async groups() {
      const data = await repo.listGroups();
      return { total: data.length, data };
    },
    async group(id: number) {
      const group = (await repo.listGroups()).find((g) => g.id === id);
      if (!group) throw notFound('users.unknownGroup');
      return group;
    },
    async createGroup(body: GroupInput) {
      await checkParent(null, body.parent_id);
      if (await repo.groupByName(body.parent_id, body.name)) throw conflict('users.groupNameTaken');
      return repo.insertGroup(body, now());
    },
    async updateGroup(id: number, body: GroupInput) {
      if (!(await repo.findGroup(id))) throw notFound('users.unknownGroup');
      await checkParent(id, body.parent_id);
      const same = await repo.groupByName(body.parent_id, body.name);
      if (same && same.id !== id) throw conflict('users.groupNameTaken');
      await repo.updateGroup(id, body);
    },
    /** Deletes an empty leaf group; its name, for the audit. */
    async removeGroup(id: number) {
      const group = await repo.findGroup(id);
      if (!group) throw notFound('users.unknownGroup');
      if ((await repo.groupChildren(group.id)) > 0) throw badRequest('users.groupHasChildren');
      if ((await repo.groupUsers(group.id)) > 0) throw badRequest('users.groupHasUsers');
      await repo.deleteGroup(group.id);
      return group.name;
    },
  };
};

/** Roles and their grants, and the catalogue a role form offers. */
const roleCalls = ({ repo, now }: Parts) => {
  const checkGrants = async (body: { menu_ids: number[]; function_ids: number[]; contact_ids: number[] }) => {
    if ((await repo.existingMenus(body.menu_ids)).length !== new Set(body.menu_ids).size)
      throw badRequest('errors.badRequest');
    if ((await repo.existingFunctions(body.function_ids)).length !== new Set(body.function_ids).size)
      throw badRequest('errors.badRequest');
    if ((await repo.existingContacts(body.contact_ids)).length !== new Set(body.contact_ids).size)
      throw badRequest('users.unknownContact');
  };
  const functionName = (language: Language, f: { id: number; code: string; name_key: string }) => ({
    id: f.id,
    code: f.code,
    name: sharedText(language, f.name_key),
  });

  return {
    async roles() {
      const data = await repo.listRoles();
      return { total: data.length, data };
    },
    async role(id: number) {
      const role = (await repo.listRoles()).find((r) => r.id === id);
      if (!role) throw notFound('users.unknownRole');
      return { ...role, ...(await repo.roleGrants(role.id)) };
    },
    async createRole(body: RoleInput, caller: Caller) {
      if (await repo.roleByName(body.name)) throw conflict('users.roleNameTaken');
      await checkGrants(body);
      await caller.rules.requireGrantable(body);
      return repo.saveRole(null, { name: body.name, remark: body.remark }, body, now());
    },
    async updateRole(id: number, body: RoleInput, caller: Caller) {
      if (id === adminRoleId) throw badRequest('users.adminRoleFixed');
      if (!(await repo.findRole(id))) throw notFound('users.unknownRole');
      await caller.rules.requireManageableRole(id);
      const same = await repo.roleByName(body.name);
      if (same && same.id !== id) throw conflict('users.roleNameTaken');
      await checkGrants(body);
      await caller.rules.requireGrantable(body);
      await repo.saveRole(id, { name: body.name, remark: body.remark }, body, now());
    },
    /** Deletes a role no user holds; its name, for the audit. */
    async removeRole(id: number, caller: Caller) {
      if (id === adminRoleId) throw badRequest('users.adminRoleFixed');
      const role = await repo.findRole(id);
      if (!role) throw notFound('users.unknownRole');
      await caller.rules.requireManageableRole(role.id);
      if ((await repo.roleUsers(role.id)) > 0) throw badRequest('users.roleInUse');
      await repo.deleteRole(role.id);
      return role.name;
    },

    /** The page and function tree the role form offers: only what the editor may grant. */
    async menus(caller: Caller, language: Language) {
      const held = await caller.rules.offered();
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
              .map((f) => functionName(language, f)),
            children: build(row.id),
          }));
      return { list: build(0) };
    },
    async functions(caller: Caller, language: Language) {
      const held = await caller.rules.offered();
      const list = (await repo.functions())
        .filter((f) => !held || held.functions.has(f.id))
        .map((f) => ({ id: f.id, menu_id: f.menu_id, code: f.code, name: sharedText(language, f.name_key) }));
      return { list };
    },
    /** Contacts a role form offers: the caller's granted contacts (null: every contact). */
    grantableContacts: async (granted: number[] | null) => ({ list: await repo.contacts(granted) }),
  };
};

/** The account block list (002 §3, §5.3) and the operation log (/system_log_user). */
const blockAndLogCalls = ({ repo, auth, now }: Parts) => {
  return {
    async blocks() {
      const data = await repo.listBlocks(now());
      return { total: data.length, data };
    },
    async block(body: { user_ids: number[]; days: number | null; reason: string }, caller: Caller) {
      if (body.user_ids.includes(caller.userId ?? -1)) throw badRequest('users.cannotBlockSelf');
      const userIds = [...new Set(body.user_ids)];
      if ((await repo.existingUsers(body.user_ids)).length !== userIds.length) throw badRequest('users.unknownUser');
      for (const userId of userIds) await caller.rules.requireManageableUser(userId);
      const time = now();
      const expires_at = body.days === null ? null : time + body.days * 86_400;
      const created_by = caller.userId ?? 0;
      await repo.insertBlocks(
        userIds.map((user_id) => ({ user_id, reason: body.reason, created_at: time, expires_at, created_by })),
      );
      for (const userId of body.user_ids) await auth.endSessions(userId, 'disabled');
    },
    async unblock(id: number, caller: Caller) {
      const block = await repo.findBlock(id);
      if (!block) throw notFound();
      await caller.rules.requireManageableUser(block.user_id);
      await repo.deleteBlock(block.id);
    },

    // ---------- the operation log (/system_log_user) ----------
    operationLog: async (query: LogQuery) => {
      const { total, rows } = await repo.operationLog(query, query.page, query.limit);
      return { total, data: rows };
    },
    clearOperationLog: () => repo.clearOperationLog(),
    /** The filtered log as an xlsx workbook in the caller's language, and how many rows it holds. */
    async exportOperationLog(query: LogQuery, language: Language) {
      const { rows } = await repo.operationLog(query, 1, 100_000);
      const h = (key: string) => sharedText(language, `logs.${key}`);
      const stamp = (seconds: number) => new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19);
      const read = operationLogReader((key, values) => sharedText(language, key, values), stamp);
      const buffer = await sheetWorkbook(
        'operation_record',
        [
          { header: h('time'), width: 20 },
          { header: h('user'), width: 16 },
          { header: h('ip'), width: 18 },
          { header: h('module'), width: 14 },
          { header: h('action'), width: 18 },
          { header: h('target'), width: 24 },
          { header: h('result'), width: 10 },
          { header: h('detail'), width: 40 },
        ],
        rows.map((row) => [
          stamp(row.time),
          row.user_name,
          row.ip,
          read.module(row.module),
          read.action(row.action),
          row.target,
          h(row.result ? 'success' : 'failure'),
          read.detail(row.detail),
        ]),
      );
      return { buffer, count: rows.length };
    },
  };
};

/**
 * Users, user groups, roles with their grants, the account block list and the operation log
 * (002 §3, §5.1, §5.3, §7.1). User id 1 is never restricted, deleted or disabled; role id 1 is the
 * administrator and cannot change. Every check comes before the first write, so a refused request
 * changes nothing.
 */
export const createUsersService = ({ repo, auth, clock }: UsersServiceDeps) => {
  const parts: Parts = { repo, auth, now: () => nowSeconds((clock ?? Date.now)()) };
  return { ...userCalls(parts), ...groupCalls(parts), ...roleCalls(parts), ...blockAndLogCalls(parts) };
};

export type UsersService = ReturnType<typeof createUsersService>;
