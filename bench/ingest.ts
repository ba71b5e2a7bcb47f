// Benchmark: the series store's ingest over a matrix of shapes (issue 18): items × rate fed through
// the collector (state evaluation, live values) on the bus into the series store, on SQLite
// (default) or PostgreSQL (BENCH_PG_URL). Each shape runs in its own process on a fresh database and
// prints values/s stored, flush p50/p99, CPU, RSS, event-loop lag and the compaction's cost; the
// exit code fails when a shape misses its target (in real time, flush p99, nothing lost).
//   BENCH_SHAPES="10000x25,100000x1,250000x0.1"  BENCH_SECONDS=75 (per shape)
//   BENCH_P99_MS=300 (flush p99 target of the shapes at ≤ 1 Hz; the 25 Hz shape has to keep up)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const seconds = Number(process.env.BENCH_SECONDS ?? 75);
const p99Target = Number(process.env.BENCH_P99_MS ?? 300);
const pgUrl = process.env.BENCH_PG_URL;

interface ShapeResult {
  database: string;
  items: number;
  rate_per_item_hz: number;
  offered_per_s: number;
  feed_seconds: number;
  samples_offered: number;
  samples_stored: number;
  stored_per_s_in_window: number;
  backlog_at_end: number;
  final_write_ms: number;
  flushes: number;
  flush_ms_p50: number;
  flush_ms_p99: number;
  flush_ms_max: number;
  compactions: number;
  compaction_ms_p50: number;
  compaction_ms_max: number;
  cpu_percent_of_one_core: number;
  cpu_ms_per_million_samples: number;
  rss_mb_max: number;
  rss_mb_end: number;
  loop_lag_ms_p50: number;
  loop_lag_ms_p99: number;
  loop_lag_ms_max: number;
  load_average: string;
  misses: string[];
}

const runShape = async (items: number, rate: number): Promise<ShapeResult> => {
  const { createEventBus } = await import('../server/src/bus/bus.ts');
  const { createCollector } = await import('../server/src/collector/collector.ts');
  const { openDb } = await import('../server/src/db/kysely.ts');
  const { migrateToLatest } = await import('../server/src/db/migrate.ts');
  const { createSeriesStore } = await import('../server/src/series/store.ts');
  const { seedEstate } = await import('./estate.ts');
  const { createPgDatabase } = await import('./pg-db.ts');
  type ReadResult = import('../server/src/collector/driver.ts').ReadResult;
  const { loadavg } = await import('node:os');

  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-ingest-'));
  const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
  const db = pg ? pg.db : openDb({ dataDir });
  await migrateToLatest(db.kysely);
  // A site with N/100 simulated devices of 100 items each, as the API would store them.
  const { devices } = await seedEstate(db, { items, perDevice: 100 });

  // Wired as app.ts wires them: the collector publishes samples on the bus, the store subscribes.
  const store = createSeriesStore(db, { flushEveryMs: 1000 });
  const bus = createEventBus();
  bus.subscribe('sample', (e) => {
    if (e.value !== null) store.append(e.item_id, e.ts_ms, e.value);
  });
  const collector = createCollector({ db, bus, drivers: {}, persistEveryMs: 5000 });
  await collector.load();
  store.start();

  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let rssMax = 0;
  const rssTimer = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }, 500);
  const cpu0 = process.cpuUsage();
  // Fixed-rate feed: the devices of a tick are spread over the tick (as polling loops are), and
  // ticks that come due while a flush holds the thread are fed on the next turn: the offered rate
  // is exact whatever the store does.
  const tickMs = 1000 / rate;
  const started = performance.now();
  const wallStart = Date.now();
  let offered = 0;
  let fed = 0; // device answers fed so far
  const perTick = devices.length;
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / tickMs) * perTick);
    let n = 0;
    while (fed < due && n < 2000) {
      const tick = Math.floor(fed / perTick);
      const d = devices[fed % perTick]!;
      const ts = Math.floor(wallStart + tick * tickMs + ((fed % perTick) / perTick) * tickMs);
      const values = new Map<number, number>();
      for (const id of d.items) values.set(id, 20 + Math.sin(tick / 50 + id) * 3);
      const result: ReadResult = { values, errors: new Map() };
      collector.accept(d.id, result, ts);
      offered += d.items.length;
      fed += 1;
      n += 1;
    }
    await new Promise((r) => setTimeout(r, fed < due ? 0 : Math.max(1, Math.min(20, tickMs / perTick))));
  }
  const feedS = (performance.now() - started) / 1000;
  // Stored in the window: every sample offered but those still buffered for the next flush.
  const backlog = store.pending();
  const cpu = process.cpuUsage(cpu0);
  lag.disable();
  clearInterval(rssTimer);
  const rssEnd = process.memoryUsage().rss;
  rssMax = Math.max(rssMax, rssEnd);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const endStart = performance.now();
  await collector.stop();
  await store.stop();
  const finalMs = performance.now() - endStart;
  // CPU of the whole run, the last write and compaction included: what a sample costs, whatever
  // share of the cores the machine's other work left this process.
  const cpuAll = process.cpuUsage(cpu0);
  const stored = await db.kysely
    .selectFrom('sample_chunks')
    .select((eb) => eb.fn.sum<number>('n').as('n'))
    .executeTakeFirstOrThrow();
  const storedN = Number(stored.n);
  const lat = store.flushLatencies().sort((a, b) => a - b);
  const pct = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? 0;
  const compactions = store.compactionLatencies().sort((a, b) => a - b);
  const offeredPerS = items * rate;
  const inWindow = (offered - backlog) / feedS;
  const misses: string[] = [];
  if (storedN !== offered) misses.push(`lost samples: offered ${offered}, stored ${storedN}`);
  // In real time: the samples buffered at the end are at most two flush intervals' worth.
  if (backlog > 2 * offeredPerS) misses.push(`fell behind: ${backlog} samples still buffered at the end`);
  // The feed itself lags when the process gets too little CPU (the store holding the thread included).
  if (offered < 0.95 * offeredPerS * feedS)
    misses.push(`offered only ${Math.round(offered / feedS)}/s: the process fell behind`);
  if (rate <= 1 && pct(lat, 99) >= p99Target) misses.push(`flush p99 ${Math.round(pct(lat, 99))} ms ≥ ${p99Target} ms`);
  const result: ShapeResult = {
    database: db.dialect,
    items,
    rate_per_item_hz: rate,
    offered_per_s: offeredPerS,
    feed_seconds: Math.round(feedS * 10) / 10,
    samples_offered: offered,
    samples_stored: storedN,
    stored_per_s_in_window: Math.round(inWindow),
    backlog_at_end: backlog,
    final_write_ms: Math.round(finalMs),
    flushes: lat.length,
    flush_ms_p50: Math.round(pct(lat, 50)),
    flush_ms_p99: Math.round(pct(lat, 99)),
    flush_ms_max: Math.round(lat[lat.length - 1] ?? 0),
    compactions: compactions.length,
    compaction_ms_p50: Math.round(pct(compactions, 50)),
    compaction_ms_max: Math.round(compactions[compactions.length - 1] ?? 0),
    cpu_percent_of_one_core: Math.round(((cpu.user + cpu.system) / 1000 / (feedS * 1000)) * 100),
    cpu_ms_per_million_samples: Math.round((cpuAll.user + cpuAll.system) / 1000 / (offered / 1e6)),
    rss_mb_max: Math.round(rssMax / 1e6),
    rss_mb_end: Math.round(rssEnd / 1e6),
    loop_lag_ms_p50: Math.round(lag.percentile(50) / 1e6),
    loop_lag_ms_p99: Math.round(lag.percentile(99) / 1e6),
    loop_lag_ms_max: Math.round(lag.max / 1e6),
    load_average: load,
    misses,
  };
  await db.close();
  await pg?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  return result;
};

