import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/** A self-signed certificate for localhost, made for this run. */
const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-tls-'));
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-days',
    '1',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
  ],
  { stdio: 'ignore' },
);
const cert = readFileSync(path.join(dir, 'cert.pem'));
const key = readFileSync(path.join(dir, 'key.pem'));

const get = (port: number, urlPath: string) =>
  new Promise<{ status: number; hsts: string | undefined }>((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, path: urlPath, servername: 'localhost', ca: cert }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, hsts: res.headers['strict-transport-security'] as string | undefined });
      })
      .on('error', reject);
  });

describeEachDatabase('TLS', (dialect) => {
  const secure = useTestApp(dialect, { tls: { cert, key } });
  const plain = useTestApp(dialect);
  let port = 0;
  beforeAll(async () => {
    await secure.app.listen({ host: '127.0.0.1', port: 0 });
    port = (secure.app.server.address() as AddressInfo).port;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers /healthz over HTTPS with Strict-Transport-Security', async () => {
    const res = await get(port, '/healthz');
    expect(res.status).toBe(200);
    expect(res.hsts).toMatch(/max-age=31536000/);
  });

  it('sends no HSTS without TLS', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
