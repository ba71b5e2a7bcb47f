import { defaultLoginSafe, type LoginSafeConfig } from '@sitewatch/contract/auth';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin, createUser, encryptFor, loginHeader, postLogin, publicKeyOf } from './helpers/login.ts';

const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };
const strong = 'Quartz-Lantern-42';

describeEachDatabase('sign-in and sessions', (dialect) => {
  let now = 1_800_000_000_000;
  const t = useTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    clock: () => now,
    loginRateLimit: { max: 10_000, timeWindow: 60_000 },
  });
  let adminPassword = '';
  let admin: Record<string, string> = {};
  const setLoginSafe = async (patch: Partial<LoginSafeConfig>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/setting/gc',
      headers: admin,
      payload: { k: 'LOGIN_SAFE', v: { ...defaultLoginSafe, captcha_enabled: false, ...patch } },
    });
    expect(res.json()).toMatchObject({ code: 0 });
  };
  const rows = (table: 'operation_logs' | 'sessions') => t.database.db.kysely.selectFrom(table).selectAll().execute();

  beforeAll(async () => {
    adminPassword = await createFirstAdmin(t.database.db);
  });

  it('forces the first-start admin to change the issued password before any session exists', async () => {
    const first = await postLogin(t.app, 'admin', adminPassword);
    expect(first.json()).toMatchObject({
      code: 0,
      data: { access_token: '', change_pwd_scene: 3, pwd_is_alterable: true, user_name: 'admin' },
    });
    expect((await rows('sessions')).length).toBe(0);
    const key = await publicKeyOf(t.app);
    const change = (newPassword: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/user/password_without_login',
        payload: {
          user_name: 'admin',
          old_password: encryptFor(key, adminPassword),
          new_password: encryptFor(key, newPassword),
        },
      });
    const weak = await change('password');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      code: 40103,
      data: { fields: expect.arrayContaining([{ path: 'new_password', message: 'notCommon' }]) },
    });
    const same = await change(adminPassword);
    expect(same.json().data.fields.map((f: { message: string }) => f.message)).toContain('differFromOld');
    expect((await change(strong)).json()).toMatchObject({ code: 0, message: '修改成功！请重新登录！' });
    admin = await loginHeader(t.app, 'admin', strong);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/user/current', headers: admin });
    expect(me.json()).toMatchObject({ code: 0, data: { id: 1, user_name: 'admin', role_ids: [1], site_ids: null } });
  });

  it('answers wrong passwords, undecryptable and malformed input with clear 4xx envelopes', async () => {
    const wrong = await postLogin(t.app, 'admin', 'not-the-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 40100, message: '用户名或密码错误！', data: null });
    const english = await postLogin(t.app, 'admin', 'nope', {}, { 'accept-language': 'en_us' });
    expect(english.json().message).toBe('Wrong user name or password!');
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pub/login/safe',
      payload: { user_name: 'YWRtaW4=', password: 'bm90IGVuY3J5cHRlZA==' },
    });
    expect(garbage.json()).toMatchObject({ code: 40102 });
    const missing = await t.app.inject({ method: 'POST', url: '/api/v1/pub/login/safe', payload: { user_name: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.fields[0].path).toBe('body.password');
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pub/login/safe',
      payload: { user_name: 1, password: [] },
    });
    expect(wrongType.statusCode).toBe(400);
  });

  it('keeps each captcha for a short time and accepts it once', async () => {
    await setLoginSafe({ captcha_enabled: true });
    const newCaptcha = async () => {
      const id = (await t.app.inject({ method: 'GET', url: '/api/v1/pub/login/captchaid' })).json().data
        .captcha_id as string;
      const row = await t.database.db.kysely
        .selectFrom('captchas')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { id, code: row.code };
    };
    const { id, code } = await newCaptcha();
    const image = await t.app.inject({ method: 'GET', url: `/api/v1/pub/login/captcha?id=${id}` });
    // A raster image (finding 5: an SVG's glyph paths were read by a script); captcha.int.test.ts tries to read it.
    expect(image.headers['content-type']).toContain('image/png');
    expect(image.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/pub/login/captcha?id=nope' })).statusCode).toBe(404);
    const without = await postLogin(t.app, 'admin', strong);
    expect(without.json()).toMatchObject({ code: 40101 });
    const ok = await postLogin(t.app, 'admin', strong, { captcha_id: id, captcha_code: code.toUpperCase() });
    expect(ok.json()).toMatchObject({ code: 0 });
    const replay = await postLogin(t.app, 'admin', strong, { captcha_id: id, captcha_code: code });
    expect(replay.json()).toMatchObject({ code: 40101, message: '验证码错误或已过期！' });
    const wrongFirst = await newCaptcha();
    expect(
      (await postLogin(t.app, 'admin', strong, { captcha_id: wrongFirst.id, captcha_code: 'zzzz' })).json().code,
    ).toBe(40101);
    expect(
      (await postLogin(t.app, 'admin', strong, { captcha_id: wrongFirst.id, captcha_code: wrongFirst.code })).json()
        .code,
    ).toBe(40101);
    const expired = await newCaptcha();
    now += 121_000;
    expect(
      (await postLogin(t.app, 'admin', strong, { captcha_id: expired.id, captcha_code: expired.code })).json().code,
    ).toBe(40101);
    await setLoginSafe({ captcha_enabled: false });
  });

  it('locks an account after the configured failures, and says the same for unknown names', async () => {
    await createUser(t.database.db, 'operator', strong);
    await setLoginSafe({ auto_lock: { enabled: true, period_minutes: 30, attempts: 3 }, lock_expiry_days: 1 });
    for (let i = 0; i < 2; i++) expect((await postLogin(t.app, 'operator', 'bad')).json().code).toBe(40100);
    expect((await postLogin(t.app, 'operator', 'bad')).json()).toMatchObject({ code: 40301 });
    const locked = await postLogin(t.app, 'operator', strong);
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({ code: 40301, message: '账号已被锁定，请稍后再试或联系管理员！' });
    for (let i = 0; i < 2; i++) await postLogin(t.app, 'ghost', 'bad');
    expect((await postLogin(t.app, 'ghost', 'bad')).json()).toMatchObject({ code: 40301 });
    // The automatic lock expires after lock_expiry_days.
    now += 86_401_000;
    expect((await postLogin(t.app, 'operator', strong)).json()).toMatchObject({ code: 0 });
    const log = await rows('operation_logs');
    expect(log.filter((r) => r.action === 'lock' && r.target === 'operator')).toHaveLength(1);
    expect(log.filter((r) => r.action === 'login' && r.result === 0).length).toBeGreaterThan(3);
    await setLoginSafe({});
  });

  it('revokes sessions on logout, and says why afterwards', async () => {
    const header = await loginHeader(t.app, 'operator', strong);
    const exit = await t.app.inject({ method: 'POST', url: '/api/v1/pub/login/exit', headers: header, payload: {} });
    expect(exit.json()).toMatchObject({ code: 0, message: '退出成功' });
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/user/current', headers: header });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: -2, message: '您已退出登录，请重新登录！' });
    expect((await rows('operation_logs')).some((r) => r.action === 'logout' && r.user_name === 'operator')).toBe(true);
  });

  it('single-terminal login ends the first terminal', async () => {
    await setLoginSafe({ single_terminal: true });
    const first = await loginHeader(t.app, 'operator', strong);
    const second = await loginHeader(t.app, 'operator', strong);
    const old = await t.app.inject({ method: 'GET', url: '/api/v1/user/current', headers: first });
    expect(old.json()).toMatchObject({ code: -2, message: '您的账号已在其他终端登录，当前登录已失效！' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/user/current', headers: second })).json().code).toBe(0);
    await setLoginSafe({});
  });

  it('ends idle sessions on the server when ACCOUNT_SAFE is on', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/setting/gc',
      headers: admin,
      payload: { k: 'ACCOUNT_SAFE', v: { acc_logout_config: { enabled: true, opt_period: 5 } } },
    });
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/v1/setting/gc/readonly?k=ACCOUNT_SAFE',
      headers: admin,
    });
    expect(read.json().data).toEqual({ acc_logout_config: { enabled: true, opt_period: 5 } });
    const header = await loginHeader(t.app, 'operator', strong);
    now += 4 * 60_000;
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/server_time', headers: header })).json().code).toBe(0);
    now += 4 * 60_000;
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/server_time', headers: header })).json().code).toBe(0);
    now += 6 * 60_000;
    const idle = await t.app.inject({ method: 'GET', url: '/api/v1/server_time', headers: header });
    expect(idle.json()).toMatchObject({ code: -2, message: '长时间未操作，已自动退出，请重新登录！' });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/setting/gc',
      headers: await loginHeader(t.app, 'admin', strong),
      payload: { k: 'ACCOUNT_SAFE', v: { acc_logout_config: { enabled: false, opt_period: 30 } } },
    });
    admin = await loginHeader(t.app, 'admin', strong);
  });

  it('auto-login uses a revocable device token, never the password', async () => {
    const res = await postLogin(t.app, 'operator', strong, { auto_login_period: 2 });
    const deviceToken = res.json().data.device_token as string;
    expect(deviceToken).toMatch(/^[\w-]{40,}$/);
    const auto = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/pub/login/auto', payload: { device_token: deviceToken } });
    const again = await auto();
    expect(again.json()).toMatchObject({ code: 0, data: { user_name: 'operator' } });
    const header = { authorization: `Bearer ${again.json().data.access_token}` };
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/user/device_tokens', headers: header });
    expect(list.json().data).toMatchObject({ total: 1, data: [{ user_name: 'operator', period: 2, current: true }] });
    const id = list.json().data.data[0].id;
    const everyone = await t.app.inject({ method: 'GET', url: '/api/v1/user/device_tokens?all=1', headers: header });
    expect(everyone.statusCode).toBe(403);
    const adminList = await t.app.inject({ method: 'GET', url: '/api/v1/user/device_tokens?all=1', headers: admin });
    expect(adminList.json().data.data.some((r: { id: number }) => r.id === id)).toBe(true);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/user/device_tokens/${id}`, headers: admin })).json().code,
    ).toBe(0);
    expect((await auto()).json()).toMatchObject({ code: 40100, message: '自动登录已失效' });
    // One month: expired after 30 days.
    const monthly = (await postLogin(t.app, 'operator', strong, { auto_login_period: 2 })).json().data.device_token;
    now += 31 * 86_400_000;
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/pub/login/auto', payload: { device_token: monthly } })).json()
        .code,
    ).toBe(40100);
    admin = await loginHeader(t.app, 'admin', strong);
  });

  it('a password change ends every session and auto-login of the user', async () => {
    const device = (await postLogin(t.app, 'operator', strong, { auto_login_period: 1 })).json().data.device_token;
    const a = await loginHeader(t.app, 'operator', strong);
    const b = await loginHeader(t.app, 'operator', strong);
    const key = await publicKeyOf(t.app);
    const wrongOld = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/password',
      headers: a,
      payload: { old_password: encryptFor(key, 'nope'), new_password: encryptFor(key, 'Another-Pass-77') },
    });
    expect(wrongOld.json()).toMatchObject({ code: 40000, message: '旧密码错误！' });
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/password',
      headers: a,
      payload: { old_password: encryptFor(key, strong), new_password: encryptFor(key, 'Another-Pass-77') },
    });
    expect(change.json()).toMatchObject({ code: 0 });
    for (const header of [a, b]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/current', headers: header });
      expect(res.json()).toMatchObject({ code: -2, message: '密码已修改，请重新登录！' });
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/pub/login/auto', payload: { device_token: device } })).json()
        .code,
    ).toBe(40100);
    expect((await postLogin(t.app, 'operator', 'Another-Pass-77')).json().code).toBe(0);
  });

  it('asks for a change when the password breaks newly enabled rules or has expired', async () => {
    const set = (patch: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/gc',
        headers: admin,
        payload: { k: 'PWD_COMPLEXITY', v: { pwd_complexity_config: { ...builtInDefaults.PWD_COMPLEXITY, ...patch } } },
      });
    expect((await set({ opt_contain_spec_char: true, opt_min_len: 20 })).json().code).toBe(0);
    const breaks = await postLogin(t.app, 'operator', 'Another-Pass-77');
    expect(breaks.json().data).toMatchObject({
      access_token: '',
      change_pwd_scene: 1,
      pwd_complexity_error: ['minLength'],
    });
    await set({ opt_validity_enabled: true, opt_validity_days: 10, opt_expire_prompt_days: 3 });
    now += 8 * 86_400_000;
    const tip = await postLogin(t.app, 'operator', 'Another-Pass-77');
    expect(tip.json().data).toMatchObject({ need_tip_change_pwd: true, pwd_days_left: 2, change_pwd_scene: 0 });
    now += 3 * 86_400_000;
    const expired = await postLogin(t.app, 'operator', 'Another-Pass-77');
    expect(expired.json().data).toMatchObject({ access_token: '', change_pwd_scene: 2, pwd_expired: true });
    await set({});
  });

  describe('permissions', () => {
    it('refuses administrator calls to other users with 403 and answers the admin', async () => {
      await t.database.db.kysely
        .insertInto('roles')
        .values({ id: 5, name: 'viewer', remark: '', created_at: 0 })
        .execute();
      await createUser(t.database.db, 'viewer', strong, [5]);
      const viewer = await loginHeader(t.app, 'viewer', strong);
      const refused = await t.app.inject({ method: 'GET', url: '/api/v1/setting/gc?k=LOGIN_SAFE', headers: viewer });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 40300 });
      const granted = await t.app.inject({ method: 'GET', url: '/api/v1/setting/gc?k=LOGIN_SAFE', headers: admin });
      expect(granted.json()).toMatchObject({ code: 0, data: { captcha_enabled: false } });
      const menus = await t.app.inject({ method: 'GET', url: '/api/v1/menus', headers: viewer });
      expect(menus.json()).toEqual({ code: 0, message: '操作成功', data: { list: [] } });
    });
  });
});

describeEachDatabase('login rate limit', (dialect) => {
  const t = useTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    loginRateLimit: { max: 3, timeWindow: 60_000 },
  });
  it('answers 429 in the envelope past the limit per address', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await postLogin(t.app, 'nobody', 'x')).statusCode);
    expect(codes).toEqual([400, 400, 400, 429]);
    const last = await postLogin(t.app, 'nobody', 'x');
    expect(last.json()).toMatchObject({ code: 42900, message: '请求过于频繁，请稍后重试！' });
  });
});
