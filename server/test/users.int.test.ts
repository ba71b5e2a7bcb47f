import { defaultLoginSafe } from '@sitewatch/contract/auth';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createFirstAdmin, encryptFor, loginHeader, postLogin, publicKeyOf } from './helpers/login.ts';

const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describeEachDatabase('users, roles, groups, security', (dialect) => {
  const t = useTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
  });
  let admin: Record<string, string> = {};
  let key = '';
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
    t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };

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
  });

  it('manages user groups as a tree, refusing cycles, duplicates and non-empty deletes', async () => {
    const parent = await ok(await call('POST', 'setting/user_groups', { name: 'Operations', parent_id: 0 }));
    const child = await ok(await call('POST', 'setting/user_groups', { name: 'Night shift', parent_id: parent.id }));
    expect((await call('POST', 'setting/user_groups', { name: 'Night shift', parent_id: parent.id })).statusCode).toBe(
      409,
    );
    expect(
      (await call('PUT', `setting/user_groups/${parent.id}`, { name: 'Operations', parent_id: child.id })).json().code,
    ).toBe(40000);
    expect((await call('POST', 'setting/user_groups', { name: '', parent_id: 0 })).statusCode).toBe(400);
    expect((await call('POST', 'setting/user_groups', { name: 'x', parent_id: 999 })).json().message).toBe(
      '上级用户组无效！',
    );
    expect((await call('DELETE', `setting/user_groups/${parent.id}`)).json().message).toBe(
      '该用户组下存在子用户组，不能删除！',
    );
    const list = await ok(await call('GET', 'setting/user_groups'));
    expect(list.data.map((g: { name: string }) => g.name)).toEqual(
      expect.arrayContaining(['default', 'Operations', 'Night shift']),
    );
  });

  it('validates users per 002 §5.1 and changes nothing on bad input', async () => {
    const base = {
      user_name: 'op1',
      password: encryptFor(key, 'Op-Strong-Pass-1'),
      role_ids: [1],
      user_group_ids: [1],
    };
    const before = await snapshotDigest(t.database.db);
    for (const bad of [
      { ...base, role_ids: [] },
      { ...base, user_group_ids: [] },
      { ...base, email: 'not-an-email' },
      { ...base, email: 'a@b.toolong' },
      { ...base, phone: '12345' },
      { ...base, user_name: '' },
      { ...base, user_name: 'x'.repeat(65) },
      { ...base, role_ids: [999] },
      { ...base, password: encryptFor(key, 'abc12') },
      { ...base, password: 'garbage' },
    ]) {
      const res = await call('POST', 'setting/users', bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);
    expect((await call('POST', 'setting/users', { ...base, password: encryptFor(key, 'abc12') })).json().message).toBe(
      '密码长度不能少于6位！',
    );
    const created = await ok(
      await call('POST', 'setting/users', { ...base, email: 'op1@example.com', phone: '13800138000' }),
    );
    expect((await call('POST', 'setting/users', base)).json()).toMatchObject({
      code: 40900,
      message: '用户名已存在！',
    });
    const user = await ok(await call('GET', `setting/users/${created.id}`));
    expect(user).toMatchObject({
      user_name: 'op1',
      email: 'op1@example.com',
      role_ids: [1],
      user_group_ids: [1],
      enable: true,
    });
    // A user given a password by an administrator changes it at first login.
    expect((await postLogin(t.app, 'op1', 'Op-Strong-Pass-1')).json().data.change_pwd_scene).toBe(3);
  });

  it('never deletes or disables user 1, nor lets one delete oneself', async () => {
    expect((await call('DELETE', 'setting/users/1')).json().message).toBe('系统管理员账号不能删除或禁用！');
    expect(
      (await call('PUT', 'setting/users/1', { enable: false, role_ids: [1], user_group_ids: [1] })).json().code,
    ).toBe(40000);
    expect(
      (await call('PUT', 'setting/roles/1', { name: 'x', menu_ids: [221], site_ids: [1], function_ids: [1] })).json()
        .message,
    ).toBe('管理员权限组不能修改或删除！');
  });

  describe('permission matrix', () => {
    let viewer: Record<string, string> = {};
    beforeAll(async () => {
      const fn = (await ok(await call('GET', 'setting/func'))).list.find(
        (f: { menu_id: number; code: string }) => f.menu_id === 222 && f.code === 'add',
      );
      const role = await ok(
        await call('POST', 'setting/roles', {
          name: 'group keepers',
          site_ids: [1],
          menu_ids: [222],
          function_ids: [fn.id],
        }),
      );
      const user = await ok(
        await call('POST', 'setting/users', {
          user_name: 'keeper',
          password: encryptFor(key, 'Keeper-Pass-77'),
          role_ids: [role.id],
          user_group_ids: [1],
        }),
      );
      expect(user.id).toBeGreaterThan(1);
      const first = await postLogin(t.app, 'keeper', 'Keeper-Pass-77');
      expect(first.json().data.access_token).toBe('');
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/user/password_without_login',
        payload: {
          user_name: 'keeper',
          old_password: encryptFor(key, 'Keeper-Pass-77'),
          new_password: encryptFor(key, 'Keeper-Pass-88'),
        },
      });
      viewer = await loginHeader(t.app, 'keeper', 'Keeper-Pass-88');
    });

    it.each([
      ['GET', 'setting/users', 403],
      ['POST', 'setting/users', 403],
      ['DELETE', 'setting/users/2', 403],
      ['GET', 'setting/roles', 403],
      ['POST', 'setting/roles', 403],
      ['GET', 'setting/menus', 403],
      ['GET', 'operation_record', 403],
      ['GET', 'setting/account_blocks', 403],
      ['POST', 'setting/gc', 403],
      ['PUT', 'setting/user_groups/2', 403],
      ['DELETE', 'setting/user_groups/2', 403],
      ['GET', 'setting/user_groups/1', 200],
      ['GET', 'user/roles?user_id=1', 403],
    ] as const)('%s %s → %i for a user granted only adding user groups', async (method, url, status) => {
      const res = await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {}, viewer);
      expect(res.statusCode).toBe(status);
    });

    it('lets the granted function through and shows only granted menus', async () => {
      expect((await call('POST', 'setting/user_groups', { name: 'By keeper', parent_id: 0 }, viewer)).json().code).toBe(
        0,
      );
      const menus = await ok(await call('GET', 'menus', undefined, viewer));
      // Configuration › Personnel › User groups, and nothing else.
      expect(menus.list).toHaveLength(1);
      const personnel = menus.list[0].children;
      expect(personnel).toHaveLength(1);
      expect(personnel[0].children.map((c: { url: string }) => c.url)).toEqual(['/setting_user_groups']);
      expect(personnel[0].children[0].functions).toEqual(['add']);
    });
  });

  describe('login restrictions and the block list', () => {
    const setLoginSafe = (
      patch: Record<string, unknown>,
      headers: Record<string, string> = { ...admin, 'user-agent': chrome },
    ) =>
      call(
        'POST',
        'setting/gc',
        { k: 'LOGIN_SAFE', v: { ...defaultLoginSafe, captcha_enabled: false, ...patch } },
        headers,
      );

    it('refuses a change that would lock out the administrator who makes it', async () => {
      const ip = await setLoginSafe({ allowed_ips: ['10.0.0.0/8'] });
      expect(ip.json()).toMatchObject({ code: 40000, message: '该设置会使您自己无法登录：您当前的IP不在允许列表中' });
      const browser = await setLoginSafe({ allowed_browsers: ['firefox'] });
      expect(browser.json().message).toContain('浏览器');
      const list = await setLoginSafe({ allow_list: { enabled: true, user_ids: [2] } });
      expect(list.json().message).toContain('允许名单');
      expect((await setLoginSafe({ allowed_ips: [] })).statusCode).toBe(400);
      expect((await setLoginSafe({ allowed_ips: ['not-an-ip'] })).statusCode).toBe(400);
    });

    it('refuses logins from other browsers, addresses and accounts not on the allow list', async () => {
      expect(
        (await setLoginSafe({ allowed_browsers: ['chrome'], allowed_ips: ['127.0.0.1', '::1/128'] })).json().code,
      ).toBe(0);
      const fromFirefox = await postLogin(t.app, 'keeper', 'Keeper-Pass-88', {}, { 'user-agent': firefox });
      expect(fromFirefox.json()).toMatchObject({ code: 40303, message: '当前浏览器不允许登录，请使用允许的浏览器！' });
      expect((await postLogin(t.app, 'keeper', 'Keeper-Pass-88', {}, { 'user-agent': chrome })).json().code).toBe(0);
      const remote = await t.app.inject({
        method: 'POST',
        url: '/api/v1/pub/login/safe',
        remoteAddress: '192.0.2.7',
        headers: { 'user-agent': chrome },
        payload: { user_name: encryptFor(key, 'keeper'), password: encryptFor(key, 'Keeper-Pass-88') },
      });
      expect(remote.json()).toMatchObject({ code: 40303, message: '当前终端IP不允许登录！' });
      expect((await setLoginSafe({ allow_list: { enabled: true, user_ids: [1] } })).json().code).toBe(0);
      expect((await postLogin(t.app, 'keeper', 'Keeper-Pass-88', {}, { 'user-agent': chrome })).json().message).toBe(
        '该账号不在允许登录名单中！',
      );
      expect((await setLoginSafe({})).json().code).toBe(0);
    });

    it('blocks accounts (never oneself) and ends their sessions', async () => {
      const keeperSession = await loginHeader(t.app, 'keeper', 'Keeper-Pass-88');
      const users = await ok(await call('GET', 'setting/users?name=keeper'));
      const keeperId = users.data[0].id;
      expect(
        (await call('POST', 'setting/account_blocks', { user_ids: [1], reason: 'x', days: 1 })).json().message,
      ).toBe('不能拉黑当前登录用户！');
      expect(
        (await call('POST', 'setting/account_blocks', { user_ids: [keeperId], reason: '', days: 1 })).statusCode,
      ).toBe(400);
      expect(
        (
          await call('POST', 'setting/account_blocks', { user_ids: [keeperId], reason: 'left the company', days: null })
        ).json().code,
      ).toBe(0);
      expect((await call('GET', 'user/current', undefined, keeperSession)).statusCode).toBe(401);
      expect((await postLogin(t.app, 'keeper', 'Keeper-Pass-88')).json().message).toBe(
        '账号已被拉黑：left the company',
      );
      const blocks = await ok(await call('GET', 'setting/account_blocks'));
      expect(blocks.data[0]).toMatchObject({ user_name: 'keeper', expires_at: null });
      expect((await call('DELETE', `setting/account_blocks/${blocks.data[0].id}`)).json().code).toBe(0);
      expect((await postLogin(t.app, 'keeper', 'Keeper-Pass-88')).json().code).toBe(0);
    });
  });

  it('takes the personnel pages away from login type 2 users, whatever their roles (000 §4.4, §6)', async () => {
    const created = await ok(
      await call('POST', 'setting/users', {
        user_name: 'ldapish',
        password: encryptFor(key, 'Ldapish-Pass-1'),
        role_ids: [1],
        user_group_ids: [1],
      }),
    );
    // Signed in while still local; then the account becomes a directory one.
    await t.database.db.kysely
      .updateTable('users')
      .set({ must_change_password: 0 })
      .where('id', '=', created.id)
      .execute();
    const header = await loginHeader(t.app, 'ldapish', 'Ldapish-Pass-1');
    await t.database.db.kysely.updateTable('users').set({ login_type: 2 }).where('id', '=', created.id).execute();
    const menus = await ok(await call('GET', 'menus', undefined, header));
    const urls = JSON.stringify(menus.list);
    expect(urls).not.toContain('/setting_users');
    expect(urls).not.toContain('/authority_groups');
    expect(urls).toContain('/setting_security');
    expect((await call('GET', 'setting/users', undefined, header)).statusCode).toBe(403);
    expect((await call('GET', 'operation_record', undefined, header)).statusCode).toBe(200);
    // A directory account never logs in, nor gets a password, locally.
    const reset = await call('PUT', `setting/users/${created.id}`, {
      role_ids: [1],
      user_group_ids: [1],
      password: encryptFor(key, 'Local-Pass-123'),
    });
    expect(reset.json().message).toBe('LDAP 账号的密码由目录服务管理，不能在此设置！');
    expect((await postLogin(t.app, 'ldapish', 'Ldapish-Pass-1')).json().code).toBe(40100);
  });

  it('lists and exports the operation log, and clears it only with the verification password', async () => {
    const log = await ok(await call('GET', 'operation_record?limit=5&module=users'));
    expect(log.total).toBeGreaterThan(1);
    expect(log.data[0]).toMatchObject({ module: 'users', user_name: 'admin', result: 1 });
    const xlsx = await t.app.inject({
      method: 'GET',
      url: '/api/v1/operation_record/export?module=auth',
      headers: admin,
    });
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // One module by name is asked for with all its codes; the export names modules in the caller's language.
    const named = await ok(await call('GET', 'operation_record?limit=100&module=users,setting/users'));
    expect(named.total).toBe(log.total);
    const english = await t.app.inject({
      method: 'GET',
      url: '/api/v1/operation_record/export?module=users',
      headers: { ...admin, 'accept-language': 'en_us' },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(english.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(4).value).toBe('Module');
    expect([sheet.getRow(2).getCell(4).value, sheet.getRow(2).getCell(5).value]).toEqual([
      'Users',
      expect.stringMatching(/^(Create|Update|Delete)$/),
    ]);
    const wrong = await call('DELETE', 'operation_record', { verify_password: encryptFor(key, 'nope') });
    expect(wrong.json()).toMatchObject({ code: 40000, message: '密码错误，请重新输入！' });
    expect((await call('DELETE', 'operation_record', {})).statusCode).toBe(400);
    expect((await ok(await call('GET', 'operation_record'))).total).toBeGreaterThan(0);
    await ok(await call('DELETE', 'operation_record', { verify_password: encryptFor(key, 'Admin-Strong-91') }));
    const after = await ok(await call('GET', 'operation_record'));
    expect(after.data.map((r: { action: string }) => r.action)).toEqual(['clear']);
  });

  it("limits contacts and contact-group members to the contact grants of the caller's roles", async () => {
    const contact = async (name: string) => (await ok(await call('POST', 'setting/contacts', { name }))).id as number;
    const [granted, hidden] = [await contact('Granted Gao'), await contact('Hidden He')];
    const funcs = (await ok(await call('GET', 'setting/func'))).list.filter((f: { menu_id: number }) =>
      [225, 226].includes(f.menu_id),
    );
    const roleBody = (contact_ids: number[]) => ({
      name: 'contact keepers',
      site_ids: [1],
      menu_ids: [225, 226],
      function_ids: funcs.map((f: { id: number }) => f.id),
      contact_ids,
    });
    expect((await call('POST', 'setting/roles', roleBody([granted, 999_999]))).json().code).not.toBe(0);
    const role = await ok(await call('POST', 'setting/roles', roleBody([granted])));
    expect((await ok(await call('GET', `setting/roles/${role.id}`))).contact_ids).toEqual([granted]);
    const offered = (await ok(await call('GET', 'setting/roles_contacts'))).list.map((c: { id: number }) => c.id);
    expect(offered).toEqual(expect.arrayContaining([granted, hidden]));
    await ok(
      await call('POST', 'setting/users', {
        user_name: 'contactkeeper',
        password: encryptFor(key, 'Contact-Pass-77'),
        role_ids: [role.id],
        user_group_ids: [1],
      }),
    );
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/password_without_login',
      payload: {
        user_name: 'contactkeeper',
        old_password: encryptFor(key, 'Contact-Pass-77'),
        new_password: encryptFor(key, 'Contact-Pass-88'),
      },
    });
    const keeper = await loginHeader(t.app, 'contactkeeper', 'Contact-Pass-88');
    const listed = async () =>
      (await ok(await call('GET', 'setting/contacts?page=1&limit=100', undefined, keeper))).data.map(
        (c: { id: number }) => c.id,
      );
    expect(await listed()).toEqual([granted]);
    expect((await call('GET', `setting/contacts/${hidden}`, undefined, keeper)).statusCode).toBe(404);
    expect((await call('PUT', `setting/contacts/${hidden}`, { name: 'x' }, keeper)).statusCode).toBe(404);
    expect((await call('DELETE', `setting/contacts/${hidden}`, undefined, keeper)).statusCode).toBe(404);
    // A contact the keeper adds is granted to their role, so it stays in their list.
    const own = (await ok(await call('POST', 'setting/contacts', { name: 'Own Ou' }, keeper))).id;
    expect(await listed()).toEqual([granted, own]);
    // Group members: an ungranted contact cannot be added; one already there survives the keeper's save.
    const group = await ok(
      await call('POST', 'setting/contact_groups', { name: 'mixed', contact_ids: [granted, hidden] }),
    );
    expect((await ok(await call('GET', `setting/contact_groups/${group.id}`, undefined, keeper))).contact_ids).toEqual([
      granted,
    ]);
    const refused = await call(
      'PUT',
      `setting/contact_groups/${group.id}`,
      { name: 'mixed', contact_ids: [hidden] },
      keeper,
    );
    expect(refused.statusCode).toBe(400);
    await ok(await call('PUT', `setting/contact_groups/${group.id}`, { name: 'mixed', contact_ids: [own] }, keeper));
    expect((await ok(await call('GET', `setting/contact_groups/${group.id}`))).contact_ids).toEqual([own, hidden]);
    expect((await call('GET', 'setting/roles_contacts', undefined, keeper)).statusCode).toBe(403);
  });
});
