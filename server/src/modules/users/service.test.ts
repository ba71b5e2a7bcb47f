import { roleInput, userUpdate } from '@sitewatch/contract/users';
import { describe, expect, it } from 'vitest';
import { forbidden } from '../../http/errors.ts';
import { adminRoleId, rootUserId } from '../access/index.ts';
import type { CallerRules } from './grants.ts';
import type { UsersRepository } from './repository.ts';
import { type Caller, createUsersService } from './service.ts';

type UserRecord = NonNullable<Awaited<ReturnType<UsersRepository['findUser']>>>;

const user = (id: number, user_name: string): UserRecord =>
  ({
    id,
    user_name,
    alias: '',
    email: '',
    phone: '',
    enable: 1,
    login_type: 1,
    locked_at: null,
    created_at: 0,
  }) as UserRecord;

/** Users 1 (root), 2 and 3; roles 1 (administrator) and 2; no menus, functions or contacts beyond 1–9. */
const fakeWorld = () => {
  const users = new Map([
    [1, user(1, 'admin')],
    [2, user(2, 'alice')],
    [3, user(3, 'bob')],
  ]);
  const userRoles = new Map<number, number[]>([
    [1, [adminRoleId]],
    [2, [2]],
    [3, [2]],
  ]);
  const roles = new Map([
    [1, { id: 1, name: 'administrator', remark: '', created_at: 0 }],
    [2, { id: 2, name: 'operators', remark: '', created_at: 0 }],
  ]);
  const saved: unknown[] = [];
  const ended: Array<[number, string]> = [];
  const blocks: Array<{ user_id: number; expires_at: number | null }> = [];
  // As `where id in (…)`: each existing id once.
  const byId = <T>(map: Map<number, T>, ids: number[]) => [...new Set(ids)].filter((id) => map.has(id));
  const small = (ids: number[]) => [...new Set(ids)].filter((id) => id >= 1 && id <= 9);
  const notUsed = new Proxy(
    {},
    {
      get: (_, name) => () => {
        throw new Error(`the fake repository has no ${String(name)}`);
      },
    },
  ) as UsersRepository;
  const repo: UsersRepository = {
    ...notUsed,
    findUser: async (id) => users.get(id),
    findUserByName: async (name) => [...users.values()].find((u) => u.user_name === name),
    rolesOf: async (ids) => new Map(ids.map((id) => [id, userRoles.get(id) ?? []])),
    groupsOf: async (ids) => new Map(ids.map((id) => [id, [1]])),
    existing: async (table, ids) => (table === 'roles' ? byId(roles, ids) : small(ids)),
    saveUser: async (id, values, roleIds) => {
      saved.push({ id, values, roleIds });
      return id ?? 99;
    },
    deleteUser: async (id) => {
      users.delete(id);
      return [];
    },
    findRole: async (id) => roles.get(id),
    roleByName: async (name) => [...roles.values()].find((r) => r.name === name),
    existingMenus: async (ids) => small(ids),
    existingFunctions: async (ids) => small(ids),
    existingContacts: async (ids) => small(ids),
    saveRole: async (id, values) => {
      saved.push({ id, values });
      return id ?? 99;
    },
    roleUsers: async (id) => [...userRoles.values()].filter((r) => r.includes(id)).length,
    deleteRole: async (id) => {
      roles.delete(id);
      return [];
    },
    existingUsers: async (ids) => byId(users, ids),
    insertBlocks: async (rows) => {
      blocks.push(...rows);
      return [];
    },
  };
  const service = createUsersService({
    repo,
    auth: {
      acceptNewPassword: async () => 'hash',
      endSessions: async (userId, reason) => {
        ended.push([userId, reason]);
      },
    },
    clock: () => 1_000_000_000,
  });
  return { service, users, roles, saved, ended, blocks };
};

/** A caller whose grant rules allow everything (an administrator) or refuse every managed user. */
const caller = (userId: number, admin = true, refuseUsers = false): Caller => {
  const ok = async () => undefined;
  const rules: CallerRules = {
    isAdmin: async () => admin,
    requireGrantable: ok,
    requireAssignable: ok,
    requireManageableUser: async () => {
      if (refuseUsers) throw forbidden('users.userNotManageable');
    },
    requireManageableRole: ok,
    offered: async () => null,
  };
  return { userId, rules };
};

const edit = (fields: Record<string, unknown>) =>
  userUpdate.parse({ role_ids: [2], user_group_ids: [1], enable: true, ...fields });
const role = (name: string) => roleInput.parse({ name, site_ids: [1], menu_ids: [1], function_ids: [1] });

