// Benchmark: the collector's periodic write of item rows (value, state, last check) with N items
// all changed, as every 5 s on a server polling them. Prints the write's duration and the longest
// the event loop was held meanwhile (what /readyz waits), on SQLite or PostgreSQL (BENCH_PG_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEventBus } from '../server/src/bus/bus.ts';
import { createCollector } from '../server/src/collector/collector.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { seedEstate } from './estate.ts';
import { createPgDatabase } from './pg-db.ts';

const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const pgUrl = process.env.BENCH_PG_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-rows-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);
const { devices } = await seedEstate(db, { items, perDevice: 100 });
const collector = createCollector({ db, bus: createEventBus(), drivers: {} });
await collector.load();

const durations: number[] = [];
const stalls: number[] = [];
for (let r = 0; r < rounds; r++) {
  const ts = Date.now();
  for (const d of devices) {
    const values = new Map<number, number>();
    for (const id of d.items) values.set(id, r + id / 1000);
    collector.accept(d.id, { values, errors: new Map() }, ts);
  }
  // The longest gap between two 1 ms timers while the write runs: how long a request would wait.
  let last = performance.now();
  let worst = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await collector.persist();
  durations.push(performance.now() - started);
  clearInterval(probe);
  worst = Math.max(worst, performance.now() - last);
  stalls.push(worst);
}
const written = await db.kysely
  .selectFrom('items')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('last_check', '>', 0)
  .executeTakeFirstOrThrow();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(
  JSON.stringify(
    {
      database: db.dialect,
      items,
      rounds,
      rows_written: Number(written.n),
      write_ms_median: Math.round(median(durations)),
      longest_stall_ms_median: Math.round(median(stalls)),
      longest_stall_ms_max: Math.round(Math.max(...stalls)),
      stalls_ms: stalls.map(Math.round),
    },
    null,
    2,
  ),
);
if (Number(written.n) !== items) process.exitCode = 1;
await collector.stop();
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
