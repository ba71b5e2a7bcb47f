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

/** Resolves with what the server sent, once it has closed the connection. */
const outcome = (socket: net.Socket) =>
  new Promise<string>((resolve) => {
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('error', () => {});
    socket.once('close', () => resolve(data));
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
  /** The server's side of each connection, as it accepted them (after the cap's own listener counted it). */
  const accepted: net.Socket[] = [];
  let onAccepted: () => void = () => undefined;
  beforeAll(async () => {
    t.app.server.on('connection', (socket: net.Socket) => {
      accepted.push(socket);
      onAccepted();
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  /** Resolves once the server has accepted `n` connections in all. */
  const acceptedCount = (n: number) =>
    new Promise<void>((resolve) => {
      onAccepted = () => {
        if (accepted.length >= n) resolve();
      };
      onAccepted();
    });

  // Node's HTTP server enforces the request timeout on its own real-time clock, so this client drips
  // its body in real time; what is awaited is the server closing the connection.
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
    const data = await outcome(socket);
    clearInterval(drip);
    socket.destroy();
    // 2 s timeout, checked every 500 ms: cut after a few bytes, not after 100 s.
    expect(sent).toBeLessThan(length / 2);
    expect(data).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes the connection beyond the cap from one address while others are served', async () => {
    const before = accepted.length;
    const held = await Promise.all(Array.from({ length: cap }, () => connect(port)));
    // The server has counted them before the next one arrives.
    await acceptedCount(before + cap);
    const refused = await connect(port);
    expect(await outcome(refused)).toBe('');
    // The held connections are served, and so is another address.
    expect(await get(held[0]!, '/healthz')).toBe('HTTP/1.1 200 OK');
    const other = await connect(port, '127.0.0.2');
    expect(await get(other, '/healthz')).toBe('HTTP/1.1 200 OK');
    other.destroy();
    // A slot freed is a slot again, once the server has seen its side close.
    const serverSide = accepted.find((s) => s.remotePort === held[1]!.localPort)!;
    const closed = new Promise((r) => serverSide.once('close', r));
    held[1]!.destroy();
    await closed;
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
