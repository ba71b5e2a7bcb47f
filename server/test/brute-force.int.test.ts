import { defaultLoginSafe, type LoginSafeConfig } from '@sitewatch/contract/auth';
import { beforeAll, expect, it } from 'vitest';
import { createSitewatch } from '../src/app.ts';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { createPushHub } from '../src/push/hub.ts';
import { testLoginKey, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin, createUser, encryptFor, publicKeyOf } from './helpers/login.ts';

const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };
const strong = 'Quartz-Lantern-42';

/**
 * The brute-force budget of issue 11 (findings 3 and 6): every password check spends one budget per
 * account and per address, counted in the database, on a fake clock so an hour passes in seconds.
 */
describeEachDatabase('brute-force budget', (dialect) => {
  let now = 1_900_000_000_000;
  const clock = () => now;
  const t = useTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    clock,
    // The outer per-minute limit is not what is measured here.
    loginRateLimit: { max: 1_000_000, timeWindow: 60_000 },
  });
  let key = '';
  let admin: Record<string, string> = {};
  let addressCounter = 0;
  /** A new address nobody has used: the account's own budget is then all that applies. */
  const freshAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;

  const login = (userName: string, password: string, from = '127.0.0.1', language = 'zh_cn') =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/pub/login/safe',
      remoteAddress: from,
      headers: { 'accept-language': language },
      payload: { user_name: encryptFor(key, userName), password: encryptFor(key, password) },
    });
  const setLoginSafe = async (patch: Partial<LoginSafeConfig>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/setting/gc',
      headers: admin,
      payload: { k: 'LOGIN_SAFE', v: { ...defaultLoginSafe, captcha_enabled: false, ...patch } },
    });
    expect(res.json()).toMatchObject({ code: 0 });
  };
  const failureRows = async (userName: string) =>
    (
      await t.database.db.kysely
        .selectFrom('login_attempts')
        .select('time')
        .where('user_name', '=', userName)
        .where('success', '=', 0)
        .execute()
    ).map((r) => Number(r.time));

  beforeAll(async () => {
    key = await publicKeyOf(t.app);
    const issued = await createFirstAdmin(t.database.db);
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/password_without_login',
      payload: {
        user_name: 'admin',
        old_password: encryptFor(key, issued),
        new_password: encryptFor(key, strong),
      },
    });
    expect(change.json()).toMatchObject({ code: 0 });
    const res = await login('admin', strong);
    admin = { authorization: `Bearer ${res.json().data.access_token}` };
  });

  it('checks no more than 100 failures an hour against one account, from any number of addresses', async () => {
    await createUser(t.database.db, 'victim', strong);
    // The victim signed in from four office addresses; the attacker uses those and fresh ones.
    const office = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'];
    for (const from of office) expect((await login('victim', strong, from)).json()).toMatchObject({ code: 0 });
    const start = now;
    const answers = new Map<number, number>();
    for (let i = 0; now < start + 3_600_000; i++, now += 12_000) {
      const from = i % 2 === 0 ? (office[(i / 2) % office.length] ?? '') : freshAddress();
      const code = (await login('victim', `guess-${i}`, from)).json().code as number;
      answers.set(code, (answers.get(code) ?? 0) + 1);
    }
    // 300 guesses, 150 of them from the office (which skips the delay, not the budget): a password
    // was checked (40100) at most 100 times, the rest refused unchecked.
    expect(answers.get(40100)).toBeLessThanOrEqual(100);
    expect(answers.get(40100)).toBeGreaterThan(60);
    expect(answers.get(42900)).toBe(300 - (answers.get(40100) ?? 0));
    const failures = await failureRows('victim');
    expect(failures.filter((time) => time >= start / 1000 && time < start / 1000 + 3600).length).toBeLessThanOrEqual(
      100,
    );
    // Once the hour has passed the owner signs in from the office at once.
    now += 3_600_000;
    expect((await login('victim', strong, office[0])).json()).toMatchObject({ code: 0 });
  });

  it('grows the delay with each failure, per account and per address, and says how long to wait', async () => {
    await createUser(t.database.db, 'grower', strong);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await login('grower', 'wrong', freshAddress())).json().code);
    expect(codes).toEqual([40100, 40100, 40100, 40100, 40100]);
    const waits: number[] = [];
    for (let step = 0; step < 5; step++) {
      const refused = await login('grower', 'wrong', freshAddress());
      expect(refused.statusCode).toBe(429);
      const seconds = Number(/请(\d+)秒后再试/.exec(refused.json().message)?.[1]);
      waits.push(seconds);
      // Even the right password is not checked while the delay runs (no oracle).
      expect((await login('grower', strong, freshAddress())).json().code).toBe(42900);
      now += seconds * 1000;
      expect((await login('grower', 'wrong', freshAddress())).json().code).toBe(40100);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16]);
    const english = await login('grower', 'wrong', freshAddress(), 'en_us');
    expect(english.json()).toEqual({ code: 42900, message: 'Too many attempts, try again in 32 s!', data: null });
    now += 32_000;
    expect((await login('grower', strong, freshAddress())).json()).toMatchObject({ code: 0 });

    // One address spraying many names: 20 failures free, then the same doubling delay.
    const sprayer = '198.51.100.9';
    const spray: number[] = [];
    for (let i = 0; i < 22; i++) spray.push((await login(`name-${i}`, 'wrong', sprayer)).json().code);
    expect(spray.slice(0, 20).every((code) => code === 40100)).toBe(true);
    expect(spray.slice(20)).toEqual([42900, 42900]);
    now += 1_000;
    expect((await login('name-x', 'wrong', sprayer)).json().code).toBe(40100);
    expect((await login('name-y', 'wrong', sprayer)).json().message).toBe('尝试次数过多，请2秒后再试！');
  });

  it('counts concurrent guesses atomically: a burst past the free failures checks no more', async () => {
    await createUser(t.database.db, 'burst', strong);
    const answers = await Promise.all(
      Array.from({ length: 12 }, async () => (await login('burst', 'wrong', freshAddress())).json().code as number),
    );
    expect(answers.filter((code) => code === 40100).length).toBeLessThanOrEqual(5);
    expect(answers.filter((code) => code === 42900).length).toBeGreaterThanOrEqual(7);
    expect((await failureRows('burst')).length).toBeLessThanOrEqual(5);
    now += 3_600_000;
  });

  it('throttles the verification password and the forced-change route with the same budget', async () => {
    await createUser(t.database.db, 'verifier', strong, [1]);
    const session = (await login('verifier', strong, '192.0.2.50')).json().data.access_token as string;
    // The token used from an address that never signed in as this user (a stolen session).
    const clear = (password: string) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/v1/operation_record',
        remoteAddress: '203.0.113.66',
        headers: { authorization: `Bearer ${session}` },
        payload: { verify_password: encryptFor(key, password) },
      });
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await clear(`guess-${i}`)).json().code);
    expect(codes).toEqual([40000, 40000, 40000, 40000, 40000, 42900, 42900, 42900]);
    expect((await clear(strong)).json().code).toBe(42900);
    // The forced-change route is the same oracle: it spends the same account budget.
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/password_without_login',
      remoteAddress: '203.0.113.67',
      payload: {
        user_name: 'verifier',
        old_password: encryptFor(key, 'guess'),
        new_password: encryptFor(key, 'Another-Long-Pass-7'),
      },
    });
    expect(change.json().code).toBe(42900);
    now += 1_000;
    expect((await clear(strong)).json()).toMatchObject({ code: 0 });
    now += 3_600_000;
  });

  it('throttles the old password of one’s own password change', async () => {
    await createUser(t.database.db, 'changer', strong);
    const session = (await login('changer', strong, '192.0.2.60')).json().data.access_token as string;
    const change = (old: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/user/password',
        remoteAddress: '203.0.113.70',
        headers: { authorization: `Bearer ${session}` },
        payload: { old_password: encryptFor(key, old), new_password: encryptFor(key, 'Another-Long-Pass-7') },
      });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await change(`guess-${i}`)).json().code);
    expect(codes).toEqual([40000, 40000, 40000, 40000, 40000, 42900]);
    now += 1_000;
    expect((await change(strong)).json()).toMatchObject({ code: 0 });
    now += 3_600_000;
  });

  it('counts a failure in the same second as the last success', async () => {
    await createUser(t.database.db, 'same-second', strong);
    await setLoginSafe({ auto_lock: { enabled: true, period_minutes: 30, attempts: 3 }, lock_expiry_days: 1 });
    try {
      expect((await login('same-second', strong)).json()).toMatchObject({ code: 0 });
      // The clock does not move: all of these fall in the second of the success.
      expect((await login('same-second', 'wrong')).json().code).toBe(40100);
      expect((await login('same-second', 'wrong')).json().code).toBe(40100);
      expect((await login('same-second', 'wrong')).json().code).toBe(40301);
      expect((await failureRows('same-second')).length).toBe(3);
    } finally {
      await setLoginSafe({});
    }
    now += 3_600_000;
  });

  it('never locks the administrator by anonymous failures nor ends its session; others still lock', async () => {
    await createUser(t.database.db, 'normal', strong);
    await setLoginSafe({ auto_lock: { enabled: true, period_minutes: 30, attempts: 3 }, lock_expiry_days: 0 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 12; i++) {
        codes.push((await login('admin', `guess-${i}`, freshAddress())).json().code);
        now += 1_000;
      }
      expect(codes).not.toContain(40301);
      expect(codes.slice(0, 5)).toEqual([40100, 40100, 40100, 40100, 40100]);
      expect(codes).toContain(42900);
      const row = await t.database.db.kysely
        .selectFrom('users')
        .select(['locked_at', 'lock_reason'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ locked_at: null, lock_reason: null });
      const me = await t.app.inject({ method: 'GET', url: '/api/v1/user/current', headers: admin });
      expect(me.json()).toMatchObject({ code: 0, data: { id: 1 } });
      // From its own address the administrator signs in at once; a new address waits out the delay.
      expect((await login('admin', strong, '127.0.0.1')).json()).toMatchObject({ code: 0 });
      expect((await login('admin', strong, freshAddress())).json().code).toBe(42900);

      for (let i = 0; i < 2; i++) expect((await login('normal', 'wrong', freshAddress())).json().code).toBe(40100);
      expect((await login('normal', 'wrong', freshAddress())).json().code).toBe(40301);
      expect((await login('normal', strong, freshAddress())).json()).toMatchObject({
        code: 40301,
        message: '账号已被锁定，请稍后再试或联系管理员！',
      });
    } finally {
      await setLoginSafe({});
    }
  });

  it('lifts an automatic lock the administrator carries from before, at its next login', async () => {
    now += 3_600_000;
    await t.database.db.kysely
      .updateTable('users')
      .set({ locked_at: Math.floor(now / 1000) - 60, lock_reason: 'auto' })
      .where('id', '=', 1)
      .execute();
    const token = (await login('admin', strong)).json().data.access_token as string;
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/current',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json()).toMatchObject({ code: 0, data: { id: 1 } });
  });

  it('keeps the budget across a restart: it lives in the database', async () => {
    await createUser(t.database.db, 'restart', strong);
    for (let i = 0; i < 5; i++) expect((await login('restart', 'wrong', freshAddress())).json().code).toBe(40100);
    const again = await createSitewatch({
      db: t.database.db,
      push: createPushHub(),
      loginKey: testLoginKey,
      logLevel: 'silent',
      globalConfigDefaults: noCaptcha,
      clock,
      loginRateLimit: { max: 1_000_000, timeWindow: 60_000 },
    });
    try {
      await again.app.ready();
      const refused = await again.app.inject({
        method: 'POST',
        url: '/api/v1/pub/login/safe',
        remoteAddress: freshAddress(),
        payload: { user_name: encryptFor(key, 'restart'), password: encryptFor(key, strong) },
      });
      expect(refused.json()).toMatchObject({ code: 42900, message: '尝试次数过多，请1秒后再试！' });
    } finally {
      await again.app.close();
    }
  });
});
