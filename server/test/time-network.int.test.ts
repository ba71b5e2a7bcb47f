import { defaultLoginSafe } from '@sitewatch/contract/auth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { type FakeBox, startFakeBox } from './helpers/host-helper-fake.ts';
import { createFirstAdmin, createUser, encryptFor, loginHeader, publicKeyOf } from './helpers/login.ts';

/**
 * Time, network and services (issue 30 item 4; docs/time-network.md) through the real host helper
 * over a stand-in box (host-helper-fake.ts): the spec's messages with nothing changed, the commands
 * the helper builds, the trial of an address change rolled back at 60 s on the manual clock, the
 * read-only states. The namespace test runs the helper on the real `ip`.
 */
const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };
const password = 'Admin-Strong-91';

/** Bad input of each route, with its en_us and zh_cn messages (002 §5.1 and our own, docs/time-network.md). */
const cases: [string, Record<string, unknown>, string, string][] = [
  ['network/ip', { ip: '' }, 'IP cannot be empty!', 'IP不能为空！'],
  ['network/ip', { ip: '192.0.2.300' }, 'The format of the IP address is incorrect!', 'IP地址格式不正确！'],
  ['network/ip', { mask: '' }, 'Subnet mask cannot be empty!', '子网掩码不能为空！'],
  ['network/ip', { mask: '255.0.255.0' }, 'The subnet mask is incorrect!', '子网掩码不正确！'],
  [
    'network/ip',
    { gateway: '10.0.0.1' },
    'The gateway must be in the same subnet as the IP address!',
    '网关必须与IP地址在同一网段！',
  ],
  ['network/ip', { interface: '-rf /' }, 'The network interface name is incorrect!', '网卡名称不正确！'],
  ['network/ip', { verify_password: '' }, 'The password cannot be empty!', '密码不能为空！'],
  ['network/dns', { dns: [] }, 'At least one IP address must remain.', '至少保留一个IP地址！'],
  ['network/dns', { dns: ['', ' '] }, 'At least one IP address must remain.', '至少保留一个IP地址！'],
  [
    'network/dns',
    { dns: ['8.8.8'] },
    'The format of the DNS address is incorrect (one to three IP addresses)!',
    'DNS地址格式不正确（一到三个IP地址）！',
  ],
  ['time', { timezone: '../etc/passwd' }, 'The time zone is incorrect!', '时区不正确！'],
  [
    'time',
    { time: '2026-13-01 00:00:00' },
    'The time must be written as YYYY-MM-DD HH:mm:ss!',
    '时间格式应为YYYY-MM-DD HH:mm:ss！',
  ],
  [
    'time/syncd',
    { enabled: true, servers: ['ntp.example.org; rm -rf /'] },
    'An NTP server is a host name or an IP address, at most five!',
    'NTP服务器应为主机名或IP地址，最多五个！',
  ],
];

const languages = (en: string, zh: string) => [['en_us', en] as const, ['zh_cn', zh] as const];

/** A valid request of `url` with `patch` laid over it. */
const bodyOf = (url: string, patch: Record<string, unknown>, verify_password: string) => {
  if (url === 'network/dns') return { dns: ['192.0.2.53'], verify_password, ...patch };
  if (url !== 'network/ip') return patch;
  return {
    interface: 'eth0',
    ip: '192.0.2.20',
    mask: '255.255.255.0',
    gateway: '192.0.2.1',
    verify_password,
    ...patch,
  };
};

