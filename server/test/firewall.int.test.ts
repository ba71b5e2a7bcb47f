import { defaultLoginSafe } from '@sitewatch/contract/auth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { type FakeFirewallHost, startFakeFirewallHost } from './helpers/firewall-host.ts';
import { createFirstAdmin, createUser, encryptFor, loginHeader, publicKeyOf } from './helpers/login.ts';

const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };
const password = 'Admin-Strong-91';

let host: FakeFirewallHost;
beforeAll(async () => {
  host = await startFakeFirewallHost();
  process.env.SITEWATCH_FIREWALL_SOCKET = host.socketPath;
});
afterAll(async () => {
  delete process.env.SITEWATCH_FIREWALL_SOCKET;
  await host?.stop();
});

const rule = (patch: Record<string, unknown> = {}) => ({
  direction: 'in',
  source: '10.1.0.0/16',
  port: '8080:8090',
  authorised: false,
  ...patch,
});

describeEachDatabase('firewall (002 §4, §5.3, §7.2)', (dialect) => {
  const t = useManualTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
  });
  let admin: Record<string, string> = {};
  let operator: Record<string, string> = {};
  let key = '';
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, headers = admin, language = 'en_us') =>
    t.app.inject({
      method,
      url: `/api/v1/setting/maintain/firewall/${url}`,
      headers: { ...headers, 'accept-language': language },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const save = (rules: unknown[], extra: Record<string, unknown> = {}) =>
    call('POST', 'ports', { rules, verify_password: encryptFor(key, password), ...extra });
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
      payload: { user_name: 'admin', old_password: encryptFor(key, first), new_password: encryptFor(key, password) },
    });
    admin = await loginHeader(t.app, 'admin', password);
    await createUser(t.database.db, 'operator', 'Operator-Strong-77');
    operator = await loginHeader(t.app, 'operator', 'Operator-Strong-77');
  });

  it('refuses bad rules with the spec messages (en_us and zh_cn) and changes nothing', async () => {
    const before = await snapshotDigest(t.database.db);
    const scripts = host.scripts.length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ port: '80' }, 'The format of the port number is incorrect!', '端口号格式不正确！'],
      [{ port: '0:80' }, 'The format of the port number is incorrect!', '端口号格式不正确！'],
      [{ source: '' }, 'Source address cannot be empty!', '源地址不能为空！'],
      [{ source: 'example.com' }, 'The format of the source address is incorrect!', '源地址格式不正确！'],
      [
        { source: '10.0.0.256' },
        'The format of the IP address is incorrect: four numbers from 0 to 255!',
        'IP格式不正确：应为0到255的四个数字！',
      ],
      [{ source: '10.0.0.0/40' }, 'The mask is incorrect: a number from 0 to 32!', '掩码不正确：应为0到32的数字！'],
      [
        { source: '10.0.0.1-10.0' },
        'The IP segment is incorrect: write it as start IP-end IP!',
        'IP段不正确：应写作起始IP-结束IP！',
      ],
      [
        { source: '10.0.0.9-10.0.0.1' },
        'The start of the IP segment cannot be greater than its end!',
        'IP段的起始地址不能大于结束地址！',
      ],
    ];
    for (const [patch, en, zh] of cases) {
      const english = await save([rule(patch)]);
      expect(english.statusCode, english.body).toBe(400);
      expect(english.json().data?.fields?.[0]?.message ?? english.json().message).toContain(en);
      const chinese = await call('POST', 'ports', { rules: [rule(patch)], verify_password: 'x' }, admin, 'zh_cn');
      expect(chinese.json().message).toContain(zh);
    }
    expect(host.scripts.length).toBe(scripts);
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('needs the verification password, and a non-administrator is refused', async () => {
    const empty = await call('POST', 'ports', { rules: [rule()], verify_password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('The password cannot be empty!');
    const wrong = await call('POST', 'ports', { rules: [rule()], verify_password: encryptFor(key, 'nope') });
    expect(wrong.json()).toMatchObject({ code: 40000, message: 'The password is incorrect. Please re-enter it!' });
    for (const [method, url, body] of [
      ['GET', 'ports', undefined],
      ['GET', 'open_ports', undefined],
      ['POST', 'ports', { rules: [], verify_password: encryptFor(key, 'Operator-Strong-77') }],
      ['POST', 'status/0', { verify_password: encryptFor(key, 'Operator-Strong-77') }],
      ['POST', 'keep', {}],
    ] as const) {
      expect((await call(method, url, body, operator)).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('saves, applies through the helper, turns on and off, and logs each change', async () => {
    const saved = await ok(await save([rule(), rule({ direction: 'out', source: '1.2.3.4', port: '25:25' })]));
    expect(saved.rules.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(saved.enabled).toBe(false);
    expect(host.scripts.at(-1)).toBe('table inet sitewatch\ndelete table inet sitewatch\n');
    const on = await ok(await call('POST', 'status/0', { verify_password: encryptFor(key, password) }));
    expect(on).toMatchObject({ enabled: true, host: { available: true, reason: null, table: true, host_rules: 6 } });
    expect(host.scripts.at(-1)).toContain('ip saddr 10.1.0.0/16 meta l4proto tcp th dport 8080-8090 reject');
    // Editing keeps ids of the rules it names.
    const edited = await ok(
      await save([{ ...rule({ port: '9000:9000' }), id: 2 }, rule({ source: '0.0.0.0/0', authorised: true })]),
    );
    expect(edited.rules.map((r: { id: number; port: string }) => [r.id, r.port])).toEqual([
      [2, '9000:9000'],
      [3, '8080:8090'],
    ]);
    const ports = await ok(await call('GET', 'open_ports'));
    expect(ports).toMatchObject({
      available: true,
      data: [{ port: 22 }, { port: 80, process: 'node' }, { protocol: 'udp', port: 161, process: 'snmpd' }],
    });
    const log = await t.app.inject({ method: 'GET', url: '/api/v1/operation_record?limit=50', headers: admin });
    const modules = log.json().data.data.map((r: { module: string; action: string }) => `${r.module} ${r.action}`);
    expect(modules).toEqual(
      expect.arrayContaining(['setting/maintain/firewall/ports update', 'setting/maintain/firewall/status enable']),
    );
    await ok(await call('POST', 'status/1', { verify_password: encryptFor(key, password) }));
    expect(host.scripts.at(-1)).toBe('table inet sitewatch\ndelete table inet sitewatch\n');
    await ok(await call('POST', 'status/0', { verify_password: encryptFor(key, password) }));
  });

  it('closing port 80 or 22 asks for confirmation (002 §5.3)', async () => {
    const current = (await ok(await call('GET', 'ports'))).rules;
    const closing = rule({ source: '10.9.0.0/16', port: '20:25' });
    const asked = await save([...current, closing]);
    expect(asked.statusCode).toBe(400);
    expect(asked.json().message).toBe('Closing port 22 cuts off web access or SSH. Confirm to close it.');
    const confirmed = await ok(await save([...current, closing], { confirm: true }));
    expect(confirmed.rules).toHaveLength(current.length + 1);
    // Kept as it was: nothing to ask again.
    await ok(await save(confirmed.rules));
  });

  it('a change that cuts off its author asks, applies on trial and rolls back after 60 s', async () => {
    const good = (await ok(await call('GET', 'ports'))).rules;
    const lockout = [rule({ source: '127.0.0.1', port: '80:80' }), ...good];
    const asked = await save(lockout, { confirm: true });
    expect(asked.json().message).toBe(
      'This change refuses your own address 127.0.0.1: you would lose access to the console. Confirm to apply it on trial.',
    );
    const trial = await ok(await save(lockout, { confirm: true, confirm_lockout: true }));
    expect(trial.pending).toMatchObject({ address: '127.0.0.1' });
    expect(host.scripts.at(-1)).toContain('ip saddr 127.0.0.1 meta l4proto tcp th dport 80 reject');
    await t.clock.advance(59_000);
    expect((await ok(await call('GET', 'ports'))).pending).not.toBeNull();
    await t.clock.advance(1_000);
    await t.sitewatch.settled();
    const after = await ok(await call('GET', 'ports'));
    expect(after.pending).toBeNull();
    expect(after.rules).toEqual(good);
    expect(host.scripts.at(-1)).not.toContain('127.0.0.1');
    const log = await t.app.inject({ method: 'GET', url: '/api/v1/operation_record?limit=5', headers: admin });
    expect(log.json().data.data[0]).toMatchObject({ module: 'setting/maintain/firewall/ports', action: 'rollback' });

    // Kept in time: it stays.
    await ok(await save(lockout, { confirm: true, confirm_lockout: true }));
    await t.clock.advance(30_000);
    expect((await ok(await call('POST', 'keep', {}))).pending).toBeNull();
    await t.clock.advance(60_000);
    expect((await ok(await call('GET', 'ports'))).rules[0]).toMatchObject({ source: '127.0.0.1' });
    expect((await call('POST', 'keep', {})).json().message).toBe('No firewall change is waiting to be kept.');
    await ok(await save(good, { confirm: true }));
  });

  it('without the helper, nftables or the privilege: a read-only state saying why, never a fake success', async () => {
    // (The verification password's check writes its own records: the rules are what must not change.)
    const before = (await ok(await call('GET', 'ports'))).rules;
    const scripts = host.scripts.length;
    for (const reason of ['noPrivilege', 'noNft'] as const) {
      host.refuse = reason;
      const state = await ok(await call('GET', 'ports'));
      expect(state.host).toMatchObject({ available: false, reason });
      const refused = await save([rule()]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(
        reason === 'noNft' ? /nftables \(nft\) is not installed/ : /CAP_NET_ADMIN/,
      );
      expect((await ok(await call('GET', 'open_ports'))).available).toBe(false);
    }
    host.refuse = null;
    process.env.SITEWATCH_FIREWALL_SOCKET = `${host.socketPath}.absent`;
    try {
      const state = await ok(await call('GET', 'ports', undefined, admin));
      expect(state.host).toMatchObject({ available: false, reason: 'noHelper' });
      expect((await save([rule()])).json().message).toMatch(/helper is not running/);
    } finally {
      process.env.SITEWATCH_FIREWALL_SOCKET = host.socketPath;
    }
    expect((await ok(await call('GET', 'ports'))).rules).toEqual(before);
    expect(host.scripts.length).toBe(scripts);
  });
});
