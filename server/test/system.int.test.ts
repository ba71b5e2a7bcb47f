import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import serverPackage from '../package.json' with { type: 'json' };
import { findBinary } from '../src/modules/system/tools.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { type AdminCall, type Headers, realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { createUser, encryptFor, loginHeader, publicKeyOf } from './helpers/login.ts';

/** Loopback allowed for the tools' own peers here; 10.9.9.0/24 denied by the administrator. */
const deps = {
  ...realLogin,
  globalConfigDefaults: {
    ...realLogin.globalConfigDefaults,
    OUTBOUND: { allow: ['127.0.0.0/8'], deny: ['10.9.9.0/24'] },
  },
};

describeEachDatabase('system pages (docs/system.md)', (dialect) => {
  const t = useTestApp(dialect, deps);
  let call: AdminCall;
  let operator: Headers;
  let key: string;
  const logRows = (module: string) =>
    t.database.db.kysely.selectFrom('operation_logs').selectAll().where('module', '=', module).orderBy('id').execute();

  beforeAll(async () => {
    ({ call } = await signInFirstAdmin(t));
    key = await publicKeyOf(t.app);
    // An operator holding the information page (410) and nothing of the administrator's.
    await t.database.db.kysely
      .insertInto('roles')
      .values({ id: 7, name: 'operators', remark: '', created_at: 0 })
      .execute();
    await t.database.db.kysely.insertInto('role_menus').values({ role_id: 7, menu_id: 410 }).execute();
    await createUser(t.database.db, 'operator', 'Oper-Pass-123', [7]);
    operator = await loginHeader(t.app, 'operator', 'Oper-Pass-123');
  });

  it('the information page answers version, database, counts and licence; the menu gates it', async () => {
    await call('POST', 'setting/device_groups', undefined, { name: 'Room A', weight: 1 });
    const res = await call('GET', 'setting/maintain/sys_information');
    expect(res.statusCode).toBe(200);
    const info = res.json().data;
    expect(info.version).toBe(serverPackage.version);
    expect(info.database.kind).toBe(dialect);
    expect(info.database.size_bytes).toBeGreaterThan(0);
    expect(info.counts.sites).toBeGreaterThanOrEqual(1);
    expect(info.licence.state).toBe('trial');
    expect((await call('GET', 'setting/maintain/sys_information', operator)).statusCode).toBe(200);
    const stranger = await createUser(t.database.db, 'stranger', 'Strange-Pass-123', []);
    expect(stranger).toBeTruthy();
    const strangerHeaders = await loginHeader(t.app, 'stranger', 'Strange-Pass-123');
    expect((await call('GET', 'setting/maintain/sys_information', strangerHeaders)).statusCode).toBe(403);
  });

  describe('tools', () => {
    let peer: net.Server;
    let openPort = 0;
    let closedPort = 0;
    beforeAll(async () => {
      peer = net.createServer((s) => s.end());
      await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
      openPort = (peer.address() as net.AddressInfo).port;
      const closed = net.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      closedPort = (closed.address() as net.AddressInfo).port;
      await new Promise((r) => closed.close(r));
    });
    afterAll(() => new Promise((r) => peer.close(r)));

    it('a port check tells an open port from a closed one, and is logged', async () => {
      const open = await call('POST', 'setting/maintain/tools/port', undefined, { host: '127.0.0.1', port: openPort });
      expect(open.statusCode).toBe(200);
      expect(open.json().data).toMatchObject({ success: true, address: '127.0.0.1', output: 'open' });
      const closed = await call('POST', 'setting/maintain/tools/port', undefined, {
        host: 'localhost',
        port: closedPort,
      });
      expect(closed.json().data).toMatchObject({ success: false, output: 'refused' });
      const rows = await logRows('setting/maintain/tools/port');
      expect(rows.map((r) => [r.action, r.target, r.result])).toEqual([
        ['test', `127.0.0.1:${openPort}`, 1],
        ['test', `localhost:${closedPort}`, 0],
      ]);
    });

    it('bad input is a 400 with a message, never a run', async () => {
      const bad = [
        { host: '-oProxyCommand=touch /tmp/x', port: 80 },
        { host: '127.0.0.1; rm -rf /', port: 80 },
        { host: '$(reboot)', port: 80 },
        { host: '', port: 80 },
        { host: '300.1.1.1', port: 80 },
        { host: '127.0.0.1', port: 0 },
        { host: '127.0.0.1', port: 70000 },
        { host: '127.0.0.1', port: 80, timeout_ms: 60_000 },
        { host: '127.0.0.1', port: 80, extra: 1 },
      ];
      for (const body of bad) {
        const res = await call('POST', 'setting/maintain/tools/port', undefined, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBeTruthy();
      }
      expect((await call('POST', 'setting/maintain/tools/ping', undefined, { host: 'a b' })).statusCode).toBe(400);
      expect(
        (await call('POST', 'setting/maintain/tools/ping', undefined, { host: '127.0.0.1', count: 11 })).statusCode,
      ).toBe(400);
      expect(
        (await call('POST', 'setting/maintain/tools/traceroute', undefined, { host: '127.0.0.1', max_hops: 31 }))
          .statusCode,
      ).toBe(400);
    });

    it('the outbound guard refuses the denied, link-local and unallowed ranges', async () => {
      for (const host of ['10.9.9.9', '169.254.169.254', '0.0.0.0', '::1']) {
        const res = await call('POST', 'setting/maintain/tools/port', undefined, { host, port: 80, timeout_ms: 200 });
        expect(res.statusCode, host).toBe(400);
        expect(res.json().message).toContain('出站');
      }
      // A name that does not resolve says so.
      const unknown = await call('POST', 'setting/maintain/tools/port', undefined, {
        host: 'no-such-host.invalid',
        port: 80,
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toContain('no-such-host.invalid');
    });

    it('ping and traceroute run bounded against loopback, or say the tool is missing', async () => {
      const state = (await call('GET', 'setting/maintain/tools')).json().data;
      expect(state.port).toEqual({ available: true, reason: '' });
      const ping = await call('POST', 'setting/maintain/tools/ping', undefined, { host: '127.0.0.1', count: 1 });
      if (findBinary('ping')) {
        expect(ping.statusCode).toBe(200);
        expect(ping.json().data.success).toBe(true);
        expect(ping.json().data.output).toContain('1 received');
      } else {
        expect(ping.statusCode).toBe(409);
        expect(state.ping).toEqual({ available: false, reason: 'binaryMissing' });
      }
      const trace = await call('POST', 'setting/maintain/tools/traceroute', undefined, {
        host: '127.0.0.1',
        max_hops: 2,
      });
      if (findBinary('traceroute')) {
        expect(trace.statusCode).toBe(200);
        expect(trace.json().data).toMatchObject({ success: true, address: '127.0.0.1' });
      } else expect(trace.statusCode).toBe(409);
    });

    it('only administrators run tools', async () => {
      expect((await call('GET', 'setting/maintain/tools', operator)).statusCode).toBe(403);
      for (const [path, body] of [
        ['ping', { host: '127.0.0.1', count: 1 }],
        ['traceroute', { host: '127.0.0.1' }],
        ['port', { host: '127.0.0.1', port: openPort }],
      ] as const) {
        const res = await call('POST', `setting/maintain/tools/${path}`, operator, body);
        expect(res.statusCode, path).toBe(403);
      }
    });
  });

  describe('SM4 key and debug log', () => {
    const sm4Key = '0123456789abcdef0123456789abcdef';
    it('the key needs the verification password, is sealed at rest, never answered, and audited', async () => {
      expect((await call('GET', 'setting/maintain/sm4')).json().data).toEqual({
        enabled: false,
        key_set: false,
        fingerprint: '',
        updated_at: 0,
      });
      const save = (body: object) => call('POST', 'setting/maintain/sm4', undefined, body);
      expect((await save({ enabled: true, key: sm4Key })).statusCode).toBe(400);
      const wrong = await save({ enabled: true, key: sm4Key, verify_password: encryptFor(key, 'not-my-password') });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('密码错误，请重新输入！');
      const good = encryptFor(key, 'Admin-Strong-91');
      expect((await save({ enabled: true, key: 'xyz', verify_password: good })).statusCode).toBe(400);
      expect((await save({ enabled: true, key: '', verify_password: good })).statusCode).toBe(400);
      const saved = await save({ enabled: true, key: sm4Key, verify_password: good });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().data).toMatchObject({
        enabled: true,
        key_set: true,
        fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/),
      });
      expect(saved.body).not.toContain(sm4Key);
      // The stored row holds the key sealed, not in clear.
      const row = await t.database.db.kysely
        .selectFrom('module_settings')
        .select('v')
        .where('k', '=', 'sm4')
        .executeTakeFirstOrThrow();
      expect(row.v).not.toContain(sm4Key);
      // Switching off keeps the key.
      const off = await save({ enabled: false, verify_password: good });
      expect(off.json().data).toMatchObject({
        enabled: false,
        key_set: true,
        fingerprint: saved.json().data.fingerprint,
      });
      const rows = await logRows('setting/maintain/sm4');
      expect(rows.map((r) => [r.action, r.detail])).toEqual([
        ['update', JSON.stringify({ code: 'sm4KeyEnabled' })],
        ['update', JSON.stringify({ code: 'sm4Disabled' })],
      ]);
      expect((await call('GET', 'setting/maintain/sm4', operator)).statusCode).toBe(403);
      expect(
        (await call('POST', 'setting/maintain/sm4', operator, { enabled: false, verify_password: good })).statusCode,
      ).toBe(403);
    });

    it('the debug log is for administrators, and says where it comes from or why it cannot', async () => {
      const state = (await call('GET', 'setting/maintain/debug_log/state')).json().data;
      expect(state.encrypted).toBe(false);
      const download = await call('GET', 'setting/maintain/debug_log?mb=1');
      if (state.available) {
        expect(download.statusCode).toBe(200);
        expect(download.headers['content-disposition']).toContain('sitewatch-debug.log');
        const rows = await logRows('setting/maintain/debug_log');
        expect(rows.at(-1)?.action).toBe('export');
      } else {
        expect(state.reason).toBe('noLogSource');
        expect(download.statusCode).toBe(409);
      }
      expect((await call('GET', 'setting/maintain/debug_log?mb=0')).statusCode).toBe(400);
      expect((await call('GET', 'setting/maintain/debug_log?mb=51')).statusCode).toBe(400);
      expect((await call('GET', 'setting/maintain/debug_log?mb=1', operator)).statusCode).toBe(403);
      expect((await call('GET', 'setting/maintain/debug_log/state', operator)).statusCode).toBe(403);
    });
  });
});
