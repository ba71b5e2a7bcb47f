// Benchmark: N items fed at a fixed rate through the collector (state evaluation, live values)
// into the series store, on SQLite (default) or PostgreSQL (BENCH_PG_URL). Prints the samples/s
// stored, the flush (batch write) latency p50/p99, and the sample age at write p99.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deviceOptions, serialSettings } from '../packages/contract/src/monitoring.ts';
import { createCollector } from '../server/src/collector/collector.ts';
import type { ReadResult } from '../server/src/collector/driver.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
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
const now = Math.floor(Date.now() / 1000);
const { id: site } = await db.kysely
  .insertInto('device_groups')
  .values({
    name: 'bench',
    parent_id: 0,
    weight: 1,
    has_device: 1,
    background: '',
    scene: '',
    extend: '',
    created_at: now,
    updated_at: now,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const source = JSON.stringify({
  kind: 'simulator',
  model: 'analog',
  base: 22,
  spread: 2,
  noise: 0.2,
  period_s: 600,
  fault_rate: 0,
  decimals: 2,
});
const devices: Array<{ id: number; items: number[] }> = [];
for (let d = 0; d < Math.ceil(items / perDevice); d++) {
  const { id } = await db.kysely
    .insertInto('devices')
    .values({
      name: `dev-${d}`,
      device_group_id: site,
      driver: 'simulator',
      code: 'other',
      template_id: null,
      ip: '',
      port: null,
      protocol_id: 1,
      classification_id: 0,
      device_count: 1,
      serial: JSON.stringify(serialSettings.parse({})),
      zigbee_enable: 0,
      zigbee_address: '',
      protocol_version: '',
      options: JSON.stringify(deviceOptions.parse({})),
      check_interval: 1,
      enable: 1,
      state: 0,
      state_reason: '',
      state_time: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const count = Math.min(perDevice, items - d * perDevice);
  const rows = Array.from({ length: count }, (_, i) => ({
    device_id: id,
    name: `item-${i}`,
    item_cell_name: `P${i}`,
    unit: '',
    location_id: 0,
    value_type: 1,
    threshold_min: 10,
    threshold_max: 30,
    status_threshold: '',
    recovery_point: 0,
    overrun_point: 0,
    alarm_level: 1,
    alarm_color: '',
    contact_group_id: 0,
    working_period_id: 0,
    overrun_action_id: 0,
    recovery_action_id: 0,
    check_interval: 1,
    repetitions: 1,
    notification_interval: 300,
    check_period_id: 0,
    notification_period_id: 0,
    alarm_period_id: 0,
    source,
    enable: 1,
    state: 0,
    value: null,
    last_check: 0,
    info: '',
  }));
  const ids = await db.kysely.insertInto('items').values(rows).returning('id').execute();
  devices.push({ id, items: ids.map((r) => r.id) });
}

const store = createSeriesStore(db, { flushEveryMs: 1000 });
const collector = createCollector({ db, store, drivers: {}, persistEveryMs: 5000 });
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
