// Benchmark: 100 000 items updating at 10 000 samples/s through the collector into the alarm engine;
// a fraction of the samples cross a threshold (raise, then recover a round later). Measures the
// latency from a sample's arrival (collector.accept) to the alarm push message on a WebSocket client
// of the running server (/api/v1/ws), and prints p50/p99. SQLite by default, PostgreSQL with BENCH_PG_URL.
// BENCH_RULES=N adds N automation linkage rules, each on a toggling item (value > 30), acting when it
// alarms (BENCH_RULE_ABOVE=100: never): the CPU the process spends per offered sample, with and
// without them, is the rules' cost.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createSitewatch } from '../server/src/app.ts';
import type { ReadResult } from '../server/src/collector/driver.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createLoginKey, generateLoginKeyPem } from '../server/src/modules/auth/index.ts';
import { createPushHub } from '../server/src/push/hub.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
import { analogSource, seedEstate } from './estate.ts';
import { createPgDatabase } from './pg-db.ts';

const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const samplesPerSecond = Number(process.env.BENCH_RATE ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
/** One item in `every` toggles between normal and abnormal at each of its samples' rounds. */
const every = Number(process.env.BENCH_TOGGLE_EVERY ?? 10);
const perDevice = 100;
const pgUrl = process.env.BENCH_PG_URL;
const rules = Number(process.env.BENCH_RULES ?? 0);
/** The rules' threshold: 30 acts at every raise; above 35 never holds (the matching alone). */
const ruleAbove = Number(process.env.BENCH_RULE_ABOVE ?? 30);

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-alarms-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);

