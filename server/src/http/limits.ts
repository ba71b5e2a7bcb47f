import type { Server } from 'node:net';

/** How long a client may take over one request, and how many connections one address may hold. */
export interface HttpLimits {
  /** The whole request, headers and body, must arrive within this (ms); 408 and closed after. */
  requestTimeoutMs: number;
  /** Open connections per remote address; the next one is closed at once. */
  maxConnectionsPerIp: number;
}

export const defaultHttpLimits: HttpLimits = { requestTimeoutMs: 30_000, maxConnectionsPerIp: 200 };

/**
 * Fastify's server options for these limits. Node checks `requestTimeout` only every
 * `connectionsCheckingInterval` (30 s by default), so that interval follows the timeout: a slow
 * body is cut within a quarter of the timeout after it runs out.
 */
export const httpTimeoutOptions = (limits: HttpLimits) => ({
  requestTimeout: limits.requestTimeoutMs,
  // A socket with nothing moving either way; long enough for a slow report to be computed.
  connectionTimeout: limits.requestTimeoutMs * 4,
  // Above common proxies' upstream idle time (nginx 60 s): a proxy never reuses a connection we close.
  keepAliveTimeout: 72_000,
  serverOptions: {
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(limits.requestTimeoutMs / 4))),
  },
});

/**
 * On the created server: the headers timeout follows the request timeout (Node derives it only when
 * it builds the server, and Fastify sets `requestTimeout` after; with the 60 s default left, Node
 * never cut a slow body), and connections beyond `max` open ones from the same address are closed
 * before any byte is read. The connection's own address counts (behind a reverse proxy that is the
 * proxy's: let it cap per client).
 */
export const applyHttpLimits = (server: Server & { headersTimeout: number }, limits: HttpLimits) => {
  server.headersTimeout = limits.requestTimeoutMs;
  const max = limits.maxConnectionsPerIp;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (!address) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
};

/** Which proxies' X-Forwarded-For to believe: none, a hop count, addresses/CIDRs, or any. */
export type TrustProxy = boolean | number | string[];

/**
 * Reads SITEWATCH_TRUST_PROXY: `off` (default), `true`, a hop count, or a comma-separated list of
 * proxy addresses and CIDRs. With it on, `request.ip` (rate limits, audit, login IP rules) is the
 * forwarded client address.
 */
export const parseTrustProxy = (value: string | undefined): TrustProxy => {
  const text = (value ?? '').trim();
  if (text === '' || text === 'off' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = list.find((a) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a));
  if (bad) throw new Error(`Invalid configuration:\n  SITEWATCH_TRUST_PROXY: not an address or CIDR: ${bad}`);
  return list;
};
