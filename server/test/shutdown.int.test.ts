import { defineRoute } from '@sitewatch/contract';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { addRoute } from '../src/http/route.ts';
import { useTestApp } from './helpers/build-app.ts';

let arrived: () => void = () => undefined;
const requestArrived = new Promise<void>((resolve) => {
  arrived = resolve;
});
// The request stays in flight until the server has stopped listening (close() has begun).
let finish: () => void = () => undefined;
const finished = new Promise<void>((resolve) => {
  finish = resolve;
});
const t = useTestApp('sqlite', {}, (app) =>
  addRoute(
    app,
    defineRoute({ method: 'GET', path: 'test/slow', summary: 'slow', response: z.string() }),
    async () => {
      arrived();
      await finished;
      return 'done';
    },
    { auth: false },
  ),
);

it('finishes in-flight requests before closing', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const inFlight = fetch(`http://127.0.0.1:${port}/api/v1/test/slow`);
  await requestArrived;
  const server = t.app.server;
  const stopListening = server.close.bind(server);
  server.close = ((callback?: (err?: Error) => void) => {
    stopListening(callback);
    finish();
    return server;
  }) as typeof server.close;
  const closed = t.app.close();
  const res = await inFlight;
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ code: 0, data: 'done' });
  await closed;
});
