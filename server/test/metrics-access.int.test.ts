import { expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

describeEachDatabase('metrics access', (dialect) => {
  const t = useTestApp(dialect, { metrics: { token: 'metrics-token-0123456789', allow: ['10.0.0.7'] } });
  const read = (remoteAddress: string, authorization?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress,
      ...(authorization ? { headers: { authorization } } : {}),
    });

  it('loopback and allowed addresses read /metrics; others need the token', async () => {
    expect((await read('127.0.0.1')).statusCode).toBe(200);
    expect((await read('10.0.0.7')).statusCode).toBe(200);
    const stranger = await read('203.0.113.9');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.body).not.toContain('http_request_duration_seconds');
    expect((await read('203.0.113.9', 'Bearer wrong-token-0123456789')).statusCode).toBe(403);
    expect((await read('203.0.113.9', 'Bearer metrics-token-0123456789')).statusCode).toBe(200);
    // A forwarded address does not stand in for the connection's own.
    const forged = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(forged.statusCode).toBe(403);
  });
});