const parseShape = (s: string) => {
  const [items, rate] = s.split('x').map(Number);
  if (!items || !rate) throw new Error(`bad shape ${s} (items x rate, e.g. 100000x1)`);
  return { items, rate };
};

const one = process.env.BENCH_SHAPE;
if (one) {
  // A child: one shape, its result as the last line of output.
  const { items, rate } = parseShape(one);
  const result = await runShape(items, rate);
  console.log(`RESULT ${JSON.stringify(result)}`);
} else {
  const shapes = (process.env.BENCH_SHAPES ?? '10000x25,100000x1,250000x0.1').split(',');
  const results: ShapeResult[] = [];
  for (const shape of shapes) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_SHAPE: shape },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) {
      console.error(`shape ${shape}: no result (exit ${child.status})\n${child.stdout}`);
      process.exitCode = 1;
      continue;
    }
    const result = JSON.parse(line.slice(7)) as ShapeResult;
    console.log(JSON.stringify({ shape, ...result }, null, 2));
    results.push(result);
  }
  console.table(
    results.map((r) => ({
      db: r.database,
      shape: `${r.items}×${r.rate_per_item_hz} Hz`,
      'offered/s': r.offered_per_s,
      'stored/s': r.stored_per_s_in_window,
      'flush p50/p99 ms': `${r.flush_ms_p50}/${r.flush_ms_p99}`,
      'compaction p50/max ms': `${r.compaction_ms_p50}/${r.compaction_ms_max}`,
      'CPU %': r.cpu_percent_of_one_core,
      'CPU ms/M': r.cpu_ms_per_million_samples,
      'RSS max MB': r.rss_mb_max,
      'lag p99/max ms': `${r.loop_lag_ms_p99}/${r.loop_lag_ms_max}`,
      load: r.load_average,
      ok: r.misses.length === 0 ? 'yes' : r.misses.join('; '),
    })),
  );
  if (results.some((r) => r.misses.length > 0)) process.exitCode = 1;
}
