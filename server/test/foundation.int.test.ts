import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineRoute } from '@sitewatch/contract';
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { addRoute } from '../src/http/route.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

const webDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-web-'));
writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Sitewatch</title><div id="root"></div>');

describeEachDatabase('foundation', (dialect) => {
  // A JSON route to exercise body parsing: no such route exists in the foundation itself.
  const t = useTestApp(dialect, { webDir, bodyLimitBytes: 64 * 1024 }, (app) => {
    const echo = z.object({ a: z.string() });
    addRoute(
      app,
      defineRoute({
        method: 'POST',
        path: 'test/echo',
        summary: 'echo',
        body: echo,
        response: echo,
      }),
      ({ body }) => body,
      {
        auth: false,
      },
    );
    addRoute(
      app,
      defineRoute({
        method: 'GET',
        path: 'test/secret',
        summary: 'needs a user',
        response: z.number(),
      }),
      ({ request }) => request.principal?.user_id ?? 0,
    );
  });

  it('answers health and readiness with the database dialect', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ code: 0, data: { status: 'ok' } });
    const ready = await t.app.inject({
      method: 'GET',
      url: '/readyz?t=1700000000',
    });
    expect(ready.json()).toMatchObject({
      code: 0,
      data: { status: 'ok', database: dialect },
    });
  });

  it('answers an unknown API path with a 404 envelope, never HTML', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/v1/nope' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toEqual({
        code: 40400,
        message: '找不到数据或api不存在！',
        data: null,
      });
    }
    const english = await t.app.inject({
      method: 'GET',
      url: '/api/v1/nope',
      headers: { 'accept-language': 'en_us' },
    });
    expect(english.json().message).toBe('Data not found or api does not exist!');
  });

  it('serves index.html for unknown page paths (the client renders its 404 page)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no-such-page?x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });

  it('rejects malformed JSON, wrong content types and oversized bodies with 4xx envelopes', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer admin-token',
      },
      payload: '{"a":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 40001, data: null });
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().code).toBe(40002);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(100 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe(40003);
  });

  it('answers a missing or unknown token on API routes with 401 and code -2', async () => {
    const secret = (authorization?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/test/secret',
        headers: authorization ? { authorization } : {},
      });
    for (const header of [undefined, 'Bearer forged', 'Basic abc']) {
      const res = await secret(header);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: -2, data: null });
    }
    expect((await secret('Bearer admin-token')).json()).toMatchObject({
      code: 0,
      data: 1,
    });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
  });

  it('publishes an OpenAPI 3 document and its interactive page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.json().openapi).toMatch(/^3\./);
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });

  it('exposes Prometheus metrics with the HTTP latency histogram by route', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).toContain('route="/healthz"');
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });

  it('sends security headers and a request id on every answer', async () => {
    for (const url of ['/healthz', '/api/v1/nope', '/no-such-page']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
    }
  });

  it('accepts and ignores t in queries and bodies, and names the field of an invalid input', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/healthz?t=1700000000',
    });
    expect(res.statusCode).toBe(200);
    const echo = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { a: 'x', t: 1700000000 },
    });
    expect(echo.json()).toEqual({
      code: 0,
      message: '操作成功',
      data: { a: 'x' },
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { a: 5 },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 40000,
      data: { fields: [{ path: 'body.a' }] },
    });
  });

  it('authenticates push clients with the bearer token and answers pings', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`);
    const received: Array<{ type: string }> = [];
    const next = () =>
      new Promise<{ type: string; user_id?: number; code?: number }>((resolve) =>
        ws.once('message', (raw) => {
          const message = JSON.parse(String(raw));
          received.push(message);
          resolve(message);
        }),
      );
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'ping' }));
    expect((await next()).type).toBe('pong');
    ws.send(JSON.stringify({ type: 'auth', token: 'admin-token' }));
    expect(await next()).toMatchObject({ type: 'ready', user_id: 1 });
    expect(t.push.size()).toBe(1);
    const pushed = next();
    t.push.publish({ type: 'pong', server_time: 1 });
    expect(await pushed).toMatchObject({ type: 'pong', server_time: 1 });
    ws.close();
    const stranger = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`);
    await new Promise((resolve) => stranger.once('open', resolve));
    stranger.send(JSON.stringify({ type: 'auth', token: 'forged' }));
    const code = await new Promise<number>((resolve) => stranger.once('close', (c) => resolve(c)));
    expect(code).toBe(4401);
  });
});