describe('users service: user 1 and role 1', () => {
  it('never disables user 1 nor takes the administrator role from them, and saves nothing', async () => {
    const { service, saved, ended } = fakeWorld();
    const admin = caller(rootUserId);
    await expect(
      service.updateUser(rootUserId, edit({ role_ids: [adminRoleId], enable: false }), admin, 'en_us'),
    ).rejects.toMatchObject({ name: 'badRequest', key: 'users.cannotDeleteRoot' });
    await expect(service.updateUser(rootUserId, edit({ role_ids: [2] }), admin, 'en_us')).rejects.toMatchObject({
      key: 'users.cannotDeleteRoot',
    });
    expect(saved).toEqual([]);
    expect(ended).toEqual([]);
    // Enabled and still an administrator, user 1 may be edited.
    await service.updateUser(rootUserId, edit({ role_ids: [adminRoleId] }), admin, 'en_us');
    expect(saved).toHaveLength(1);
  });

  it('never deletes user 1, nor the caller themselves', async () => {
    const { service, users } = fakeWorld();
    await expect(service.removeUser(rootUserId, caller(2))).rejects.toMatchObject({ key: 'users.cannotDeleteRoot' });
    await expect(service.removeUser(2, caller(2))).rejects.toMatchObject({ key: 'users.cannotDeleteSelf' });
    expect(users.size).toBe(3);
    expect(await service.removeUser(3, caller(rootUserId))).toBe('bob');
    expect(users.has(3)).toBe(false);
  });

  it('never changes or deletes role 1', async () => {
    const { service, roles, saved } = fakeWorld();
    await expect(service.updateRole(adminRoleId, role('renamed'), caller(rootUserId))).rejects.toMatchObject({
      name: 'badRequest',
      key: 'users.adminRoleFixed',
    });
    await expect(service.removeRole(adminRoleId, caller(rootUserId))).rejects.toMatchObject({
      key: 'users.adminRoleFixed',
    });
    expect(saved).toEqual([]);
    expect(roles.has(adminRoleId)).toBe(true);
  });
});

describe('users service: checks before writes', () => {
  it('lets only an administrator change their own roles', async () => {
    const { service, saved } = fakeWorld();
    await expect(service.updateUser(2, edit({ role_ids: [2, 1] }), caller(2, false), 'en_us')).rejects.toMatchObject({
      name: 'forbidden',
      key: 'users.ownRoles',
    });
    // The same roles in another order are no change.
    await service.updateUser(2, edit({ role_ids: [2, 2] }), caller(2, false), 'en_us');
    await service.updateUser(2, edit({ role_ids: [2, 1] }), caller(2, true), 'en_us');
    expect(saved).toHaveLength(2);
  });

  it('refuses an unknown role or group, and a user the grant rules refuse, before any write', async () => {
    const { service, saved, users } = fakeWorld();
    await expect(service.updateUser(2, edit({ role_ids: [7] }), caller(1), 'en_us')).rejects.toMatchObject({
      key: 'users.unknownRole',
    });
    await expect(service.updateUser(2, edit({ user_group_ids: [50] }), caller(1), 'en_us')).rejects.toMatchObject({
      key: 'users.unknownGroup',
    });
    await expect(service.removeUser(3, caller(2, false, true))).rejects.toMatchObject({ name: 'forbidden' });
    expect(saved).toEqual([]);
    expect(users.size).toBe(3);
  });

  it('ends the sessions of a user who is disabled', async () => {
    const { service, ended } = fakeWorld();
    const done = await service.updateUser(3, edit({ enable: false }), caller(1), 'en_us');
    expect(done).toEqual({ userName: 'bob', passwordReset: false });
    expect(ended).toEqual([[3, 'disabled']]);
  });
});

describe('users service: the block list', () => {
  it('never blocks the caller, and blocks others for the given days with their sessions ended', async () => {
    const { service, blocks, ended } = fakeWorld();
    await expect(service.block({ user_ids: [3, 2], days: 1, reason: 'x' }, caller(2))).rejects.toMatchObject({
      key: 'users.cannotBlockSelf',
    });
    await expect(service.block({ user_ids: [3, 8], days: 1, reason: 'x' }, caller(1))).rejects.toMatchObject({
      key: 'users.unknownUser',
    });
    expect(blocks).toEqual([]);
    await service.block({ user_ids: [3, 3], days: 2, reason: 'x' }, caller(1));
    expect(blocks).toMatchObject([{ user_id: 3, expires_at: 1_000_000 + 2 * 86_400 }]);
    expect(ended).toContainEqual([3, 'disabled']);
  });
});
