import { defaultLoginSafe } from '@sitewatch/contract/auth';
import { defaultLdapConfig } from '@sitewatch/contract/ldap';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createFirstAdmin, createUser, encryptFor, loginHeader, postLogin, publicKeyOf } from './helpers/login.ts';

const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };

/**
 * No escalation (issue 11, finding 2): a one-site user manager (users add/edit, roles add/edit, the
 * block list) tries the probe's six escalations through the API; each is refused with 403 and
 * nothing changed. They can still grant what they hold, and an administrator can do all six.
 */
describeEachDatabase('a user grants only what they hold', (dialect) => {
  const t = useTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
  });
  const k = () => t.database.db.kysely;
  let key = '';
  let admin: Record<string, string> = {};
  let manager: Record<string, string> = {};
  const at = { a: 0, b: 0, managerRole: 0, insideRole: 0, wideRole: 0, manager: 0, wide: 0, admin2: 0 };
  const fn = new Map<string, number>();

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    body?: object,
  ) => t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(body ? { payload: body } : {}) });
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const role = (name: string, site_ids: number[], functions: string[], extra: object = {}) => ({
    name,
    site_ids,
    menu_ids: [...new Set(functions.map((f) => Number(f.split(':')[0])))],
    function_ids: functions.map((f) => fn.get(f) as number),
    ...extra,
  });
  const managerGrants = ['221:add', '221:edit', '223:add', '223:edit', '401:block'];

  beforeAll(async () => {
    const first = await createFirstAdmin(t.database.db);
    key = await publicKeyOf(t.app);
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/password_without_login',
      payload: {
        user_name: 'admin',
        old_password: encryptFor(key, first),
        new_password: encryptFor(key, 'Admin-Strong-91'),
      },
    });
    admin = await loginHeader(t.app, 'admin', 'Admin-Strong-91');
    for (const f of (await ok(await call('GET', 'setting/func', admin))).list) fn.set(`${f.menu_id}:${f.code}`, f.id);
    at.a = (await ok(await call('POST', 'setting/device_groups', admin, { name: 'Site A', weight: 2 }))).id;
    at.b = (await ok(await call('POST', 'setting/device_groups', admin, { name: 'Site B', weight: 1 }))).id;
    at.managerRole = (
      await ok(await call('POST', 'setting/roles', admin, role('user managers', [at.a], managerGrants)))
    ).id;
    at.insideRole = (
      await ok(await call('POST', 'setting/roles', admin, role('site A clerks', [at.a], ['221:add'])))
    ).id;
    at.wideRole = (
      await ok(await call('POST', 'setting/roles', admin, role('all sites', [at.a, at.b], ['221:add'])))
    ).id;
    at.manager = await createUser(t.database.db, 'manager', 'Manager-Pass-1', [at.managerRole]);
    at.wide = await createUser(t.database.db, 'wide', 'Wide-Pass-1', [at.wideRole]);
    at.admin2 = await createUser(t.database.db, 'admin2', 'Admin2-Pass-1', [1]);
    for (const id of [at.manager, at.wide, at.admin2])
      await k().insertInto('user_user_groups').values({ user_id: id, group_id: 1 }).execute();
    manager = await loginHeader(t.app, 'manager', 'Manager-Pass-1');
  });

  /** Sends the request as the manager and expects 403 with `message` and no row changed. */
  const refused = async (
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    body: object | undefined,
    message: string,
    as = manager,
  ) => {
    const before = await snapshotDigest(t.database.db);
    const res = await call(method, url, as, body);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe(message);
    expect(await snapshotDigest(t.database.db)).toBe(before);
  };
  const adminOnly = '只有管理员才能授予管理员权限组，或修改、拉黑、删除管理员账号！';

  describe("the probe's six escalations, each refused with nothing changed", () => {
    it('1. creates a user with role 1 (or with a role wider than their own)', async () => {
      const user = (role_ids: number[]) => ({
        user_name: 'mole',
        password: encryptFor(key, 'Mole-Pass-123'),
        role_ids,
        user_group_ids: [1],
      });
      await refused('POST', 'setting/users', user([1]), adminOnly);
      await refused('POST', 'setting/users', user([at.insideRole, 1]), adminOnly);
      await refused(
        'POST',
        'setting/users',
        user([at.wideRole]),
        '该权限组超出您自己的权限范围，不能分配、修改或删除！',
      );
    });

    it('2. creates a role over all sites (or with pages, functions or contacts they lack)', async () => {
      const notHeld = '不能授予您自己没有的权限！';
      await refused('POST', 'setting/roles', role('all of it', [at.a, at.b], ['221:add']), notHeld);
      await refused('POST', 'setting/roles', role('devices', [at.a], ['212:add']), notHeld);
      await refused('POST', 'setting/roles', role('deleters', [at.a], ['221:delete']), notHeld);
      const contact = (await ok(await call('POST', 'setting/contacts', admin, { name: 'Not Granted' }))).id;
      await refused(
        'POST',
        'setting/roles',
        role('contacts', [at.a], ['221:add'], { contact_ids: [contact] }),
        notHeld,
      );
      await refused('POST', 'setting/roles', role('videos', [at.a], ['221:add'], { video_ids: [7] }), notHeld);
    });

    it("3. blocks user 1 (the administrator's session goes on), or another wider account", async () => {
      await refused('POST', 'setting/account_blocks', { user_ids: [1], reason: 'x', days: 1 }, adminOnly);
      await refused('POST', 'setting/account_blocks', { user_ids: [at.admin2], reason: 'x', days: 1 }, adminOnly);
      await refused(
        'POST',
        'setting/account_blocks',
        { user_ids: [at.wide], reason: 'x', days: null },
        '该用户的权限超出您自己的权限范围，不能修改、拉黑或删除！',
      );
      expect((await call('GET', 'user/current', admin)).statusCode).toBe(200);
    });

    it("4. resets user 1's password (and cannot sign in with it), edits, disables or unlocks user 1", async () => {
      const edit = { role_ids: [1], user_group_ids: [1] };
      await refused('PUT', 'setting/users/1', { ...edit, password: encryptFor(key, 'Taken-Over-1') }, adminOnly);
      await refused('PUT', 'setting/users/1', { ...edit, alias: 'pwned', email: 'me@evil.org' }, adminOnly);
      await refused('PUT', 'setting/users/1', { ...edit, enable: false }, adminOnly);
      await refused('PUT', 'setting/users/1', { ...edit, unlock: true }, adminOnly);
      await refused(
        'PUT',
        `setting/users/${at.admin2}`,
        { ...edit, password: encryptFor(key, 'Taken-Over-1') },
        adminOnly,
      );
      await refused(
        'PUT',
        `setting/users/${at.wide}`,
        { role_ids: [at.wideRole], user_group_ids: [1], password: encryptFor(key, 'Taken-Over-1') },
        '该用户的权限超出您自己的权限范围，不能修改、拉黑或删除！',
      );
      expect((await postLogin(t.app, 'admin', 'Taken-Over-1')).json().code).not.toBe(0);
      expect((await postLogin(t.app, 'admin', 'Admin-Strong-91')).json().code).toBe(0);
    });

    it('5. adds role 1 (or any other role) to themself', async () => {
      const self = (role_ids: number[]) => ({ role_ids, user_group_ids: [1] });
      await refused('PUT', `setting/users/${at.manager}`, self([at.managerRole, 1]), '不能修改自己的权限组！');
      await refused(
        'PUT',
        `setting/users/${at.manager}`,
        self([at.managerRole, at.insideRole]),
        '不能修改自己的权限组！',
      );
    });

    it('6. widens their own role (or edits a wider one, or role 1)', async () => {
      const ownRole = '不能修改或删除自己所属的权限组！';
      const wider = role('user managers', [at.a, at.b], managerGrants);
      await refused('PUT', `setting/roles/${at.managerRole}`, wider, ownRole);
      await refused('PUT', `setting/roles/${at.managerRole}`, role('user managers', [at.a], managerGrants), ownRole);
      await refused(
        'PUT',
        `setting/roles/${at.wideRole}`,
        role('all sites', [at.a], ['221:add']),
        '该权限组超出您自己的权限范围，不能分配、修改或删除！',
      );
      const fixed = await call('PUT', 'setting/roles/1', manager, role('x', [at.a], ['221:add']));
      expect(fixed.statusCode).toBeGreaterThanOrEqual(400);
      expect(fixed.statusCode).toBeLessThan(500);
    });

    it('refuses lifting a block of a wider account', async () => {
      await ok(await call('POST', 'setting/account_blocks', admin, { user_ids: [at.wide], reason: 'away', days: 1 }));
      const block = (await ok(await call('GET', 'setting/account_blocks', admin))).data[0];
      await refused(
        'DELETE',
        `setting/account_blocks/${block.id}`,
        undefined,
        '该用户的权限超出您自己的权限范围，不能修改、拉黑或删除！',
      );
      await ok(await call('DELETE', `setting/account_blocks/${block.id}`, admin));
    });
  });

  describe('LDAP gives only roles the editor may give', () => {
    let keeper: Record<string, string> = {};
    const settings = (default_role_ids: number[]) => ({
      ...defaultLdapConfig,
      enabled: true,
      url: 'ldap://127.0.0.1:9',
      base_dn: 'dc=sitewatch,dc=test',
      default_role_ids,
      default_user_group_id: 1,
    });
    it('refuses role 1 or a wider role as the default or imported roles of a one-site LDAP editor', async () => {
      const keeperRole = await ok(
        await call(
          'POST',
          'setting/roles',
          admin,
          role('directory keepers', [at.a], ['224:view', '224:edit', '224:import']),
        ),
      );
      await createUser(t.database.db, 'keeper', 'Keeper-Pass-1', [keeperRole.id]);
      keeper = await loginHeader(t.app, 'keeper', 'Keeper-Pass-1');
      await refused('PUT', 'setting/ldap', settings([1]), adminOnly, keeper);
      await refused(
        'PUT',
        'setting/ldap',
        settings([at.insideRole]),
        '该权限组超出您自己的权限范围，不能分配、修改或删除！',
        keeper,
      );
      await refused('POST', 'setting/ldap/import', { user_names: ['someone'], role_ids: [1] }, adminOnly, keeper);
      // Defaults an administrator set do not pass through a restricted importer either.
      await ok(await call('PUT', 'setting/ldap', admin, settings([1])));
      await refused('POST', 'setting/ldap/import', { user_names: ['someone'] }, adminOnly, keeper);
      const inside = await ok(
        await call('POST', 'setting/roles', admin, role('directory viewers', [at.a], ['224:view'])),
      );
      await ok(await call('PUT', 'setting/ldap', keeper, settings([inside.id])));
    });
  });

  describe('what the manager may still do', () => {
    it('offers only their own pages and functions in the grant forms', async () => {
      const catalogue = await ok(await call('GET', 'setting/menus', manager));
      const pages: Array<{ url: string; functions: Array<{ code: string }> }> = [];
      const walk = (list: typeof catalogue.list) => {
        for (const menu of list) {
          if (menu.url) pages.push(menu);
          walk(menu.children);
        }
      };
      walk(catalogue.list);
      expect(pages.map((p) => [p.url, p.functions.map((f) => f.code)]).sort()).toEqual([
        ['/authority_groups', ['add', 'edit']],
        ['/setting_security', ['block']],
        ['/setting_users', ['add', 'edit']],
      ]);
      const functions = (await ok(await call('GET', 'setting/func', manager))).list.map((f: { id: number }) => f.id);
      expect(functions.sort()).toEqual(managerGrants.map((g) => fn.get(g)).sort());
      // The site tree of the form is the manager's own sites.
      const sites = await ok(await call('GET', 'device_groups/menu', manager));
      expect(JSON.stringify(sites)).not.toContain('Site B');
    });

    it('creates a role inside their grants, gives it to a new user, and manages that user', async () => {
      const created = await ok(
        await call('POST', 'setting/roles', manager, {
          ...role('clerks', [at.a], ['221:add', '223:add']),
          // Menu groups above granted pages come with them, as the web form sends them.
          menu_ids: [
            ...(await k().selectFrom('menus').select('parent_id').where('id', 'in', [221, 223]).execute()).map(
              (m) => m.parent_id,
            ),
            221,
            223,
          ],
        }),
      );
      await ok(await call('PUT', `setting/roles/${created.id}`, manager, role('clerks', [at.a], ['221:add'])));
      const user = await ok(
        await call('POST', 'setting/users', manager, {
          user_name: 'clerk',
          password: encryptFor(key, 'Clerk-Pass-123'),
          role_ids: [created.id, at.insideRole],
          user_group_ids: [1],
        }),
      );
      await ok(
        await call('PUT', `setting/users/${user.id}`, manager, {
          role_ids: [at.insideRole],
          user_group_ids: [1],
          password: encryptFor(key, 'Clerk-Pass-456'),
        }),
      );
      await ok(await call('POST', 'setting/account_blocks', manager, { user_ids: [user.id], reason: 'x', days: 1 }));
      // Their own name and contact details, with their roles as they are.
      await ok(
        await call('PUT', `setting/users/${at.manager}`, manager, {
          alias: 'The Manager',
          role_ids: [at.managerRole],
          user_group_ids: [1],
        }),
      );
    });
  });

  describe('an administrator may do all six', () => {
    let admin2: Record<string, string> = {};
    it('creates a user with role 1 and a role over all sites', async () => {
      await ok(
        await call('POST', 'setting/users', admin, {
          user_name: 'admin3',
          password: encryptFor(key, 'Admin3-Pass-123'),
          role_ids: [1],
          user_group_ids: [1],
        }),
      );
      await ok(await call('POST', 'setting/roles', admin, role('everything', [at.a, at.b], ['221:add', '212:add'])));
      admin2 = await loginHeader(t.app, 'admin2', 'Admin2-Pass-1');
    });

    it('changes their own roles and a role they hold', async () => {
      await ok(
        await call('PUT', `setting/users/${at.admin2}`, admin2, { role_ids: [1, at.wideRole], user_group_ids: [1] }),
      );
      await ok(await call('PUT', `setting/roles/${at.wideRole}`, admin2, role('all sites', [at.a, at.b], ['212:add'])));
    });

    it("blocks user 1, ending the administrator's session, and lifts the block", async () => {
      await ok(await call('POST', 'setting/account_blocks', admin2, { user_ids: [1], reason: 'audit', days: 1 }));
      expect((await call('GET', 'user/current', admin)).statusCode).toBe(401);
      const block = (await ok(await call('GET', 'setting/account_blocks', admin2))).data.find(
        (b: { user_id: number }) => b.user_id === 1,
      );
      await ok(await call('DELETE', `setting/account_blocks/${block.id}`, admin2));
    });

    it("resets user 1's password, which then signs in", async () => {
      await ok(
        await call('PUT', 'setting/users/1', admin2, {
          role_ids: [1],
          user_group_ids: [1],
          password: encryptFor(key, 'Reset-By-Admin2'),
        }),
      );
      const login = (await postLogin(t.app, 'admin', 'Reset-By-Admin2')).json();
      expect(login.code).toBe(0);
      // A password set by someone else is changed at the next login.
      expect(login.data.change_pwd_scene).toBe(3);
    });
  });
});
