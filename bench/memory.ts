// Benchmark (issue 18): the real server, started as `npm start` runs it (scripts/start.mjs, the
// production build, SITEWATCH_MODE=test, a fresh data dir), idle with many simulated items each
// polled every BENCH_INTERVAL seconds. Prints RSS and V8 heap after start-up and after polling,
// /readyz latency p50/p99/max sampled every 100 ms over BENCH_SECONDS, and the server's event-loop
// lag (its /metrics), and the kernel's peak RSS of the process (VmHWM). Fails when RSS (sampled every
// 10 s, or that peak) reaches 250 MB or /readyz p99 reaches 50 ms.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { seedEstate } from './estate.ts';
import { type SmapsSplit, smapsSplit } from './smaps.ts';
import { startEnv, startNodeFlags } from './start-flags.ts';

const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 300);
const interval = Number(process.env.BENCH_INTERVAL ?? 30);
const rssLimitMb = 250;
const readyP99LimitMs = 50;

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'server/dist/main.js'))) {
  console.error('server/dist/main.js is missing: run `npm run build -w server` (or `npm start` once) first');
  process.exit(1);
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-memory-'));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;

// The estate goes into the database before the first start (the server then seeds no demo).
const db = openDb({ dataDir });
await migrateToLatest(db.kysely);
await seedEstate(db, {
  items,
  perDevice: 100,
  deviceCheckInterval: interval,
  item: { check_interval: interval },
});
await db.close();

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.error(`estate of ${items} items seeded; load average ${load()}; starting the server`);
const startedAt = performance.now();
const server: ChildProcess = spawn(
  process.execPath,
  // `npm start`'s node flags (the young generation's size), then BENCH_NODE_ARGS (later ones win).
  [...startNodeFlags(), ...(process.env.BENCH_NODE_ARGS?.split(' ') ?? []), 'scripts/start.mjs'].filter(Boolean),
  {
    cwd: root,
    // BENCH_SERVER_STDOUT=1 shows what the server prints (e.g. with BENCH_NODE_ARGS=--trace-gc).
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    // `npm start`'s environment (MALLOC_ARENA_MAX); the bench's own variables win.
    env: {
      ...startEnv(),
      ...process.env,
      PORT: String(port),
      SITEWATCH_DATA_DIR: dataDir,
      SITEWATCH_SKIP_BUILD: '1',
      SITEWATCH_MODE: 'test',
      SITEWATCH_CAPTCHA: 'off',
      LOG_LEVEL: 'warn',
    },
  },
);
console.error(`server pid ${server.pid}`);
const stop = () =>
  new Promise<void>((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// BENCH_SMAPS=1: the server's RSS split by kind of mapping (bench/smaps.ts) every second over the
// first 30 s (the start-up peak), then every 5 s; printed are the sample of the largest RSS, each
// kind's largest, and the last.
const smaps: { at_largest: SmapsSplit | null; largest: Partial<SmapsSplit>; last: SmapsSplit | null } = {
  at_largest: null,
  largest: {},
  last: null,
};
if (process.env.BENCH_SMAPS === '1' && server.pid !== undefined) {
  const pid = server.pid;
  const sample = () => {
    const s = smapsSplit(pid);
    if (!s) return;
    smaps.last = s;
    if (!smaps.at_largest || s.total > smaps.at_largest.total) smaps.at_largest = s;
    for (const [k, v] of Object.entries(s) as Array<[keyof SmapsSplit, number]>)
      smaps.largest[k] = Math.max(smaps.largest[k] ?? 0, v);
  };
  const fast = setInterval(sample, 1000);
  setTimeout(() => {
    clearInterval(fast);
    setInterval(sample, 5000).unref();
  }, 30_000).unref();
  fast.unref();
}

let ready = false;
for (let i = 0; i < 1200 && !ready; i++) {
  if (server.exitCode !== null) throw new Error('the server exited while starting');
  ready = (await fetch(`${base}/readyz`).catch(() => null))?.ok === true;
  if (!ready) await sleep(100);
}
if (!ready) throw new Error('the server did not become ready');
const startupMs = performance.now() - startedAt;

/** The server's own figures from its Prometheus endpoint (loopback may read it). */
const metrics = async () => {
  const text = await (await fetch(`${base}/metrics`)).text();
  const get = (name: string) => Number(text.match(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm'))?.[1] ?? Number.NaN);
  return {
    rss_mb: Math.round(get('process_resident_memory_bytes') / 1e5) / 10,
    heap_used_mb: Math.round(get('nodejs_heap_size_used_bytes') / 1e5) / 10,
    heap_total_mb: Math.round(get('nodejs_heap_size_total_bytes') / 1e5) / 10,
    external_mb: Math.round(get('nodejs_external_memory_bytes') / 1e5) / 10,
    lag_p99_ms: Math.round(get('nodejs_eventloop_lag_p99_seconds') * 1e4) / 10,
    lag_max_ms: Math.round(get('nodejs_eventloop_lag_max_seconds') * 1e4) / 10,
    ...kernelMemory(),
  };
};
/**
 * The kernel's view of the server process (Linux): its peak RSS (the samples every 10 s miss a
 * short start-up peak), and RSS split into anonymous memory (both isolates' heaps, malloc) and
 * mapped files (the node binary, shared libraries, SQLite's file when mapped).
 */
const kernelMemory = () => {
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const kb = (name: string) =>
      Math.round((Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1]) * 1024) / 1e5) / 10;
    return { peak_rss_mb: kb('VmHWM'), rss_anon_mb: kb('RssAnon'), rss_file_mb: kb('RssFile') };
  } catch {
    return {};
  }
};

// Start-up: the first polls are spread over min(interval, 5 s); the figure is taken once they ran.
await sleep(Math.min(interval, 5) * 1000 + 2000);
const afterStart = { ...(await metrics()), load: load() };
console.error(`after start-up: ${JSON.stringify(afterStart)}`);
// /readyz every 100 ms over the window; the server's lag and memory every 10 s.
const latencies: number[] = [];
const lagP99: number[] = [];
let lagMax = 0;
let rssMax = 0;
let lastMetrics = Date.now();
const windowEnd = performance.now() + seconds * 1000;
let tick = performance.now();
while (performance.now() < windowEnd) {
  const t0 = performance.now();
  const res = await fetch(`${base}/readyz`).catch(() => null);
  latencies.push(res?.ok ? performance.now() - t0 : Number.POSITIVE_INFINITY);
  await res?.arrayBuffer().catch(() => undefined);
  if (Date.now() - lastMetrics >= 10_000) {
    lastMetrics = Date.now();
    const m = await metrics();
    lagP99.push(m.lag_p99_ms);
    lagMax = Math.max(lagMax, m.lag_max_ms);
    rssMax = Math.max(rssMax, m.rss_mb);
  }
  tick += 100;
  await sleep(Math.max(0, tick - performance.now()));
}
const afterPolling = { ...(await metrics()), load: load() };
rssMax = Math.max(rssMax, afterPolling.rss_mb, afterPolling.peak_rss_mb ?? 0);
let liveHeap: Awaited<ReturnType<typeof metrics>> | null = null;
// BENCH_SNAPSHOT=<dir> (with BENCH_NODE_ARGS="--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>"):
// a heap snapshot after the window. It collects all garbage first, so the snapshot holds what is live
// (its nodes' sizes add up to the live heap); the heap printed after it also holds the samples
// buffered while the snapshot held the server.
if (process.env.BENCH_SNAPSHOT) {
  server.kill('SIGUSR2');
  const dir = process.env.BENCH_SNAPSHOT;
  let size = -1;
  for (let i = 0; i < 600; i++) {
    await sleep(1000);
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot'));
    const now = file ? statSync(path.join(dir, file)).size : -1;
    if (now > 0 && now === size) break;
    size = now;
  }
  liveHeap = await metrics();
  console.error(`after a full collection: ${JSON.stringify(liveHeap)}`);
}

await stop();
rmSync(dataDir, { recursive: true, force: true });

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (v: number) => Math.round(v * 10) / 10;
const result = {
  items,
  check_interval_s: interval,
  window_s: seconds,
  startup_ms: Math.round(startupMs),
  after_start: afterStart,
  after_polling: afterPolling,
  ...(liveHeap ? { after_full_collection: liveHeap } : {}),
  rss_max_mb: rssMax,
  ...(smaps.last ? { smaps } : {}),
  readyz: { samples: latencies.length, p50_ms: round(pct(50)), p99_ms: round(pct(99)), max_ms: round(pct(100)) },
  event_loop_lag: { p99_of_10s_windows_max_ms: round(Math.max(0, ...lagP99)), max_ms: lagMax },
};
console.log(JSON.stringify(result, null, 2));
const failures = [
  rssMax >= rssLimitMb ? `RSS ${rssMax} MB >= ${rssLimitMb} MB` : '',
  result.readyz.p99_ms >= readyP99LimitMs ? `/readyz p99 ${result.readyz.p99_ms} ms >= ${readyP99LimitMs} ms` : '',
].filter(Boolean);
if (failures.length > 0) {
  console.error(`FAIL: ${failures.join('; ')}`);
  process.exitCode = 1;
}
