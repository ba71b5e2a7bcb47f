import * as acme from 'acme-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renewal } from '../src/modules/https/service.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { servedFingerprint } from './helpers/https-certs.ts';
import { freePort, type Pebble, startPebble } from './helpers/pebble.ts';

/**
 * ACME issuance and renewal against Debian's pebble on loopback (issue 30 item 3): pebble validates
 * the HTTP-01 challenge for real, on the product's own port, resolving the domain through
 * pebble-challtestsrv's DNS (every name → 127.0.0.1); it rejects 30 % of nonces on purpose, so
 * acme-client's retries run.
 */
const domain = 'console.sitewatch.test';

const nonceRetries: string[] = [];
acme.setLogger((message) => {
  if (/invalid nonce/i.test(message)) nonceRetries.push(message);
});

describeEachDatabase('HTTPS: ACME against pebble', (dialect) => {
  const t = useManualTestApp(dialect, { mode: 'test' }, Date.now());
  const admin = { authorization: 'Bearer admin-token', 'accept-language': 'en_us' };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers: admin, ...(payload ? { payload } : {}) });
  let pebble: Pebble | undefined;
  let httpsPort = 0;

  beforeAll(async () => {
    // The product's plain HTTP port is where pebble validates the challenge.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    await t.sitewatch.start();
    const httpPort = (t.app.server.address() as { port: number }).port;
    httpsPort = await freePort();
    pebble = await startPebble({ httpPort, nonceReject: 30 });
  }, 60_000);
  afterAll(() => pebble?.stop());

  const settings = (over: object = {}) => ({
    enabled: false,
    redirect: false,
    port: httpsPort,
    acme_enabled: true,
    acme_email: 'ops@sitewatch.test',
    acme_directory_url: pebble!.directoryUrl,
    acme_directory_ca: pebble!.ca,
    ...over,
  });

  it('issues a certificate for the domain with the HTTP-01 challenge, retrying rejected nonces', async () => {
    expect((await call('PUT', 'setting/https/domain', { domain })).statusCode).toBe(200);
    expect((await call('POST', 'setting/https', settings())).statusCode).toBe(200);
    const issued = await call('POST', 'setting/https/acme');
    expect(issued.statusCode, issued.body).toBe(200);
    const state = issued.json().data;
    expect(state.certificate).toMatchObject({ names: [domain], source: 'acme' });
    expect(state.certificate.issuer).toMatch(/Pebble/);
    expect(state.acme).toMatchObject({ last_error: null, has_directory_ca: true });
    expect(issued.body).not.toMatch(/PRIVATE KEY/);
    expect(nonceRetries.length).toBeGreaterThan(0);
  }, 120_000);

  it('renews on the clock when fewer than 30 days are left, and the served certificate changes without a restart', async () => {
    const on = await call('POST', 'setting/https', settings({ enabled: true }));
    expect(on.json().data.listening_port).toBe(httpsPort);
    const first = await servedFingerprint(httpsPort, domain);
    expect(first).toBe(on.json().data.certificate.fingerprint);
    // (That a check far from expiry keeps the certificate is service.test.ts's: stepping the whole
    // app through hours of its timers is slow.)
    // 29 days before expiry: the next hourly check renews it from pebble and the listener serves it at once.
    t.clock.jump((on.json().data.certificate.not_after - 29 * 86_400) * 1000);
    await t.clock.advance(renewal.checkEveryMs);
    const after = (await call('GET', 'setting/https')).json().data;
    expect(after.certificate.fingerprint).not.toBe(first);
    expect(after.certificate.source).toBe('acme');
    expect(await servedFingerprint(httpsPort, domain)).toBe(after.certificate.fingerprint);
    const renewed = await t.database.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('module', '=', 'https')
      .execute();
    expect(renewed.map((r) => r.result)).toEqual([1]);
  }, 300_000);

  it('answers only the tokens of its own orders on the challenge path, without sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/acme-challenge/some-other-token' });
    expect(res.statusCode).toBe(404);
  });
});