const { site, devices } = await seedEstate(db, {
  items,
  perDevice,
  source: { ...analogSource, spread: 0, noise: 0 },
  item: { unit: '℃', recovery_point: 1, alarm_level: 2 },
});
if (rules > 0) {
  // One action (it runs no command: the run and its record are the cost), N rules on toggling items.
  const now = Math.floor(Date.now() / 1000);
  const { id: action } = await db.kysely
    .insertInto('automation_actions')
    .values({ name: 'bench', device_group_id: site, preset: 'custom', commands: '[]', remark: '', updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const watched = devices.flatMap((d) => d.items.filter((id) => id % every === 0)).slice(0, rules);
  for (let i = 0; i < watched.length; i += 500)
    await db.kysely
      .insertInto('automation_linkages')
      .values(
        watched.slice(i, i + 500).map((item_id) => ({
          name: `rule ${item_id}`,
          device_group_id: site,
          enable: 1,
          match: 'all',
          conditions: JSON.stringify([{ item_id, op: 'gt', value: ruleAbove }]),
          hold_seconds: 0,
          period_id: 0,
          action_id: action,
          recovery_action_id: 0,
          last_fired: null,
          updated_at: now,
        })),
      )
      .execute();
}

// The real app: the push channel on a port, the alarm engine, the collector feeding it.
const push = createPushHub();
const sitewatch = await createSitewatch({
  db,
  push,
  // The collector of app.ts without drivers: the bench feeds it reads itself (load, not start).
  drivers: {},
  series: createSeriesStore(db, { flushEveryMs: 1000 }),
  loginKey: createLoginKey(generateLoginKeyPem()),
  authenticator: {
    authenticate: async (token) =>
      token === 'bench' ? { principal: { user_id: 1, user_name: 'admin', session_id: 1 } } : { reason: 'unknown' },
  },
  logLevel: 'warn',
});
const { app } = sitewatch;
const collector = sitewatch.collector!;
const store = sitewatch.series!;
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as { port: number }).port;
await collector.load();
store.start();
// Every area starts (the automation's rules load), but the collector does not poll: the bench feeds it.
collector.start = async () => undefined;
await sitewatch.start();

// The browser side: one WebSocket client signed in as the administrator.
const sentAt = new Map<number, number>();
const latencies: number[] = [];
let received = 0;
const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`);
await new Promise((resolve) => ws.once('open', resolve));
ws.send(JSON.stringify({ type: 'auth', token: 'bench' }));
await new Promise((resolve) => ws.once('message', resolve));
ws.on('message', (raw: Buffer) => {
  const at = performance.now();
  const m = JSON.parse(raw.toString('utf8')) as { type: string; event?: string; alarm?: { item_id: number } };
  if (m.type !== 'alarm' || (m.event !== 'raise' && m.event !== 'recover') || !m.alarm) return;
  received += 1;
  const t0 = sentAt.get(m.alarm.item_id);
  if (t0 !== undefined) latencies.push(at - t0);
});

// Warm-up: every item once, normal (confirmed states, the administrator's grants), not measured.
for (const d of devices) {
  const values = new Map<number, number>();
  for (const id of d.items) values.set(id, 20);
  collector.accept(d.id, { values, errors: new Map() }, Date.now());
}
await new Promise((r) => setTimeout(r, 1500));

// Fixed-rate feed: every 10 ms the devices due answer with all their items. An item's value is
// abnormal (35) in odd rounds for one item in `every`, so it raises in one round and recovers in the next.
// BENCH_PROFILE=<file>: a CPU profile of the fed window alone (not the seeding and start-up).
const profiler = process.env.BENCH_PROFILE ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const tickMs = 10;
const devicesPerTick = Math.max(1, Math.round((samplesPerSecond / perDevice) * (tickMs / 1000)));
const started = performance.now();
const cpuAtStart = process.cpuUsage();
let ticks = 0;
let offered = 0;
let expected = 0;
let cursor = 0;
let round = 1;
while (performance.now() - started < seconds * 1000) {
  // A machine that cannot keep up offers fewer samples (the printed rate says so) instead of catching
  // up in ever longer synchronous bursts that never end: at most 100 ms of ticks between yields.
  const due = Math.floor((performance.now() - started) / tickMs);
  if (due - ticks > 100 / tickMs) ticks = due - 100 / tickMs;
  while (ticks < due) {
    for (let k = 0; k < devicesPerTick; k++) {
      const d = devices[cursor]!;
      cursor += 1;
      if (cursor === devices.length) {
        cursor = 0;
        round += 1;
      }
      const values = new Map<number, number>();
      const t = performance.now();
      for (const id of d.items) {
        const toggles = id % every === 0;
        values.set(id, toggles && round % 2 === 1 ? 35 : 20);
        if (toggles) {
          sentAt.set(id, t);
          expected += 1;
        }
      }
      const result: ReadResult = { values, errors: new Map() };
      collector.accept(d.id, result, Date.now());
      offered += d.items.length;
    }
    ticks += 1;
  }
  await new Promise((r) => setTimeout(r, 1));
}
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuAtStart);
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}
await new Promise((r) => setTimeout(r, 1000));
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const alarms = await db.kysely
  .selectFrom('alarms')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
const runs = await db.kysely
  .selectFrom('automation_runs')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
console.log(
  JSON.stringify(
    {
      database: db.dialect,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
      items,
      offered_samples_per_s: Math.round(offered / elapsed),
      seconds: Math.round(elapsed * 10) / 10,
      transitions_per_s: Math.round(latencies.length / elapsed),
      push_messages: received,
      measured: latencies.length,
      alarm_rows: Number(alarms.n),
      linkage_rules: rules,
      action_runs: Number(runs.n),
      cpu_us_per_sample: Math.round(((cpu.user + cpu.system) / offered) * 100) / 100,
      latency_ms_p50: Math.round(pct(50) * 10) / 10,
      latency_ms_p99: Math.round(pct(99) * 10) / 10,
      latency_ms_max: Math.round((latencies.at(-1) ?? 0) * 10) / 10,
    },
    null,
    2,
  ),
);
void expected;
ws.close();
await collector.stop();
await app.close();
await store.stop();
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
if (pct(99) >= 200) process.exitCode = 1;
