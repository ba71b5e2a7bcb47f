import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics at /metrics: process metrics and an HTTP latency histogram by route
 * (the route pattern, not the raw URL, so ids do not explode the label set).
 */
export interface MetricsAccess {
  token?: string | undefined;
  allow?: string[];
}

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Metrics show login counts and more: loopback, an allowed address, or the bearer token only. */
const mayRead = (access: MetricsAccess, ip: string, authorization: string | undefined) => {
  if (loopback.has(ip) || access.allow?.includes(ip)) return true;
  if (!access.token || !authorization) return false;
  const given = Buffer.from(authorization);
  const expected = Buffer.from(`Bearer ${access.token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

export const registerMetrics = (app: FastifyInstance, access: MetricsAccess = {}): Registry => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true }, config: { auth: false } }, async (request, reply) => {
    if (!mayRead(access, request.socket.remoteAddress ?? '', request.headers.authorization)) {
      return reply.code(403).type('text/plain').send('forbidden');
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
};
