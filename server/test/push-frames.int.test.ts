import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

describeEachDatabase('push channel and bad frames', (dialect) => {
  const errors: unknown[] = [];
  const t = useTestApp(dialect, { logLevel: 'warn', logStream: { write: (line) => void errors.push(line) } });

  it('an oversized frame closes that socket, logs no error, and the channel goes on serving', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as { port: number }).port;
    const url = `ws://127.0.0.1:${port}/api/v1/ws`;
    const big = new WebSocket(url);
    await new Promise((resolve) => big.once('open', resolve));
    const closed = new Promise<number>((resolve) => big.once('close', (code) => resolve(code)));
    big.send('x'.repeat(64 * 1024));
    expect(await closed).toBe(1009);
    const next = new WebSocket(url);
    await new Promise((resolve) => next.once('open', resolve));
    const answer = new Promise<string>((resolve) => next.once('message', (m) => resolve(String(m))));
    next.send(JSON.stringify({ type: 'ping' }));
    expect(JSON.parse(await answer).type).toBe('pong');
    next.close();
    expect(errors).toEqual([]);
  });
});
