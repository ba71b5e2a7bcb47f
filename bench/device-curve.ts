// Benchmark: the device page's curve (GET device_groups/device/curve) over the last 7 days on the
// demo estate (3 sites, 66 devices, 750 items) after a week of 1-minute samples of every item of the
// first site (250 items, 2.5 million samples, with their minute and hour roll-ups), on SQLite
// (default) or PostgreSQL (BENCH_PG_URL). Prints the answer time through the whole HTTP app
// (validation, site check, series reads, envelope) for 3 and for all 17 items of UPS-01, and the
// points each series got. BENCH_DAYS changes the backfilled days.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createLoginKey, generateLoginKeyPem } from '../server/src/modules/auth/index.ts';
import { seedDemo } from '../server/src/modules/monitoring/demo.ts';
import { createPushHub } from '../server/src/push/hub.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
import { createPgDatabase } from './pg-db.ts';

const runs = Number(process.env.BENCH_RUNS ?? 20);
const days = Number(process.env.BENCH_DAYS ?? 7);
const pgUrl = process.env.BENCH_PG_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-curve-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);
await seedDemo(db);

const site = await db.kysely.selectFrom('device_groups').select('id').orderBy('id').executeTakeFirstOrThrow();
const items = await db.kysely
  .selectFrom('items')
  .innerJoin('devices', 'devices.id', 'items.device_id')
  .select(['items.id', 'devices.name as device'])
  .where('devices.device_group_id', '=', site.id)
  .orderBy('items.id')
  .execute();
const store = createSeriesStore(db, { maxBuffered: Number.MAX_SAFE_INTEGER });
const now = Math.floor(Date.now() / 1000);
const start = now - days * 86_400;
const loadStart = performance.now();
for (let m = 0; m < days * 1440; m++) {
  const ts = (start + m * 60) * 1000;
  for (const [n, item] of items.entries()) store.append(item.id, ts, 200 + Math.sin(m / 240 + n) * 20);
  if (m % 360 === 359) await store.flush();
}
await store.flush();
const loadS = (performance.now() - loadStart) / 1000;

const app = await buildApp({
  db,
  push: createPushHub(),
  loginKey: createLoginKey(generateLoginKeyPem()),
  logLevel: 'silent',
  authenticator: { authenticate: async () => ({ principal: { user_id: 1, user_name: 'admin', session_id: 1 } }) },
});
await app.ready();
const ups = items.filter((i) => i.device === 'UPS-01').map((i) => i.id);
const measure = async (ids: number[]) => {
  const url = `/api/v1/device_groups/device/curve?item_ids=${ids.join(',')}&t1=${now - 7 * 86_400}&t2=${now}`;
  const headers = { authorization: 'Bearer bench' };
  const first = await app.inject({ method: 'GET', url, headers });
  const series = first.json().data as Array<{ resolution: string; points: unknown[] }>;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    items: ids.length,
    resolution: series[0]?.resolution,
    points_per_series: series.map((s) => s.points.length),
    answer_bytes: first.body.length,
    ms_median: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
    ms_worst: Math.round(times[times.length - 1]! * 10) / 10,
  };
};
/** The series store's own reads of the same items, without HTTP, validation or JSON. */
const storeOnly = async (ids: number[]) => {
  const times: number[] = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const t0 = performance.now();
    for (const id of ids) await store.read(id, now - 7 * 86_400, now, 1000);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
};
const storeMs = await storeOnly(ups);
const three = await measure(ups.slice(0, 3));
const all = await measure(ups);
console.log(
  JSON.stringify(
    {
      database: db.dialect,
      backfilled: { items: items.length, days, samples: items.length * days * 1440, seconds: Math.round(loadS) },
      curve_7_days_3_items: three,
      curve_7_days_17_items: all,
      store_reads_only_17_items_ms_median: storeMs,
    },
    null,
    2,
  ),
);
await app.close();
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
