// Benchmark: latency of the HTTP core (envelope, auth hook, metrics, security headers) over a
// real loopback socket, on a fresh SQLite database. Prints requests/s and p50/p99 latency.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createLoginKey, generateLoginKeyPem } from '../server/src/modules/auth/index.ts';
import { createPushHub } from '../server/src/push/hub.ts';

const total = Number(process.env.BENCH_REQUESTS ?? 20_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-'));
const db = openDb({ dataDir });
await migrateToLatest(db.kysely);
const app = await buildApp({
  db,
  push: createPushHub(),
  loginKey: createLoginKey(generateLoginKeyPem()),
  logLevel: 'silent',
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const get = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const start = process.hrtime.bigint();
    request({ host: '127.0.0.1', port, path: url, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
    })
      .on('error', reject)
      .end();
  });

for (const url of ['/readyz', '/api/v1/nope']) {
  const latencies: number[] = [];
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        latencies.push(await get(url));
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]?.toFixed(2);
  console.log(
    `GET ${url}: ${Math.round(latencies.length / seconds)} req/s, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms (${latencies.length} requests, ${concurrency} at once)`,
  );
}
await app.close();
await db.close();
rmSync(dataDir, { recursive: true, force: true });
