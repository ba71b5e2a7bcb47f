// Benchmark: a chart read of one year of 1-minute samples of one item (525 600 samples) into at most
// 1 000 points, on SQLite (default) or PostgreSQL (BENCH_PG_URL). Prints the chosen resolution,
// the point count and the read time (median and worst of the runs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
import { createPgDatabase } from './pg-db.ts';

const runs = Number(process.env.BENCH_RUNS ?? 20);
const pgUrl = process.env.BENCH_PG_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-range-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);

const store = createSeriesStore(db, { maxBuffered: Number.MAX_SAFE_INTEGER });
const itemId = 1;
const minutes = 365 * 24 * 60;
const t1 = 1_700_000_000 - (1_700_000_000 % 3600);
// Other items share the tables, so the read has to find its item among others.
const loadStart = performance.now();
for (let day = 0; day < 365; day++) {
  for (let m = 0; m < 1440; m++) {
    const ts = (t1 + (day * 1440 + m) * 60) * 1000;
    for (let other = 1; other <= 5; other++) {
      store.append(other, ts, 20 + Math.sin((day * 1440 + m) / 300 + other) * 5 + (m === 700 && day === 200 ? 40 : 0));
    }
  }
  if (day % 7 === 6) await store.flush();
}
await store.flush();
const loadS = (performance.now() - loadStart) / 1000;

const t2 = t1 + minutes * 60 - 1;
const times: number[] = [];
let result = await store.read(itemId, t1, t2, 1000);
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  result = await store.read(itemId, t1, t2, 1000);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const max = Math.max(...result.points.map((p) => p.value));
console.log(
  JSON.stringify(
    {
      database: db.dialect,
      samples_of_item: minutes,
      load_seconds: Math.round(loadS * 10) / 10,
      resolution: result.resolution,
      points: result.points.length,
      spike_kept: max > 60,
      read_ms_median: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
      read_ms_worst: Math.round(times[times.length - 1]! * 10) / 10,
    },
    null,
    2,
  ),
);
if (result.points.length > 1000 || times[times.length - 1]! >= 50) process.exitCode = 1;
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