describeEachDatabase('time and network (002 §7.1 setting/time, setting/network)', (dialect) => {
  // A box of its own for each database: the suites change its clock and addresses.
  let box: FakeBox;
  beforeAll(async () => {
    box = await startFakeBox();
    process.env.SITEWATCH_HOST_SOCKET = box.socketPath;
  });
  afterAll(async () => {
    delete process.env.SITEWATCH_HOST_SOCKET;
    await box?.stop();
  });
  const t = useManualTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
  });
  let admin: Record<string, string> = {};
  let operator: Record<string, string> = {};
  let key = '';
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = admin, language = 'en_us') =>
    t.app.inject({
      method,
      url: `/api/v1/setting/${url}`,
      headers: { ...headers, 'accept-language': language },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const vp = () => encryptFor(key, password);
  const setIp = (body: Record<string, unknown>) =>
    call('POST', 'network/ip', {
      interface: 'eth0',
      ip: '192.0.2.20',
      mask: '255.255.255.0',
      gateway: '192.0.2.1',
      verify_password: vp(),
      ...body,
    });

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

  it('refuses bad input with its message (en_us and zh_cn) and changes nothing', async () => {
    const before = await snapshotDigest(t.database.db);
    const commands = box.commands.filter((c) => !/show|is-active/.test(c)).length;
    for (const [url, patch, en, zh] of cases) {
      const body = bodyOf(url, patch, vp());
      for (const [language, text] of languages(en, zh)) {
        const res = await call('POST', url, body, admin, language);
        expect(res.statusCode, `${url} ${JSON.stringify(patch)}`).toBe(400);
        expect(res.json().message, `${url} ${JSON.stringify(patch)}`).toContain(text);
      }
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);
    // A wrong password counts against the account (a row changes) but reaches no host command.
    const wrong = await call('POST', 'network/dns', {
      dns: ['1.1.1.1'],
      verify_password: encryptFor(key, 'nope-nope'),
    });
    expect(wrong.json().message).toBe('The password is incorrect. Please re-enter it!');
    expect(box.commands.filter((c) => !/show|is-active/.test(c)).length).toBe(commands);
    expect(box.files.get('/etc/resolv.conf')).toContain('nameserver 192.0.2.53');
  });

  it('a user without the pages gets 403', async () => {
    for (const url of ['time', 'network', 'time/syncd', 'service'])
      expect((await call('GET', url, undefined, operator)).statusCode).toBe(403);
    expect((await call('POST', 'time', { timezone: 'Asia/Shanghai' }, operator)).statusCode).toBe(403);
  });

  it('sets the zone, the clock and NTP with the commands of the host tools, and logs each', async () => {
    const state = await ok(await call('GET', 'time'));
    expect(state).toMatchObject({
      timezone: 'Etc/UTC',
      host: { available: true },
      ntp: { enabled: false, service: 'systemd-timesyncd' },
    });
    const set = await ok(await call('POST', 'time', { timezone: 'Asia/Shanghai', time: '2026-11-28 16:00:00' }));
    expect(set.timezone).toBe('Asia/Shanghai');
    expect(box.commands).toEqual(
      expect.arrayContaining(['timedatectl set-timezone Asia/Shanghai', 'timedatectl set-time 2026-11-28 16:00:00']),
    );
    const ntp = await ok(
      await call('POST', 'time/syncd', { enabled: true, servers: ['ntp.aliyun.com', '192.0.2.123'] }),
    );
    expect(ntp).toMatchObject({ enabled: true, synchronized: true, servers: ['ntp.aliyun.com', '192.0.2.123'] });
    expect(box.files.get('/etc/systemd/timesyncd.conf.d/sitewatch.conf')).toBe(
      '# Written by Sitewatch\n[Time]\nNTP=ntp.aliyun.com 192.0.2.123\n',
    );
    expect(box.commands.slice(-3)).toEqual([
      'timedatectl set-ntp true',
      'systemctl try-restart systemd-timesyncd.service',
      'timedatectl show',
    ]);
    // While NTP keeps the clock, a time by hand is refused before the host is asked.
    const refused = await call('POST', 'time', { time: '2026-11-28 16:00:00' }, admin, 'zh_cn');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('时钟由NTP同步：请先关闭时间同步，再手动设置时间。');
    const off = await ok(await call('POST', 'time/syncd', { enabled: false, servers: [] }));
    expect(off).toMatchObject({ enabled: false, servers: [] });
    expect(box.files.has('/etc/systemd/timesyncd.conf.d/sitewatch.conf')).toBe(false);
    const log = await t.app.inject({ method: 'GET', url: '/api/v1/operation_record?limit=10', headers: admin });
    const rows = log.json().data.data.map((r: { module: string; action: string }) => `${r.module} ${r.action}`);
    expect(rows).toEqual(
      expect.arrayContaining(['setting/time update', 'setting/time/syncd enable', 'setting/time/syncd disable']),
    );
  });

  it('sets an address and the name servers through ip and resolv.conf', async () => {
    const net = await ok(await call('GET', 'network'));
    expect(net.interfaces.map((i: { name: string }) => i.name)).toEqual(['eth0', 'lan1']);
    expect(net).toMatchObject({
      dns: ['192.0.2.53'],
      host: { available: true },
      pending: null,
      console_address: '127.0.0.1',
    });
    // Under inject the app listens on no port; HTTPS is off until the https area turns it on.
    expect(net.ports).toEqual({ http: null, https: null });
    const set = await ok(await setIp({}));
    expect(set.interfaces[0]).toMatchObject({
      addresses: [{ ip: '192.0.2.20', prefix: 24, mask: '255.255.255.0' }],
      gateway: '192.0.2.1',
    });
    expect(set.pending).toBeNull();
    expect(box.commands).toEqual(
      expect.arrayContaining([
        'ip addr replace 192.0.2.20/24 dev eth0',
        'ip addr del 192.0.2.10/24 dev eth0',
        'ip route replace default via 192.0.2.1 dev eth0',
      ]),
    );
    const noSuch = await setIp({ interface: 'eth9' });
    expect(noSuch.json().message).toBe('This box has no network interface eth9.');
    const dns = await ok(
      await call('POST', 'network/dns', { dns: ['192.0.2.54', '192.0.2.55'], verify_password: vp() }),
    );
    expect(dns.dns).toEqual(['192.0.2.54', '192.0.2.55']);
    expect(box.files.get('/etc/resolv.conf')).toBe(
      '# test box\nsearch lan\nnameserver 192.0.2.54\nnameserver 192.0.2.55\n',
    );
  });

  it('an address change of the interface the author came through asks, runs on trial and rolls back after 60 s', async () => {
    const change = { interface: 'lan1', ip: '127.0.0.9', mask: '255.0.0.0', gateway: '' };
    const asked = await setIp(change);
    expect(asked.statusCode).toBe(400);
    expect(asked.json().message).toContain('127.0.0.1');
    const trial = await ok(await setIp({ ...change, confirm_lockout: true }));
    expect(trial.pending).toMatchObject({
      interface: 'lan1',
      previous: { ip: '127.0.0.1', mask: '255.0.0.0', gateway: '' },
    });
    expect(box.interfaces[1]!.addresses).toEqual([{ ip: '127.0.0.9', prefix: 8 }]);
    await t.clock.advance(59_000);
    expect((await ok(await call('GET', 'network'))).pending).not.toBeNull();
    await t.clock.advance(1_000);
    await t.sitewatch.settled();
    expect(box.interfaces[1]!.addresses).toEqual([{ ip: '127.0.0.1', prefix: 8 }]);
    expect((await ok(await call('GET', 'network'))).pending).toBeNull();
    const log = await t.app.inject({ method: 'GET', url: '/api/v1/operation_record?limit=5', headers: admin });
    expect(log.json().data.data[0]).toMatchObject({ module: 'setting/network/ip', action: 'rollback' });
    // Kept in time: it stays.
    await ok(await setIp({ ...change, confirm_lockout: true }));
    await t.clock.advance(30_000);
    expect((await ok(await call('POST', 'network/keep', {}))).pending).toBeNull();
    await t.clock.advance(60_000);
    expect(box.interfaces[1]!.addresses).toEqual([{ ip: '127.0.0.9', prefix: 8 }]);
    expect((await call('POST', 'network/keep', {})).json().message).toBe('No address change is waiting to be kept.');
    box.interfaces[1]!.addresses = [{ ip: '127.0.0.1', prefix: 8 }];
  });

  it('services: the host NTP service through systemctl, the alarm engine stopped and started for real', async () => {
    const list = await ok(await call('GET', 'service'));
    expect(list.map((s: { name: string }) => s.name)).toEqual(['ntp', 'collector', 'alarms', 'notifier']);
    expect(await ok(await call('PUT', 'service/ntp', { action: 'start' }))).toMatchObject({ state: 'running' });
    expect(box.commands).toContain('systemctl start systemd-timesyncd.service');
    expect(await ok(await call('PUT', 'service/ntp', { action: 'stop' }))).toMatchObject({ state: 'stopped' });
    expect(await ok(await call('PUT', 'service/alarms', { action: 'stop' }))).toMatchObject({ state: 'stopped' });
    expect(await ok(await call('PUT', 'service/alarms', { action: 'restart' }))).toMatchObject({ state: 'running' });
    expect((await call('PUT', 'service/notifier', { action: 'stop' })).statusCode).toBe(409);
    expect((await call('PUT', 'service/nginx', { action: 'stop' })).statusCode).toBe(400);
    expect((await call('PUT', 'service/ntp', { action: 'reload' })).statusCode).toBe(400);
  });

  it('read-only: without systemd, without the privilege or without the helper it says why and changes nothing', async () => {
    box.refuse = 'noSystemd';
    const time = await ok(await call('GET', 'time'));
    expect(time.host).toMatchObject({ available: false, reason: 'noSystemd' });
    const refused = await call('POST', 'time', { timezone: 'Europe/Paris' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/^This box does not run systemd/);
    box.refuse = null;
    const socket = process.env.SITEWATCH_HOST_SOCKET;
    process.env.SITEWATCH_HOST_SOCKET = '/nonexistent/host.sock';
    try {
      // The verification password is checked (a row of the account changes); the settings and the log do not.
      const before = await snapshotDigest(t.database.db, ['module_settings', 'operation_logs']);
      const net = await ok(await call('GET', 'network'));
      expect(net.host).toMatchObject({ available: false, reason: 'noHelper' });
      expect(net.interfaces.length).toBeGreaterThan(0);
      const res = await setIp({});
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/^The host helper is not running on this box/);
      const zh = await call('POST', 'network/dns', { dns: ['1.1.1.1'], verify_password: vp() }, admin, 'zh_cn');
      expect(zh.json().message).toMatch(/^本机未运行主机助手，此处只读。/);
      expect((await ok(await call('GET', 'time'))).host).toMatchObject({ available: false, reason: 'noHelper' });
      expect((await ok(await call('GET', 'service')))[0]).toMatchObject({ name: 'ntp', state: 'unknown' });
      expect(await snapshotDigest(t.database.db, ['module_settings', 'operation_logs'])).toBe(before);
    } finally {
      process.env.SITEWATCH_HOST_SOCKET = socket;
    }
  });
});
