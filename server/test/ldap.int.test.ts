import { type AddressInfo, createServer } from 'node:net';
import { defaultLoginSafe, type LoginSafeConfig } from '@sitewatch/contract/auth';
import { defaultLdapConfig, type LdapSettingsInput } from '@sitewatch/contract/ldap';
import { encodeOperationLogDetail } from '@sitewatch/contract/operation-log';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser, encryptFor, loginHeader, postLogin, publicKeyOf } from './helpers/login.ts';
import { type Slapd, startSlapd } from './helpers/slapd.ts';

// The directory runs on loopback, which the outbound policy refuses unless allowed (docs/security.md).
const testConfig = {
  ...builtInDefaults,
  LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false },
  OUTBOUND: { allow: ['127.0.0.0/8', '::1'], deny: [] },
};
const adminPassword = 'Quartz-Lantern-42';

/** The directory: alice and bob to import, carol never imported, dave also a local account, two eves. */
const directoryUsers = [
  {
    uid: 'alice',
    password: 'Alice-Dir-Pass-1',
    cn: 'Alice Liddell',
    mail: 'alice@example.test',
    telephoneNumber: '13800000001',
  },
  { uid: 'bob', password: 'Bob-Dir-Pass-2', cn: 'Bob Builder', mail: 'bob@example.test' },
  { uid: 'carol', password: 'Carol-Dir-Pass-3', cn: 'Carol Danvers' },
  { uid: 'dave', password: 'Dave-Dir-Pass-4', cn: 'Dave Local' },
  { uid: 'eve', password: 'Eve-Dir-Pass-5', cn: 'Eve One' },
  { uid: 'eve', password: 'Eve-Dir-Pass-6', cn: 'Eve Two', ou: 'contractors' },
  { uid: 'frank', password: 'Frank-Dir-Pass-7', cn: 'Frank Auto' },
];

let slapd: Slapd;
beforeAll(async () => {
  slapd = await startSlapd({ users: directoryUsers, tls: true });
});
afterAll(async () => {
  await slapd?.stop();
});

const postLdapLogin = async (app: FastifyInstance, userName: string, password: string, extra = {}) => {
  const key = await publicKeyOf(app);
  return app.inject({
    method: 'POST',
    url: '/api/v1/pub/login/ldap',
    payload: { user_name: encryptFor(key, userName), password: encryptFor(key, password), ...extra },
  });
};

