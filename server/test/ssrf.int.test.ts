import http from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { defaultLdapConfig } from '@sitewatch/contract/ldap';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addressAllowed } from '../src/notify/outbound.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

// Issue 11, finding 8: the channel test reached internal services and echoed their body.
const internalBody = 'INTERNAL-ONLY-7f3a9c-metadata';

describeEachDatabase('outbound guard of channel tests (SSRF)', (dialect) => {
  let server: http.Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(internalBody);
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  const t = useTestApp(dialect);
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json(), raw: res.body };
  };
  const testHook = async (url: string) => {
    const created = await call('POST', 'setting/alarm_push', {
      name: `hook ${Math.random()}`,
      kind: 'webhook',
      config: { url, retries: 0, timeout_ms: 1000 },
    });
    expect(created.status).toBe(200);
    return call('POST', `setting/alarm_push/${created.body.data.id}/test`);
  };
  const outbound = (allow: string[], deny: string[] = []) =>
    call('POST', 'setting/gc', { k: 'OUTBOUND', v: { allow, deny } });

  it('refuses loopback, link-local, private and a name resolving to loopback by default, without connecting', async () => {
    const before = connections;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://100.64.0.1/',
      'http://[::1]/',
    ]) {
      const res = await testHook(url);
      expect(res.status, url).toBe(200);
      expect(res.body.data, url).toMatchObject({ result: 0, detail: 'destination not allowed' });
    }
    expect(connections).toBe(before);
  });

  it('reaches an internal range once the administrator allows it, and never echoes the remote body', async () => {
    expect((await outbound(['127.0.0.0/8'])).status).toBe(200);
    const before = connections;
    const res = await testHook(`http://127.0.0.1:${port}/`);
    expect(res.body.data).toMatchObject({ result: 0, detail: 'HTTP 500' });
    expect(res.raw).not.toContain(internalBody);
    expect(connections).toBe(before + 1);
    // A closed port reads as a short class, not the socket error's text.
    const closed = await testHook('http://127.0.0.1:1/');
    expect(closed.body.data.detail).toBe('connection failed');
    // The notification log keeps no remote body either.
    const log = await call('GET', 'notification_log?page=1&page_size=50');
    expect(log.raw).not.toContain(internalBody);
  });

  it('a deny entry wins over an allow entry; the setting is validated', async () => {
    expect((await outbound(['127.0.0.0/8'], [`127.0.0.1/32`])).status).toBe(200);
    const before = connections;
    const res = await testHook(`http://127.0.0.1:${port}/`);
    expect(res.body.data.detail).toBe('destination not allowed');
    expect(connections).toBe(before);
    const bad = await outbound(['not-a-range']);
    expect(bad.status).toBe(400);
    const read = await call('GET', 'setting/gc?k=OUTBOUND');
    expect(read.body.data).toEqual({ allow: ['127.0.0.0/8'], deny: ['127.0.0.1/32'] });
    expect((await outbound([])).status).toBe(200);
  });
});

describeEachDatabase('outbound guard of the LDAP and mail tests (issue 27)', (dialect) => {
  // A port that counts connections and closes each at once: the LDAP client and the mailer fail
  // fast on it, and the count says whether a connection was attempted.
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  const t = useTestApp(dialect);
  const call = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token', 'accept-language': 'en_us' },
      payload: payload as object,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const { bind_password: _kept, ...ldapDefaults } = defaultLdapConfig;
  const ldapTest = (host: string) =>
    call('POST', 'setting/ldap/test', {
      ...ldapDefaults,
      url: `ldap://${host}:${port}`,
      base_dn: 'dc=sitewatch,dc=test',
      timeout_seconds: 2,
    });
  const mailTest = async (host: string) => {
    const saved = await call('PUT', 'setting/email_service', {
      host,
      port,
      security: 'none',
      user: '',
      password: '',
      from: 'alarm@example.com',
      enable: true,
    });
    expect(saved.status).toBe(200);
    return call('POST', 'setting/email_service', { to: 'duty@example.com' });
  };

  it('refuses a directory or mail server on loopback, link-local or private ranges, without connecting', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '169.254.169.254', '10.0.0.1', '[::1]']) {
      const ldap = await ldapTest(host);
      expect(ldap.status, host).toBe(400);
      expect(ldap.body.message, host).toMatch(
        /^The LDAP server's address is not among the allowed outbound destinations/,
      );
      const mail = await mailTest(host.replace(/^\[|\]$/g, ''));
      expect(mail.status, host).toBe(200);
      expect(mail.body.data, host).toMatchObject({ result: 0, detail: 'destination not allowed' });
    }
    expect(connections).toBe(0);
  });

  it('connects once the administrator allows the range; a deny entry wins', async () => {
    const outbound = (allow: string[], deny: string[]) =>
      call('POST', 'setting/gc', { k: 'OUTBOUND', v: { allow, deny } });
    expect((await outbound(['127.0.0.0/8'], [])).status).toBe(200);
    const ldap = await ldapTest('127.0.0.1');
    expect(ldap.body.message).toMatch(/^Cannot connect to the LDAP server/);
    expect(connections).toBe(1);
    expect((await mailTest('127.0.0.1')).body.data).toMatchObject({ result: 0 });
    expect(connections).toBe(2);
    expect((await outbound(['127.0.0.0/8'], ['127.0.0.1/32'])).status).toBe(200);
    expect((await ldapTest('127.0.0.1')).body.message).toMatch(/not among the allowed outbound destinations/);
    expect((await mailTest('127.0.0.1')).body.data).toMatchObject({ detail: 'destination not allowed' });
    expect(connections).toBe(2);
  });
});

it('default ranges: loopback, link-local, RFC 1918, CGNAT, ULA, unspecified refused; public allowed', () => {
  const none = { allow: [], deny: [] };
  for (const a of ['127.0.0.1', '0.0.0.0', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1'])
    expect(addressAllowed(a, none), a).toBe(false);
  for (const a of ['169.254.169.254', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1'])
    expect(addressAllowed(a, none), a).toBe(false);
  for (const a of ['93.184.216.34', '172.32.0.1', '2606:4700::1111']) expect(addressAllowed(a, none), a).toBe(true);
  expect(addressAllowed('10.9.8.7', { allow: ['10.0.0.0/8'], deny: [] })).toBe(true);
  expect(addressAllowed('8.8.8.8', { allow: [], deny: ['8.8.8.0/24'] })).toBe(false);
});
