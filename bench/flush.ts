// Benchmark: one series-store flush of N items with one sample each (the 1 Hz shape), repeated;
// prints wall and CPU time per flush (CPU time stays meaningful on a machine shared with others).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
import { createPgDatabase } from './pg-db.ts';

const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const pgUrl = process.env.BENCH_PG_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-flush-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);
const store = createSeriesStore(db);
const wall: number[] = [];
const cpu: number[] = [];
const t0 = Date.now();
for (let r = 0; r < rounds; r++) {
  for (let id = 1; id <= items; id++) store.append(id, t0 + r * 1000, r + id / 1000);
  const c = process.cpuUsage();
  const started = performance.now();
  await store.flush();
  wall.push(performance.now() - started);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
}
const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0);
console.log(
  JSON.stringify({
    database: db.dialect,
    items,
    rounds,
    flush_wall_ms_median: median(wall),
    flush_cpu_ms_median: median(cpu),
    samples_per_cpu_s: Math.round(items / (median(cpu) / 1000)),
  }),
);
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
