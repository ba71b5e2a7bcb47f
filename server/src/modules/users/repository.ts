import type { Kysely } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';
import { newUserDefaults } from '../auth/index.ts';

/** Refs (role or group ids) by user id. */
const byUser = (rows: { user_id: number; ref: number }[]) => {
  const map = new Map<number, number[]>();
  for (const row of rows) map.set(row.user_id, [...(map.get(row.user_id) ?? []), row.ref]);
  return map;
};

/** Users with their roles and groups. */
const userQueries = (k: Kysely<Database>) => ({
  async listUsers(filter: { name?: string | undefined; enable?: number | undefined }, page: number, limit: number) {
    let query = k.selectFrom('users');
    if (filter.name) {
      const like = `%${filter.name.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) => eb.or([eb('user_name', 'like', like), eb('alias', 'like', like)]));
    }
    if (filter.enable !== undefined) query = query.where('enable', '=', filter.enable);
    const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await query
      .selectAll()
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    return { total, rows };
  },
  findUser: (id: number) => k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
  findUserByName: (user_name: string) =>
    k.selectFrom('users').select('id').where('user_name', '=', user_name).executeTakeFirst(),
  rolesOf: async (userIds: number[]) =>
    byUser(
      userIds.length
        ? await k
            .selectFrom('user_roles')
            .select(['user_id', 'role_id as ref'])
            .where('user_id', 'in', userIds)
            .execute()
        : [],
    ),
  groupsOf: async (userIds: number[]) =>
    byUser(
      userIds.length
        ? await k
            .selectFrom('user_user_groups')
            .select(['user_id', 'group_id as ref'])
            .where('user_id', 'in', userIds)
            .execute()
        : [],
    ),
  existing: async (table: 'roles' | 'user_groups', ids: number[]) =>
    ids.length === 0 ? [] : (await k.selectFrom(table).select('id').where('id', 'in', ids).execute()).map((r) => r.id),

  /** Creates or changes a user with its roles and groups in one transaction. */
  saveUser: (
    id: number | null,
    values: {
      user_name?: string;
      alias: string;
      email: string;
      phone: string;
      enable: number;
      password_hash?: string;
      must_change_password?: number;
      unlock?: boolean;
    },
    roleIds: number[],
    groupIds: number[],
    time: number,
  ) =>
    k.transaction().execute(async (tx) => {
      let userId = id;
      const { unlock, ...columns } = values;
      if (userId === null) {
        userId = (
          await tx
            .insertInto('users')
            .values({
              ...newUserDefaults(time),
              user_name: columns.user_name ?? '',
              alias: columns.alias,
              email: columns.email,
              phone: columns.phone,
              enable: columns.enable,
              password_hash: columns.password_hash ?? '',
              must_change_password: columns.must_change_password ?? 1,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      } else {
        await tx
          .updateTable('users')
          .set({
            alias: columns.alias,
            email: columns.email,
            phone: columns.phone,
            enable: columns.enable,
            updated_at: time,
            ...(columns.password_hash
              ? { password_hash: columns.password_hash, password_changed_at: time, must_change_password: 1 }
              : {}),
            ...(unlock ? { locked_at: null, lock_reason: null } : {}),
          })
          .where('id', '=', userId)
          .execute();
        await tx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
        await tx.deleteFrom('user_user_groups').where('user_id', '=', userId).execute();
      }
      const uid = userId;
      if (roleIds.length)
        await tx
          .insertInto('user_roles')
          .values(roleIds.map((role_id) => ({ user_id: uid, role_id })))
          .execute();
      if (groupIds.length)
        await tx
          .insertInto('user_user_groups')
          .values(groupIds.map((group_id) => ({ user_id: uid, group_id })))
          .execute();
      return uid;
    }),
  deleteUser: (id: number) => k.deleteFrom('users').where('id', '=', id).execute(),
});

/** User groups: the tree, their names and members. */
const groupQueries = (k: Kysely<Database>) => ({
  listGroups: async () => {
    const groups = await k.selectFrom('user_groups').selectAll().orderBy('parent_id').orderBy('id').execute();
    const counts = await k
      .selectFrom('user_user_groups')
      .select(['group_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy('group_id')
      .execute();
    const byGroup = new Map(counts.map((c) => [c.group_id, Number(c.n)]));
    return groups.map((g) => ({
      id: g.id,
      name: g.name,
      parent_id: g.parent_id,
      remark: g.remark,
      user_count: byGroup.get(g.id) ?? 0,
    }));
  },
  findGroup: (id: number) => k.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst(),
  groupByName: (parent_id: number, name: string) =>
    k
      .selectFrom('user_groups')
      .select('id')
      .where('parent_id', '=', parent_id)
      .where('name', '=', name)
      .executeTakeFirst(),
  insertGroup: async (values: { name: string; parent_id: number; remark: string }, time: number) =>
    (
      await k
        .insertInto('user_groups')
        .values({ ...values, created_at: time })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  updateGroup: (id: number, values: { name: string; parent_id: number; remark: string }) =>
    k.updateTable('user_groups').set(values).where('id', '=', id).execute(),
  deleteGroup: (id: number) => k.deleteFrom('user_groups').where('id', '=', id).execute(),
  groupChildren: async (id: number) =>
    Number(
      (
        await k
          .selectFrom('user_groups')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('parent_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  groupUsers: async (id: number) =>
    Number(
      (
        await k
          .selectFrom('user_user_groups')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('group_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    ),
});

/** Roles and what they grant (menus, functions, sites, contacts). */
const roleQueries = (k: Kysely<Database>) => ({
  listRoles: async () => {
    const roles = await k.selectFrom('roles').selectAll().orderBy('id').execute();
    const counts = await k
      .selectFrom('user_roles')
      .select(['role_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy('role_id')
      .execute();
    const byRole = new Map(counts.map((c) => [c.role_id, Number(c.n)]));
    return roles.map((r) => ({ id: r.id, name: r.name, remark: r.remark, user_count: byRole.get(r.id) ?? 0 }));
  },
  findRole: (id: number) => k.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst(),
  roleByName: (name: string) => k.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirst(),
  roleGrants: async (id: number) => {
    const [sites, menus, functions, videos, contacts] = await Promise.all([
      k.selectFrom('role_sites').select('site_id').where('role_id', '=', id).execute(),
      k.selectFrom('role_menus').select('menu_id').where('role_id', '=', id).execute(),
      k.selectFrom('role_functions').select('function_id').where('role_id', '=', id).execute(),
      k.selectFrom('role_videos').select('video_id').where('role_id', '=', id).execute(),
      k.selectFrom('role_contacts').select('contact_id').where('role_id', '=', id).execute(),
    ]);
    return {
      device_groups: sites.map((s) => ({ id: s.site_id })),
      menu_ids: menus.map((m) => m.menu_id),
      function_ids: functions.map((f) => f.function_id),
      video_ids: videos.map((v) => v.video_id),
      contact_ids: contacts.map((c) => c.contact_id),
    };
  },
  saveRole: (
    id: number | null,
    values: { name: string; remark: string },
    grants: {
      site_ids: number[];
      menu_ids: number[];
      function_ids: number[];
      video_ids: number[];
      contact_ids: number[];
    },
    time: number,
  ) =>
    k.transaction().execute(async (tx) => {
      let roleId = id;
      if (roleId === null) {
        roleId = (
          await tx
            .insertInto('roles')
            .values({ ...values, created_at: time })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      } else {
        await tx.updateTable('roles').set(values).where('id', '=', roleId).execute();
        for (const table of ['role_sites', 'role_menus', 'role_functions', 'role_videos', 'role_contacts'] as const) {
          await tx.deleteFrom(table).where('role_id', '=', roleId).execute();
        }
      }
      const role_id = roleId;
      const unique = (list: number[]) => [...new Set(list)];
      if (grants.site_ids.length)
        await tx
          .insertInto('role_sites')
          .values(unique(grants.site_ids).map((site_id) => ({ role_id, site_id })))
          .execute();
      if (grants.menu_ids.length)
        await tx
          .insertInto('role_menus')
          .values(unique(grants.menu_ids).map((menu_id) => ({ role_id, menu_id })))
          .execute();
      if (grants.function_ids.length)
        await tx
          .insertInto('role_functions')
          .values(unique(grants.function_ids).map((function_id) => ({ role_id, function_id })))
          .execute();
      if (grants.video_ids.length)
        await tx
          .insertInto('role_videos')
          .values(unique(grants.video_ids).map((video_id) => ({ role_id, video_id })))
          .execute();
      if (grants.contact_ids.length)
        await tx
          .insertInto('role_contacts')
          .values(unique(grants.contact_ids).map((contact_id) => ({ role_id, contact_id })))
          .execute();
      return role_id;
    }),
  /** Everything the given roles grant together, for the "who may grant what" rules (docs/users.md). */
  grantsOfRoles: async (roleIds: number[]) => {
    const ids = [0, ...roleIds];
    const [sites, menus, functions, videos, contacts] = await Promise.all([
      k.selectFrom('role_sites').select('site_id as id').where('role_id', 'in', ids).execute(),
      k.selectFrom('role_menus').select('menu_id as id').where('role_id', 'in', ids).execute(),
      k.selectFrom('role_functions').select('function_id as id').where('role_id', 'in', ids).execute(),
      k.selectFrom('role_videos').select('video_id as id').where('role_id', 'in', ids).execute(),
      k.selectFrom('role_contacts').select('contact_id as id').where('role_id', 'in', ids).execute(),
    ]);
    const set = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
    return {
      sites: set(sites),
      menus: set(menus),
      functions: set(functions),
      videos: set(videos),
      contacts: set(contacts),
    };
  },
  deleteRole: (id: number) => k.deleteFrom('roles').where('id', '=', id).execute(),
  roleUsers: async (id: number) =>
    Number(
      (
        await k
          .selectFrom('user_roles')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('role_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    ),
});

/** What grants may name: menus, functions, contacts, users. */
const catalogueQueries = (k: Kysely<Database>) => ({
  menus: () => k.selectFrom('menus').selectAll().orderBy('weight', 'desc').orderBy('id').execute(),
  functions: () => k.selectFrom('functions').selectAll().orderBy('menu_id').orderBy('id').execute(),
  existingMenus: async (ids: number[]) =>
    ids.length === 0
      ? []
      : (await k.selectFrom('menus').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
  existingFunctions: async (ids: number[]) =>
    ids.length === 0
      ? []
      : (await k.selectFrom('functions').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
  /** Contacts by name, limited to `ids` unless null. */
  contacts: async (ids: number[] | null) => {
    let q = k.selectFrom('contacts').select(['id', 'name', 'phone']).orderBy('name').orderBy('id');
    if (ids) q = q.where('id', 'in', [0, ...ids]);
    return q.execute();
  },
  existingContacts: async (ids: number[]) =>
    ids.length === 0
      ? []
      : (await k.selectFrom('contacts').select('id').where('id', 'in', ids).execute()).map((r) => r.id),

  existingUsers: async (ids: number[]) =>
    ids.length === 0
      ? []
      : (await k.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
});

/** The operation log and the account blocks. */
const logAndBlockQueries = (k: Kysely<Database>) => ({
  async operationLog(
    filter: {
      user_name?: string | undefined;
      module?: string | undefined;
      action?: string | undefined;
      result?: string | undefined;
      t1?: number | undefined;
      t2?: number | undefined;
    },
    page: number,
    limit: number,
  ) {
    let query = k.selectFrom('operation_logs');
    if (filter.user_name) query = query.where('user_name', '=', filter.user_name);
    // One module by name may be written under several codes (its own and the trail's): a comma-separated list.
    if (filter.module) query = query.where('module', 'in', filter.module.split(','));
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.result !== undefined) query = query.where('result', '=', Number(filter.result));
    if (filter.t1 !== undefined) query = query.where('time', '>=', filter.t1);
    if (filter.t2 !== undefined) query = query.where('time', '<=', filter.t2);
    const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await query
      .select(['id', 'time', 'user_name', 'ip', 'module', 'action', 'target', 'result', 'detail'])
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    return { total, rows };
  },
  clearOperationLog: () => k.deleteFrom('operation_logs').execute(),

  listBlocks: (now: number) =>
    k
      .selectFrom('account_blocks')
      .innerJoin('users', 'users.id', 'account_blocks.user_id')
      .select([
        'account_blocks.id',
        'account_blocks.user_id',
        'users.user_name',
        'account_blocks.reason',
        'account_blocks.created_at',
        'account_blocks.expires_at',
      ])
      .where((eb) => eb.or([eb('account_blocks.expires_at', 'is', null), eb('account_blocks.expires_at', '>', now)]))
      .orderBy('account_blocks.id', 'desc')
      .execute(),
  insertBlocks: (
    rows: { user_id: number; reason: string; created_at: number; expires_at: number | null; created_by: number }[],
  ) => k.insertInto('account_blocks').values(rows).execute(),
  findBlock: (id: number) =>
    k.selectFrom('account_blocks').select(['id', 'user_id']).where('id', '=', id).executeTakeFirst(),
  deleteBlock: async (id: number) =>
    Number((await k.deleteFrom('account_blocks').where('id', '=', id).executeTakeFirst()).numDeletedRows),
});

/** Users, user groups, roles and their grants, account blocks: Kysely only. */
export const createUsersRepository = (db: Db) => {
  const k = db.kysely;

  return {
    ...userQueries(k),
    ...groupQueries(k),
    ...roleQueries(k),
    ...catalogueQueries(k),
    ...logAndBlockQueries(k),
  };
};

export type UsersRepository = ReturnType<typeof createUsersRepository>;
