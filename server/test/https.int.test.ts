import { request } from 'node:https';
import { createServer } from 'node:net';
import { pushPath } from '@sitewatch/contract/push';
import { beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { makePair, servedFingerprint } from './helpers/https-certs.ts';
import { createFirstAdmin, encryptFor, publicKeyOf } from './helpers/login.ts';

const day = 86_400_000;
const start = Date.now();
const a = makePair('a.sitewatch.test');
const b = makePair('b.sitewatch.test');
const expired = makePair('old.sitewatch.test', { from: start - 400 * day, to: start - day });
const future = makePair('new.sitewatch.test', { from: start + 10 * day });

/** A call over the HTTPS listener (the test's self-signed certificates are not checked). */
const overHttps = (port: number, method: string, url: string, body: object) =>
  new Promise<{ code: number; data: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        rejectUnauthorized: false,
        headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describeEachDatabase('HTTPS', (dialect) => {
  const t = useManualTestApp(dialect, { mode: 'test' }, start);
  const admin = { authorization: 'Bearer admin-token', 'accept-language': 'en_us' };
  let password = '';
  let key = '';
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers: admin, ...(payload ? { payload } : {}) });
  const upload = (cert: string, keyPem: string, pw = password) =>
    call('POST', 'setting/https/cert_file', {
      cert_file: cert,
      key_file: keyPem,
      verify_password: encryptFor(key, pw),
    });
  const stored = async () =>
    (await t.database.db.kysely.selectFrom('module_settings').select('v').where('k', '=', 'HTTPS').executeTakeFirst())
      ?.v ?? '';

  beforeAll(async () => {
    password = await createFirstAdmin(t.database.db);
    key = await publicKeyOf(t.app);
    await t.sitewatch.start();
  });

  it('refuses garbage, a mismatched pair, an expired certificate and a wrong password with messages, changing nothing', async () => {
    const before = await stored();
    const cases: [Awaited<ReturnType<typeof upload>>, RegExp][] = [
      [await upload('not a certificate', a.key), /not a valid PEM certificate/],
      [await upload(a.cert, 'garbage'), /not a valid PEM private key/],
      [await upload(a.cert, b.key), /do not match/],
      [await upload(expired.cert, expired.key), /has expired/],
      [await upload(future.cert, future.key), /not valid yet/],
      [await upload(a.cert, a.key, 'wrong-password'), /incorrect/],
      [
        await call('POST', 'setting/https/cert_file', { cert_file: '', key_file: '', verify_password: 'x' }),
        /cannot be empty/,
      ],
    ];
    for (const [res, message] of cases) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    // The same refusal in the spec's language.
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/setting/https/cert_file',
      headers: { authorization: 'Bearer admin-token', 'accept-language': 'zh_cn' },
      payload: { cert_file: a.cert, key_file: b.key, verify_password: encryptFor(key, password) },
    });
    expect(zh.json().message).toBe('证书与私钥不匹配！');
    expect(await stored()).toBe(before);
    expect((await call('GET', 'setting/https')).json().data.certificate).toBeNull();
    // HTTPS cannot be turned on without a certificate.
    const on = await call('POST', 'setting/https', settings({ enabled: true }));
    expect(on.statusCode).toBe(400);
  });

  let port = 0;
  const settings = (over: object = {}) => ({
    enabled: false,
    redirect: false,
    port,
    acme_enabled: false,
    acme_email: '',
    acme_directory_url: '',
    ...over,
  });

  it('installs a matching pair, shows subject and expiry, never returns or stores the key in clear, and logs it', async () => {
    const res = await upload(a.cert, a.key);
    expect(res.statusCode, res.body).toBe(200);
    const cert = res.json().data.certificate;
    expect(cert).toMatchObject({ subject: 'CN=a.sitewatch.test', names: ['a.sitewatch.test'], source: 'upload' });
    expect(cert.days_left).toBeGreaterThan(3600);
    expect(res.body).not.toMatch(/PRIVATE KEY/);
    expect((await call('GET', 'setting/https')).body).not.toMatch(/PRIVATE KEY/);
    expect(await stored()).not.toMatch(/PRIVATE KEY/);
    const root = await call('GET', 'setting/https/root_cert');
    expect(root.headers['content-type']).toMatch(/pem/);
    expect(root.body.trim()).toBe(a.cert.trim());
    const log = await t.database.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('module', '=', 'setting/https/cert_file')
      .execute();
    expect(log).toHaveLength(1);
  });

  it('serves HTTPS and a new certificate without a restart; plain HTTP redirects but for the ACME path', async () => {
    port = await freePort();
    const on = await call('POST', 'setting/https', settings({ enabled: true, redirect: true }));
    expect(on.json().data, on.body).toMatchObject({ enabled: true, listening_port: port, listen_error: null });
    const first = await servedFingerprint(port);
    // The push channel's WebSocket upgrades over the HTTPS listener too.
    const socket = new WebSocket(`wss://127.0.0.1:${port}${pushPath}`, { rejectUnauthorized: false });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.close();
    expect(first).toBe(on.json().data.certificate.fingerprint);
    // Plain HTTP (inject: no TLS socket) now redirects; the challenge path does not.
    const plain = await t.app.inject({
      method: 'GET',
      url: '/api/v1/setting/https',
      headers: { host: 'box.lan:8080' },
    });
    expect(plain.statusCode).toBe(308);
    expect(plain.headers.location).toBe(`https://box.lan:${port}/api/v1/setting/https`);
    const challenge = await t.app.inject({ method: 'GET', url: '/.well-known/acme-challenge/unknown-token' });
    expect(challenge.statusCode).toBe(404);
    // Over HTTPS (plain HTTP redirects now) the redirect is turned off; then B is installed: the listener serves it at once.
    const viaHttps = await overHttps(
      port,
      'POST',
      '/api/v1/setting/https',
      settings({ enabled: true, redirect: false }),
    );
    expect(viaHttps).toMatchObject({ code: 0, data: { redirect: false } });
    expect((await upload(b.cert, b.key)).statusCode).toBe(200);
    const second = await servedFingerprint(port);
    expect(second).not.toBe(first);
    expect(second).toBe((await call('GET', 'setting/https')).json().data.certificate.fingerprint);
    // Off: the listener closes.
    const off = await call('POST', 'setting/https', settings({ enabled: false }));
    expect(off.json().data.listening_port).toBeNull();
    await expect(servedFingerprint(port)).rejects.toThrow();
  });

  it('validates the domain and the settings', async () => {
    expect((await call('PUT', 'setting/https/domain', { domain: 'not a domain!' })).statusCode).toBe(400);
    expect((await call('POST', 'setting/https', settings({ port: 70000 }))).statusCode).toBe(400);
    expect((await call('POST', 'setting/https', settings({ redirect: true }))).statusCode).toBe(400);
    const ok = await call('PUT', 'setting/https/domain', { domain: 'Console.Example.COM' });
    expect(ok.json().data.domain).toBe('console.example.com');
  });
});
