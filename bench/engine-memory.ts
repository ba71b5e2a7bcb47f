// Benchmark (issue 18, memory per item): the alarm engine alone, in-process, with BENCH_ITEMS items
// (default 100 000, 100 per device) of one SQLite estate. Every item gets BENCH_ROUNDS normal
// samples (its repetition and jitter state filled), then the heap and array buffers are measured
// after a full collection, before the engine and after it: the difference per item is what the engine holds.
// Run: node --expose-gc --import tsx engine-memory.ts (BENCH_SNAPSHOT=<file> writes a heap snapshot).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { createAlarmEngine } from '../server/src/alarms/engine.ts';
import { createAlarmSettings } from '../server/src/alarms/settings.ts';
import { createEventBus } from '../server/src/bus/bus.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import type { Notifier } from '../server/src/notify/notifier.ts';
import { seedEstate } from './estate.ts';

const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const gc = globalThis.gc;
if (!gc) throw new Error('run with node --expose-gc');

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-engine-memory-'));
const db = openDb({ dataDir });
await migrateToLatest(db.kysely);
const { devices } = await seedEstate(db, { items, perDevice: 100 });
const heap = () => {
  gc();
  gc();
  // Typed arrays keep their contents outside the V8 heap: counted too.
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const before = heap();
// No alarm is raised (all values normal): the notifier is never called.
const notifier = { enqueue: () => undefined } as unknown as Notifier;
const bus = createEventBus();
const engine = createAlarmEngine({ db, bus, notifier, settings: createAlarmSettings(db) });
// Every item the engine loaded publishes its first state: the count checks that all were read.
let judged = 0;
bus.subscribe('item.state', () => {
  judged += 1;
});
const startedAt = performance.now();
await engine.start();
const startMs = performance.now() - startedAt;
const feedAt = performance.now();
let t = Date.now();
for (let r = 0; r < rounds; r++) {
  t += 1000;
  for (const d of devices) for (const id of d.items) engine.onSample(id, 20 + (r % 2) * 0.5, t);
}
const feedMs = performance.now() - feedAt;
const after = heap();
if (process.env.BENCH_SNAPSHOT) writeHeapSnapshot(process.env.BENCH_SNAPSHOT);
console.log(
  JSON.stringify(
    {
      items,
      rounds,
      items_judged: judged,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
      engine_heap_mb: Math.round((after - before) / 1e4) / 100,
      bytes_per_item: Math.round((after - before) / items),
      start_ms: Math.round(startMs),
      samples_per_s: Math.round((rounds * items) / (feedMs / 1000)),
    },
    null,
    2,
  ),
);
await engine.stop();
await db.close();
rmSync(dataDir, { recursive: true, force: true });
