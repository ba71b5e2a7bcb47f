// Benchmark: N items fed at a fixed rate through the collector (state evaluation, live values)
// into the series store, on SQLite (default) or PostgreSQL (BENCH_PG_URL). Prints the samples/s
// stored, the flush (batch write) latency p50/p99, and the sample age at write p99.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEventBus } from '../server/src/bus/bus.ts';
import { createCollector } from '../server/src/collector/collector.ts';
import type { ReadResult } from '../server/src/collector/driver.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
import { seedEstate } from './estate.ts';
import { createPgDatabase } from './pg-db.ts';

const items = Number(process.env.BENCH_ITEMS ?? 10_000);
const rate = Number(process.env.BENCH_RATE ?? 25); // samples per item per second
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const perDevice = 100;
const pgUrl = process.env.BENCH_PG_URL;

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-ingest-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);

// A site with N/100 simulated devices of 100 items each, as the API would store them.
const { devices } = await seedEstate(db, { items, perDevice });

// Wired as app.ts wires them: the collector publishes samples on the bus, the store subscribes.
const store = createSeriesStore(db, { flushEveryMs: 1000 });
const bus = createEventBus();
bus.subscribe('sample', (e) => {
  if (e.value !== null) store.append(e.item_id, e.ts_ms, e.value);
});
const collector = createCollector({ db, bus, drivers: {}, persistEveryMs: 5000 });
await collector.load();
store.start();

// Fixed-rate feed: every tick, each device answers with a value for each of its items. Ticks that
// come due while a flush holds the thread are fed on the next turn, so the offered rate is exact.
const tickMs = 1000 / rate;
const started = performance.now();
let ticks = 0;
let offered = 0;
const ages: number[] = [];
const wallStart = Date.now();
while (performance.now() - started < seconds * 1000) {
  const due = Math.floor((performance.now() - started) / tickMs);
  while (ticks < due) {
    const ts = wallStart + ticks * tickMs;
    for (const d of devices) {
      const values = new Map<number, number>();
      for (const id of d.items) values.set(id, 20 + Math.sin(ticks / 50 + id) * 3);
      const result: ReadResult = { values, errors: new Map() };
      collector.accept(d.id, result, ts);
    }
    offered += items;
    ticks += 1;
  }
  await new Promise((r) => setTimeout(r, Math.max(1, tickMs / 2)));
}
const feedEnd = performance.now();
await collector.stop();
await store.stop();
const elapsedS = (performance.now() - started) / 1000;
const stored = await db.kysely
  .selectFrom('sample_chunks')
  .select((eb) => eb.fn.sum<number>('n').as('n'))
  .executeTakeFirstOrThrow();
const storedN = Number(stored.n);
const lat = store.flushLatencies().sort((a, b) => a - b);
const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? 0;
void ages;
console.log(
  JSON.stringify(
    {
      database: db.dialect,
      items,
      rate_per_item_hz: rate,
      offered_samples_per_s: Math.round(items * rate),
      seconds: Math.round(elapsedS * 10) / 10,
      samples_offered: offered,
      samples_stored: storedN,
      stored_samples_per_s: Math.round(storedN / elapsedS),
      flushes: lat.length,
      flush_ms_p50: Math.round(pct(50)),
      flush_ms_p99: Math.round(pct(99)),
      feed_seconds: Math.round((feedEnd - started) / 100) / 10,
    },
    null,
    2,
  ),
);
if (storedN !== offered) {
  console.error(`lost samples: offered ${offered}, stored ${storedN}`);
  process.exitCode = 1;
}
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
