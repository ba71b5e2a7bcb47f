import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy, type TrustProxy } from '../src/http/limits.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/** Opens a raw connection; resolves once connected (the server may still close it right after). */
const connect = (port: number, localAddress = '127.0.0.1') =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });

/** Resolves with what the server sent and how long until the connection ended, or null if still open after `ms`. */
const outcome = (socket: net.Socket, ms: number) =>
  new Promise<{ data: string; afterMs: number } | null>((resolve) => {
    const started = Date.now();
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('error', () => {});
    const timer = setTimeout(() => resolve(null), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ data, afterMs: Date.now() - started });
    });
  });

/** A GET on an open socket: the status line of the answer. */
const get = (socket: net.Socket, path: string) =>
  new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
    socket.once('close', () => reject(new Error('closed without an answer')));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  });

describeEachDatabase('request timeout and connection cap', (dialect) => {
  const cap = 3;
  const t = useTestApp(dialect, { httpLimits: { requestTimeoutMs: 2_000, maxConnectionsPerIp: cap } });
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
  });

  it('cuts a body sent a byte a second long before it is complete', async () => {
    const socket = await connect(port);
    const length = 100;
    socket.write(
      `POST /api/v1/pub/login/safe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
    );
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < length && !socket.destroyed) {
        socket.write('x');
        sent += 1;
      }
    }, 1_000);
    const result = await outcome(socket, 20_000);
    clearInterval(drip);
    socket.destroy();
    // 2 s timeout, checked every 500 ms: cut after a few bytes, not after 100 s.
    expect(result).not.toBeNull();
    expect(result!.afterMs).toBeLessThan(5_000);
    expect(sent).toBeLessThan(6);
    expect(result!.data).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes the connection beyond the cap from one address while others are served', async () => {
    const held = await Promise.all(Array.from({ length: cap }, () => connect(port)));
    // Let the server count them before the next one arrives.
    await new Promise((r) => setTimeout(r, 100));
    const refused = await connect(port);
    const fate = await outcome(refused, 3_000);
    expect(fate).not.toBeNull();
    expect(fate!.data).toBe('');
    // The held connections are served, and so is another address.
    expect(await get(held[0]!, '/healthz')).toBe('HTTP/1.1 200 OK');
    const other = await connect(port, '127.0.0.2');
    expect(await get(other, '/healthz')).toBe('HTTP/1.1 200 OK');
    other.destroy();
    // A slot freed is a slot again.
    const closed = new Promise((r) => held[1]!.once('close', r));
    held[1]!.destroy();
    await closed;
    await new Promise((r) => setTimeout(r, 100));
    const again = await connect(port);
    expect(await get(again, '/healthz')).toBe('HTTP/1.1 200 OK');
    for (const socket of [...held, again]) socket.destroy();
  });
});

for (const trustProxy of [false, ['127.0.0.1'], 1] satisfies TrustProxy[]) {
  describeEachDatabase(`trusted proxy ${JSON.stringify(trustProxy)}`, (dialect) => {
    const t = useTestApp(dialect, {
      trustProxy,
      loginRateLimit: { max: 1, timeWindow: 60_000 },
    });
    const on = trustProxy !== false;
    const login = (forwardedFor: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/pub/login/safe',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': forwardedFor },
        payload: { user_name: 'x', password: 'x' },
      });

    it(on ? 'uses the forwarded client address' : 'ignores X-Forwarded-For', async () => {
      // The rate limit counts per request.ip: a second client behind the proxy has its own budget.
      expect((await login('198.51.100.1')).statusCode).not.toBe(429);
      expect((await login('198.51.100.2')).statusCode).toBe(on ? 400 : 429);
      expect((await login('198.51.100.2')).statusCode).toBe(429);
      // The audit log records the same address.
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/overview/alarm_count_clear',
        remoteAddress: '127.0.0.1',
        headers: { authorization: 'Bearer admin-token', 'x-forwarded-for': '198.51.100.3' },
        payload: {},
      });
      expect(res.statusCode).toBe(200);
      const rows = await t.database.db.kysely.selectFrom('operation_logs').select('ip').execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.ip).toBe(on ? '198.51.100.3' : '127.0.0.1');
    });
  });
}

describe('SITEWATCH_TRUST_PROXY', () => {
  it('reads off, true, a hop count and an address list; refuses anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('off')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(() => parseTrustProxy('proxy.example')).toThrow(/SITEWATCH_TRUST_PROXY/);
  });
});
