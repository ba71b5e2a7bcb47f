// Benchmark (issue 17): a year of 15-minute readings for 500 meters (50 sites of 10: incoming, 6 IT,
// 2 cooling, lighting), stored as the series store keeps them (hourly roll-ups, the closing reading
// of each hour), the energy fill run once over them (the counter rules applied once, into
// energy_hours / energy_days), then the read path: one site's monthly cost under a stair +
// time-share tariff and its monthly PUE for the year, as the API answers them. SQLite by default,
// PostgreSQL with BENCH_PG_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createEnergyFill } from '../server/src/modules/energy/fill.ts';
import { createEnergyRepository } from '../server/src/modules/energy/repository.ts';
import { createEnergyService } from '../server/src/modules/energy/service.ts';
import { zoneClock } from '../server/src/modules/energy/tariff.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
import { seedEstate } from './estate.ts';
import { createPgDatabase } from './pg-db.ts';

const meters = Number(process.env.BENCH_METERS ?? 500);
const perSite = 10;
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const pgUrl = process.env.BENCH_PG_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-energy-'));
const pg = pgUrl ? await createPgDatabase(pgUrl) : null;
const db = pg ? pg.db : openDb({ dataDir });
await migrateToLatest(db.kysely);
const { devices } = await seedEstate(db, { items: meters, perDevice: 100 });
const itemIds = devices.flatMap((d) => d.items);
const k = db.kysely;

// 2025 on the Shanghai clock the costs are counted in.
const year = Date.UTC(2025, 0, 1) / 1000 - 8 * 3600;
const hours = 365 * 24;
const categories = ['total', 'it', 'it', 'it', 'it', 'it', 'it', 'cooling', 'cooling', 'lighting'] as const;
const sites: number[] = [];
for (let s = 0; s < meters / perSite; s++) {
  const { id } = await k
    .insertInto('device_groups')
    .values({
      name: `Energy site ${s}`,
      parent_id: 0,
      weight: 1,
      has_device: 1,
      longitude: null,
      latitude: null,
      background: '',
      scene: '',
      extend: '{}',
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  sites.push(id);
}
const tariffId = (
  await k
    .insertInto('energy_tariffs')
    .values({
      name: 'Bench stair + time-share',
      mode: 'stair_time_share',
      summer_months: '[7,8,9]',
      gradients: JSON.stringify(
        ['summer', 'non_summer'].flatMap((season) => [
          { season, start: 0, end: 20_000, price: 0 },
          { season, start: 20_000, end: null, price: 0.05 },
        ]),
      ),
      slots: JSON.stringify(
        ['summer', 'non_summer'].flatMap((season) => [
          { season, start: '00:00', end: '08:00', band: 'valley', price: 0.31 },
          { season, start: '08:00', end: '10:30', band: 'flat', price: 0.62 },
          { season, start: '10:30', end: '11:30', band: 'sharp', price: 1.35 },
          { season, start: '11:30', end: '17:00', band: 'peak', price: 1.08 },
          { season, start: '17:00', end: '00:00', band: 'flat', price: 0.62 },
        ]),
      ),
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
).id;

const load = performance.now();
for (let m = 0; m < meters; m++) {
  const site = sites[Math.floor(m / perSite)]!;
  const category = categories[m % perSite]!;
  await k
    .insertInto('energy_meters')
    .values({
      name: `Meter ${m}`,
      item_id: itemIds[m]!,
      kind: 'counter',
      category,
      device_group_id: site,
      measure_point: category === 'it' ? 'pdu_output' : null,
      rollover_at: null,
      max_power_kw: 500,
      created_at: 0,
    })
    .execute();
  // Four 15-minute readings an hour folded into the hour's roll-up, as the store folds them.
  const kw = category === 'total' ? 120 : category === 'it' ? 12 : category === 'cooling' ? 15 : 2;
  const rows = [];
  let counter = 10_000 + m;
  for (let h = 0; h < hours; h++) {
    const q = [1, 2, 3, 4].map(() => (counter += (kw / 4) * (0.9 + 0.2 * Math.random())));
    rows.push({
      item_id: itemIds[m]!,
      ts: year + h * 3600,
      min: q[0]!,
      max: q[3]!,
      sum: q[0]! + q[1]! + q[2]! + q[3]!,
      count: 4,
    });
  }
  for (let i = 0; i < rows.length; i += 2000)
    await k
      .insertInto('samples_1h')
      .values(rows.slice(i, i + 2000))
      .execute();
}
for (const site of sites)
  await k
    .insertInto('energy_tariff_sets')
    .values({ device_group_id: site, tariff_id: tariffId, valid_from: 0 })
    .execute();
console.log(
  `loaded ${meters} meters x ${hours} hours (${(meters * hours).toLocaleString('en')} roll-ups) in ${((performance.now() - load) / 1000).toFixed(0)} s`,
);

const store = createSeriesStore(db);
const fill = createEnergyFill({
  db,
  store,
  clock: zoneClock('Asia/Shanghai'),
});
{
  const t0 = performance.now();
  await fill.catchUp();
  const rows = await k
    .selectFrom('energy_hours')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  console.log(
    `fill: ${Number(rows?.n).toLocaleString('en')} meter-hours computed and stored in ${((performance.now() - t0) / 1000).toFixed(0)} s (once; afterwards only new hours)`,
  );
}
const service = createEnergyService({
  repo: createEnergyRepository(db),
  catchUp: (ids) => fill.catchUp(ids),
  zone: 'Asia/Shanghai',
});
const q = { device_group_id: sites[0]!, t1: year, t2: year + hours * 3600 - 1, interval: 'month' as const };
const times: number[] = [];
let answer = '';
for (let r = 0; r < rounds; r++) {
  const t0 = performance.now();
  const [cost, pue] = await Promise.all([service.cost(q, null), service.pue(q, null)]);
  times.push(performance.now() - t0);
  answer = `${cost.length} meters, ${cost[0]!.buckets.length} months, site cost ${(cost.reduce((s, c) => s + c.cost_cents, 0) / 100).toFixed(2)} yuan, PUE ${pue.pue} (category ${pue.category})`;
}
times.sort((a, b) => a - b);
console.log(answer);
// Where the time goes: each route alone, and the read of the site's year of hours alone.
const repo = createEnergyRepository(db);
const siteMeters = (await repo.meters([sites[0]!])).map((m) => m.id);
for (const [name, call] of [
  ['cost alone', () => service.cost(q, null)],
  ['PUE alone', () => service.pue(q, null)],
  ['read of the year of hours (packed in 365 daily rows a meter) alone', () => repo.dayHours(siteMeters, q.t1, q.t2)],
] as const) {
  const alone: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    await call();
    alone.push(performance.now() - t0);
  }
  alone.sort((a, b) => a - b);
  console.log(`  ${name}: median ${alone[Math.floor(rounds / 2)]!.toFixed(0)} ms`);
}
console.log(
  `${pg ? 'PostgreSQL' : 'SQLite'}: a site's monthly cost and PUE for a year: median ${times[Math.floor(rounds / 2)]!.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms, worst ${times.at(-1)!.toFixed(0)} ms (${rounds} rounds)`,
);
await db.close();
await pg?.drop();
rmSync(dataDir, { recursive: true, force: true });