describeEachDatabase('LDAP settings, directory users, import and login', (dialect) => {
  // The brute-force test stops the clock: its delays are counted in whole seconds, and a slow
  // machine could otherwise cross a second between two guesses and see the delay already over.
  let stoppedAt: number | null = null;
  const t = useTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: testConfig,
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
    clock: () => stoppedAt ?? Date.now(),
  });
  let admin: Record<string, string> = {};
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = admin) =>
    t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { ...headers, 'accept-language': 'en_us' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const settings = (patch: Partial<LdapSettingsInput> = {}): LdapSettingsInput => {
    const { bind_password: _kept, ...defaults } = defaultLdapConfig;
    return {
      ...defaults,
      enabled: true,
      url: slapd.url,
      bind_dn: slapd.rootDn,
      bind_password: slapd.rootPassword,
      base_dn: slapd.suffix,
      default_role_ids: [roleId],
      default_user_group_id: 1,
      timeout_seconds: 3,
      ...patch,
    };
  };
  const saveSettings = async (patch: Partial<LdapSettingsInput> = {}) => {
    const res = await call('PUT', 'setting/ldap', settings(patch));
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const setLoginSafe = async (patch: Partial<LoginSafeConfig>) => {
    const res = await call('POST', 'setting/gc', { k: 'LOGIN_SAFE', v: { ...testConfig.LOGIN_SAFE, ...patch } });
    expect(res.json(), res.body).toMatchObject({ code: 0 });
  };
  const userRow = (name: string) =>
    t.database.db.kysely.selectFrom('users').selectAll().where('user_name', '=', name).executeTakeFirst();
  let roleId = 0;

  beforeAll(async () => {
    await createUser(t.database.db, 'admin', adminPassword, [1]);
    admin = await loginHeader(t.app, 'admin', adminPassword);
    roleId = (
      await t.database.db.kysely
        .insertInto('roles')
        .values({ name: 'operators', remark: '', created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  it('starts disabled with the defaults, and refuses LDAP login while disabled', async () => {
    const res = await call('GET', 'setting/ldap');
    expect(res.json().data).toMatchObject({
      enabled: false,
      user_filter: '(uid={{username}})',
      bind_password_set: false,
      tls_reject_unauthorized: true,
    });
    expect(res.json().data).not.toHaveProperty('bind_password');
    const login = await postLdapLogin(t.app, 'alice', 'Alice-Dir-Pass-1');
    expect(login.statusCode).toBe(400);
    expect(login.json()).toMatchObject({ code: 40000, message: 'LDAP未启用！' });
    const params = await t.app.inject({ method: 'GET', url: '/api/v1/pub/login/params' });
    expect(params.json().data.ldap_enabled).toBe(false);
  });

  it('refuses invalid settings with field errors and stores nothing', async () => {
    const before = await snapshotDigest(t.database.db);
    const cases: Array<[Partial<LdapSettingsInput> | Record<string, unknown>, string]> = [
      [{ url: 'http://127.0.0.1:389' }, 'body.url'],
      [{ url: 'ldap://127.0.0.1:70000' }, 'body.url'],
      [{ url: '' }, 'body.url'],
      [{ base_dn: '' }, 'body.base_dn'],
      [{ user_filter: 'uid={{username}}' }, 'body.user_filter'],
      [{ user_filter: '(uid=someone)' }, 'body.user_filter'],
      [{ user_filter: '(&(uid={{username}})' }, 'body.user_filter'],
      [{ url: slapd.ldapsUrl ?? '', start_tls: true }, 'body.start_tls'],
      [{ bind_password: '' }, 'body.bind_password'],
      [{ attr_email: 'mail address' }, 'body.attr_email'],
      [{ default_role_ids: [999] }, 'body.default_role_ids'],
      [{ default_user_group_id: 999 }, 'body.default_user_group_id'],
      [{ auto_create: true, default_role_ids: [] }, 'body.default_role_ids'],
      [{ timeout_seconds: 0 }, 'body.timeout_seconds'],
    ];
    for (const [patch, path] of cases) {
      const res = await call('PUT', 'setting/ldap', settings(patch as Partial<LdapSettingsInput>));
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(
        res.json().data.fields.map((f: { path: string }) => f.path),
        JSON.stringify(patch),
      ).toContain(path);
    }
    const { user_filter: _omitted, ...missing } = settings();
    const res = await call('PUT', 'setting/ldap', missing);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields[0].path).toBe('body.user_filter');
    expect(await snapshotDigest(t.database.db)).toBe(before);
    expect((await call('GET', 'setting/ldap')).json().data.enabled).toBe(false);
  });

  it('keeps the bind password without ever answering it, and logs the change without it', async () => {
    const saved = await saveSettings();
    expect(saved).toMatchObject({ enabled: true, bind_password_set: true, base_dn: slapd.suffix });
    // The login page learns that LDAP accounts may log in.
    const params = await t.app.inject({ method: 'GET', url: '/api/v1/pub/login/params' });
    expect(params.json().data.ldap_enabled).toBe(true);
    const read = await call('GET', 'setting/ldap');
    expect(read.json().data.bind_password_set).toBe(true);
    expect(read.body).not.toContain(slapd.rootPassword);
    expect(JSON.stringify(saved)).not.toContain(slapd.rootPassword);
    // Nor through the generic global config call.
    expect((await call('GET', 'setting/gc?k=LDAP')).statusCode).toBe(400);
    // Saving without a bind password keeps the kept one.
    const { bind_password: _omit, ...withoutPassword } = settings();
    expect((await call('PUT', 'setting/ldap', withoutPassword)).json()).toMatchObject({
      code: 0,
      data: { bind_password_set: true },
    });
    expect((await call('POST', 'setting/ldap/test', withoutPassword)).json()).toMatchObject({ code: 0 });
    const logs = await t.database.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('module', '=', 'ldap')
      .execute();
    expect(logs.length).toBeGreaterThanOrEqual(2);
    for (const log of logs) expect(log.detail).not.toContain(slapd.rootPassword);
    // Refused without a permission: 401 signed out, 403 for a user without the page.
    expect((await call('GET', 'setting/ldap', undefined, {})).statusCode).toBe(401);
  });

  it('tests a connection: binds and searches, and says which stage failed', async () => {
    const ok = await call('POST', 'setting/ldap/test', settings());
    expect(ok.json()).toMatchObject({ code: 0, message: 'Connection successful', data: { users_found: 7 } });
    expect(ok.json().data.sample).toContain('alice');
    const before = await snapshotDigest(t.database.db);
    const failing: Array<[Partial<LdapSettingsInput>, RegExp]> = [
      [{ bind_password: 'wrong' }, /^The bind account was not accepted: InvalidCredentialsError/],
      [{ url: 'ldap://127.0.0.1:1' }, /^Cannot connect to the LDAP server: .*ECONNREFUSED/],
      [{ base_dn: 'ou=nowhere,dc=sitewatch,dc=test' }, /^The base DN does not exist/],
      [{ url: slapd.ldapsUrl ?? '' }, /^The TLS connection failed: .*self-signed certificate/],
      [{ start_tls: true }, /^The TLS connection failed: .*self-signed certificate/],
    ];
    for (const [patch, message] of failing) {
      const res = await call('POST', 'setting/ldap/test', settings(patch));
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().message, JSON.stringify(patch)).toMatch(message);
    }
    // A test directory's own certificate is accepted when verification is off, over ldaps and StartTLS.
    for (const patch of [
      { url: slapd.ldapsUrl ?? '', tls_reject_unauthorized: false },
      { start_tls: true, tls_reject_unauthorized: false },
    ]) {
      expect((await call('POST', 'setting/ldap/test', settings(patch))).json(), JSON.stringify(patch)).toMatchObject({
        code: 0,
        data: { users_found: 7 },
      });
    }
    // A server that accepts the connection but never answers: refused after the timeout, not hung.
    const silent = createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const res = await call(
        'POST',
        'setting/ldap/test',
        settings({ url: `ldap://127.0.0.1:${port}`, timeout_seconds: 1 }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Cannot connect to the LDAP server: .*time/i);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.close();
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);
    // The test never changes the stored settings.
    expect((await call('GET', 'setting/ldap')).json().data.url).toBe(slapd.url);
  });

  it('lists the directory users, paged and filtered by name, marking who is imported', async () => {
    const all = await call('GET', 'setting/ldap/remote_users?page=1&limit=4');
    expect(all.json().data.total).toBe(7);
    expect(all.json().data.data.map((u: { user_name: string }) => u.user_name)).toEqual([
      'alice',
      'bob',
      'carol',
      'dave',
    ]);
    expect(all.json().data.data[0]).toEqual({
      dn: slapd.dnOf('alice'),
      user_name: 'alice',
      alias: 'Alice Liddell',
      email: 'alice@example.test',
      phone: '13800000001',
      user_id: null,
      imported: false,
    });
    const second = await call('GET', 'setting/ldap/remote_users?page=2&limit=4');
    expect(second.json().data.data.map((u: { user_name: string }) => u.user_name)).toEqual(['eve', 'eve', 'frank']);
    const byAlias = await call('GET', 'setting/ldap/remote_users?name=builder');
    expect(byAlias.json().data).toMatchObject({ total: 1, data: [{ user_name: 'bob' }] });
    // A name with filter syntax is a value, not a filter.
    const injected = await call('GET', `setting/ldap/remote_users?name=${encodeURIComponent('*)(uid=*')}`);
    expect(injected.json()).toMatchObject({ code: 0, data: { total: 0 } });
  });

  it('imports directory users as login type 2 with roles and group; skips existing and unknown names', async () => {
    await createUser(t.database.db, 'dave', 'Dave-Local-Pass-9');
    const before = await snapshotDigest(t.database.db);
    const badRole = await call('POST', 'setting/ldap/import', { user_names: ['alice'], role_ids: [999] });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().data.fields[0]).toEqual({ path: 'body.role_ids', message: 'The role does not exist' });
    expect((await call('POST', 'setting/ldap/import', { user_names: [] })).statusCode).toBe(400);
    expect(await snapshotDigest(t.database.db)).toBe(before);

    const res = await call('POST', 'setting/ldap/import', { user_names: ['alice', 'bob', 'dave', 'eve', 'nobody'] });
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    const { imported, skipped } = res.json().data;
    expect(imported.map((u: { user_name: string }) => u.user_name)).toEqual(['alice', 'bob']);
    expect(skipped).toEqual([
      { user_name: 'dave', reason: 'exists' },
      // Two entries for one name are ambiguous: neither is imported.
      { user_name: 'eve', reason: 'not_found' },
      { user_name: 'nobody', reason: 'not_found' },
    ]);
    const alice = await userRow('alice');
    expect(alice).toMatchObject({
      login_type: 2,
      alias: 'Alice Liddell',
      email: 'alice@example.test',
      phone: '13800000001',
      enable: 1,
      must_change_password: 0,
    });
    expect(alice?.password_hash).not.toMatch(/^\$argon2/);
    const roles = await t.database.db.kysely
      .selectFrom('user_roles')
      .selectAll()
      .where('user_id', '=', alice?.id ?? 0)
      .execute();
    expect(roles).toEqual([{ user_id: alice?.id, role_id: roleId }]);
    const groups = await t.database.db.kysely
      .selectFrom('user_user_groups')
      .selectAll()
      .where('user_id', '=', alice?.id ?? 0)
      .execute();
    expect(groups).toEqual([{ user_id: alice?.id, group_id: 1 }]);
    const again = await call('POST', 'setting/ldap/import', { user_names: ['alice'] });
    expect(again.json().data).toEqual({ imported: [], skipped: [{ user_name: 'alice', reason: 'exists' }] });

    const list = (await call('GET', 'setting/ldap/remote_users?limit=5')).json().data.data;
    expect(list.find((u: { user_name: string }) => u.user_name === 'alice')).toMatchObject({
      imported: true,
      user_id: alice?.id,
    });
    // A local account of the same name is not an imported user.
    expect(list.find((u: { user_name: string }) => u.user_name === 'dave')).toMatchObject({ imported: false });
  });

  it('logs an imported user in through the directory, with a session like a local login', async () => {
    const res = await postLdapLogin(t.app, 'alice', 'Alice-Dir-Pass-1');
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { user_name: 'alice', change_pwd_scene: 0, pwd_is_alterable: false, device_token: null },
    });
    const token = res.json().data.access_token as string;
    expect(token).toMatch(/^[\w-]{40,}$/);
    const me = await call('GET', 'user/current', undefined, { authorization: `Bearer ${token}` });
    expect(me.json()).toMatchObject({ code: 0, data: { user_name: 'alice', login_type: 2, role_ids: [roleId] } });
    const log = await t.database.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('target', '=', 'alice')
      .where('action', '=', 'login')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      module: 'auth',
      result: 1,
      detail: encodeOperationLogDetail({ code: 'via', params: { via: 'LDAP' } }),
    });
    // The directory's password is not a local password.
    expect((await postLogin(t.app, 'alice', 'Alice-Dir-Pass-1')).json().code).toBe(40100);
    // Over StartTLS too (the user's own bind upgrades its connection as well).
    await saveSettings({ start_tls: true, tls_reject_unauthorized: false });
    expect((await postLdapLogin(t.app, 'alice', 'Alice-Dir-Pass-1')).json()).toMatchObject({ code: 0 });
    expect((await postLdapLogin(t.app, 'alice', 'wrong-password')).json().code).toBe(40100);
    await saveSettings();
    // A user disabled here stays out, whatever the directory says.
    await t.database.db.kysely.updateTable('users').set({ enable: 0 }).where('user_name', '=', 'alice').execute();
    expect((await postLdapLogin(t.app, 'alice', 'Alice-Dir-Pass-1')).json().code).toBe(40302);
    await t.database.db.kysely.updateTable('users').set({ enable: 1 }).where('user_name', '=', 'alice').execute();
    // LDAP users lose the LDAP page, whatever their roles (000 §6, login type 2).
    const alice = await userRow('alice');
    await t.database.db.kysely
      .insertInto('user_roles')
      .values({ user_id: alice?.id ?? 0, role_id: 1 })
      .execute();
    const asAlice = { authorization: `Bearer ${token}` };
    expect((await call('GET', 'setting/ldap', undefined, asAlice)).statusCode).toBe(403);
    await t.database.db.kysely
      .deleteFrom('user_roles')
      .where('user_id', '=', alice?.id ?? 0)
      .where('role_id', '=', 1)
      .execute();
  });

  it('answers a wrong password and an unknown name alike, and refuses users not imported', async () => {
    const wrong = await postLdapLogin(t.app, 'alice', 'not-her-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 40100, message: '用户名或密码错误！', data: null });
    const unknown = await postLdapLogin(t.app, 'nobody', 'whatever');
    expect(unknown.json()).toEqual(wrong.json());
    // A name with filter syntax finds nobody rather than everybody.
    expect((await postLdapLogin(t.app, '*', 'Alice-Dir-Pass-1')).json().code).toBe(40100);
    // A local account is never logged in by a directory entry of the same name.
    expect((await postLdapLogin(t.app, 'dave', 'Dave-Dir-Pass-4')).json().code).toBe(40100);
    const notImported = await postLdapLogin(t.app, 'carol', 'Carol-Dir-Pass-3');
    expect(notImported.statusCode).toBe(403);
    expect(notImported.json().message).toBe('该LDAP用户尚未导入系统，请联系管理员！');
    expect(await userRow('carol')).toBeUndefined();
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pub/login/ldap',
      payload: { user_name: 'YWxpY2U=', password: 'bm90IGVuY3J5cHRlZA==' },
    });
    expect(garbage.json()).toMatchObject({ code: 40102 });
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/pub/login/ldap', payload: {} })).statusCode).toBe(400);
  });

  it('creates a user at the first LDAP login when auto-create is on', async () => {
    await saveSettings({ auto_create: true });
    const res = await postLdapLogin(t.app, 'frank', 'Frank-Dir-Pass-7');
    expect(res.json(), res.body).toMatchObject({ code: 0, data: { user_name: 'frank' } });
    expect(await userRow('frank')).toMatchObject({ login_type: 2, alias: 'Frank Auto' });
    await saveSettings({ auto_create: false });
  });

  it('counts failed LDAP logins toward the account lock', async () => {
    await setLoginSafe({ auto_lock: { enabled: true, period_minutes: 30, attempts: 3 }, lock_expiry_days: 0 });
    for (let i = 0; i < 2; i++) expect((await postLdapLogin(t.app, 'bob', 'bad')).json().code).toBe(40100);
    expect((await postLdapLogin(t.app, 'bob', 'bad')).json()).toMatchObject({ code: 40301 });
    const locked = await postLdapLogin(t.app, 'bob', 'Bob-Dir-Pass-2');
    expect(locked.statusCode).toBe(403);
    expect(locked.json().code).toBe(40301);
    expect((await userRow('bob'))?.locked_at).not.toBeNull();
    const failures = await t.database.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('target', '=', 'bob')
      .where('result', '=', 0)
      .execute();
    expect(
      failures.filter(
        (l) => l.detail === encodeOperationLogDetail({ code: 'wrongPasswordVia', params: { via: 'LDAP' } }),
      ).length,
    ).toBe(3);
    await setLoginSafe({ auto_lock: { enabled: false, period_minutes: 30, attempts: 5 } });
  });

  it('spends the brute-force budget on LDAP logins; a directory that is down costs nothing', async () => {
    const key = await publicKeyOf(t.app);
    let address = 0;
    const guess = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/pub/login/ldap',
        remoteAddress: `10.88.0.${++address}`,
        payload: { user_name: encryptFor(key, 'guessed-name'), password: encryptFor(key, password) },
      });
    await slapd.pause();
    try {
      for (let i = 0; i < 3; i++)
        expect((await guess('bad')).json().message).toBe('暂时无法连接LDAP服务器，请稍后重试或联系管理员！');
    } finally {
      await slapd.start();
    }
    stoppedAt = Date.now();
    try {
      for (let i = 0; i < 5; i++) expect((await guess('bad')).json().code).toBe(40100);
      expect((await guess('bad')).json()).toMatchObject({ code: 42900, message: '尝试次数过多，请1秒后再试！' });
    } finally {
      stoppedAt = null;
    }
  });

  it('answers a clear error, never a 500, when the directory is down', async () => {
    await slapd.pause();
    try {
      const login = await postLdapLogin(t.app, 'alice', 'Alice-Dir-Pass-1');
      expect(login.statusCode).toBe(400);
      expect(login.json().message).toBe('暂时无法连接LDAP服务器，请稍后重试或联系管理员！');
      const test = await call('POST', 'setting/ldap/test', settings());
      expect(test.statusCode).toBe(400);
      expect(test.json().message).toMatch(/^Cannot connect to the LDAP server: .*ECONNREFUSED/);
      const list = await call('GET', 'setting/ldap/remote_users');
      expect(list.statusCode).toBe(400);
      const importing = await call('POST', 'setting/ldap/import', { user_names: ['carol'] });
      expect(importing.statusCode).toBe(400);
      expect(await userRow('carol')).toBeUndefined();
    } finally {
      await slapd.start();
    }
    expect((await postLdapLogin(t.app, 'alice', 'Alice-Dir-Pass-1')).json().code).toBe(0);
  });

  it("checks an LDAP user's verification password by binding to the directory", async () => {
    const token = (await postLdapLogin(t.app, 'alice', 'Alice-Dir-Pass-1')).json().data.access_token as string;
    const alice = await userRow('alice');
    await t.database.db.kysely
      .insertInto('user_roles')
      .values({ user_id: alice?.id ?? 0, role_id: 1 })
      .execute();
    const key = await publicKeyOf(t.app);
    // Clearing the operation log asks for the verification password (002 §5.3).
    const clear = (password: string) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/v1/operation_record',
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en_us' },
        payload: { verify_password: encryptFor(key, password) },
      });
    try {
      const wrong = await clear('not-her-password');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('The password is incorrect. Please re-enter it!');
      expect(await t.database.db.kysely.selectFrom('operation_logs').select('id').execute()).not.toHaveLength(0);
      await slapd.pause();
      try {
        const down = await clear('Alice-Dir-Pass-1');
        expect(down.statusCode).toBe(400);
        expect(down.json().message).not.toBe('The password is incorrect. Please re-enter it!');
      } finally {
        await slapd.start();
      }
      expect((await clear('Alice-Dir-Pass-1')).json(), 'the directory password').toMatchObject({ code: 0 });
    } finally {
      await t.database.db.kysely
        .deleteFrom('user_roles')
        .where('user_id', '=', alice?.id ?? 0)
        .where('role_id', '=', 1)
        .execute();
    }
  });

  it('lets a role with the LDAP page read, and only with its functions change or import', async () => {
    const role = (
      await t.database.db.kysely
        .insertInto('roles')
        .values({ name: 'ldap readers', remark: '', created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await t.database.db.kysely.insertInto('role_menus').values({ role_id: role, menu_id: 224 }).execute();
    await createUser(t.database.db, 'reader', adminPassword, [role]);
    await createUser(t.database.db, 'stranger', adminPassword, [roleId]);
    const reader = await loginHeader(t.app, 'reader', adminPassword);
    const stranger = await loginHeader(t.app, 'stranger', adminPassword);
    expect((await call('GET', 'setting/ldap', undefined, stranger)).statusCode).toBe(403);
    expect((await call('GET', 'setting/ldap', undefined, reader)).json()).toMatchObject({ code: 0 });
    expect((await call('GET', 'setting/ldap/remote_users', undefined, reader)).json()).toMatchObject({ code: 0 });
    expect((await call('PUT', 'setting/ldap', settings(), reader)).statusCode).toBe(403);
    expect((await call('POST', 'setting/ldap/import', { user_names: ['carol'] }, reader)).statusCode).toBe(403);
    const importFn = await t.database.db.kysely
      .selectFrom('functions')
      .select('id')
      .where('menu_id', '=', 224)
      .where('code', '=', 'import')
      .executeTakeFirstOrThrow();
    await t.database.db.kysely
      .insertInto('role_functions')
      .values({ role_id: role, function_id: importFn.id })
      .execute();
    const res = await call('POST', 'setting/ldap/import', { user_names: ['carol'] }, reader);
    expect(res.json()).toMatchObject({ code: 0, data: { imported: [{ user_name: 'carol' }] } });
  });
});
