import { monitorState } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thresholdState } from '../src/alarms/rules/threshold.ts';
import { createManualClock } from '../src/clock/manual.ts';
import { loadDevices } from '../src/collector/collector.ts';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { seedDemo } from '../src/modules/monitoring/demo.ts';
import { useTestApp } from './helpers/build-app.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

/** A small seeded generator, so that each simulated quarter hour is reproducible. */
const mulberry32 = (seed: number) => () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** NEMA current imbalance (%) of three phase currents. */
const imbalance = (i: number[]) => {
  const mean = (i[0]! + i[1]! + i[2]!) / 3;
  return (Math.max(...i.map((v) => Math.abs(v - mean))) / mean) * 100;
};

/**
 * The demo estate left alone is a healthy installation (issue 38 item 2): no simulated value leaves
 * its thresholds with its noise and drift, and no meter's phases are beyond the 15 % imbalance limit
 * (two meters on purpose show a mild one, docs/monitoring.md "Demo estate"). Read by the simulator
 * as the collector reads it, 40 quarter hours at different hours of the day, each with its own dice.
 */
describe('the demo estate read by the simulator', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    await seedDemo(database.db);
  });
  afterAll(() => database.destroy());

  it('raises no alarm in forty quarter hours, and its meters stay under the imbalance limit', async () => {
    const devices = await loadDevices(database.db);
    const rows = await database.db.kysely
      .selectFrom('items as i')
      .innerJoin('devices as d', 'd.id', 'i.device_id')
      .select(['i.id', 'i.name', 'i.item_cell_name', 'i.value_type', 'i.threshold_min', 'i.threshold_max'])
      .select(['i.status_threshold', 'i.overrun_point', 'i.recovery_point', 'd.name as device', 'd.device_group_id'])
      .execute();
    const rules = new Map(rows.map((i) => [i.id, { ...i, value_type: i.value_type === 0 ? 0 : 1 }]));
    const worst = new Map<string, number>();
    const causes = new Map<string, number>();
    // Per meter and run: its counter's first and last reading, and its power readings (issue 38: the
    // counter grew at 58 kW beside a power of 24 kW); the phases' powers add up to the power.
    const energy = new Map<string, { first: number; last: number; power: number[] }>();
    let phaseGap = 0;
    for (let run = 0; run < 40; run++) {
      let clock = Date.UTC(2026, 10, 23, 8) + run * 3_600_000;
      const driver = createSimulatorDriver({ now: () => clock, random: mulberry32(run + 1) });
      const sessions = await Promise.all(
        devices.map(async (device) => ({ device, session: await driver.connect(device) })),
      );
      const state = new Map<number, number>();
      // One read of every device every 10 s (the demo's check interval), for 15 minutes.
      for (let round = 0; round < 90; round++) {
        clock += 10_000;
        for (const { device, session } of sessions) {
          const { values } = await session.read(device.items);
          const phases: number[] = [];
          const meter = `${run}:${device.device_group_id}:${device.name}`;
          let power = 0;
          let phasePower = 0;
          for (const item of device.items) {
            const value = values.get(item.id);
            const rule = rules.get(item.id);
            if (value === undefined || !rule) continue;
            const cell = rule.item_cell_name;
            if (/^I[abc]$/.test(cell)) phases.push(value);
            if (/^P[abc]$/.test(cell)) phasePower += value;
            if (cell === 'P') {
              power = value;
              energy.get(meter)?.power.push(value);
            }
            if (cell === 'EP') {
              const e = energy.get(meter) ?? { first: value, last: value, power: [] };
              energy.set(meter, { ...e, last: value });
            }
            const previous = state.get(item.id) ?? monitorState.normal;
            const next = thresholdState(rule, value, previous);
            if (next === monitorState.abnormal && previous !== monitorState.abnormal)
              causes.set(`${rule.device} ${rule.name}`, (causes.get(`${rule.device} ${rule.name}`) ?? 0) + 1);
            state.set(item.id, next);
          }
          if (power > 0) phaseGap = Math.max(phaseGap, Math.abs(phasePower / power - 1));
          if (phases.length === 3) {
            const key = `${device.device_group_id}:${device.name}`;
            worst.set(key, Math.max(worst.get(key) ?? 0, imbalance(phases)));
          }
        }
      }
    }
    expect(Object.fromEntries(causes)).toEqual({});
    expect(worst.size).toBe(24);
    // Every meter under the limit (the others read 3–6 % at worst); above 7.5 % only the two documented.
    expect([...worst.values()].every((v) => v < 15)).toBe(true);
    const sites = [...new Set([...worst.keys()].map((k) => Number(k.split(':')[0])))].sort((a, b) => a - b);
    const mild = [...worst].filter(([, v]) => v > 7.5).map(([k]) => k);
    expect(mild.sort()).toEqual([`${sites[1]}:PM-03`, `${sites[2]}:PM-06`].sort());
    // Each counter grew by what its power readings integrate (the first reading's 10 s before them).
    expect(energy.size).toBe(24 * 40);
    const rates = [...energy.values()].map(({ first, last, power }) => {
      const mean = power.slice(1).reduce((a, b) => a + b, 0) / (power.length - 1);
      return (last - first) / ((mean * (power.length - 1) * 10) / 3600);
    });
    expect(Math.min(...rates)).toBeGreaterThan(0.98);
    expect(Math.max(...rates)).toBeLessThan(1.02);
    expect(phaseGap).toBeLessThan(0.025);
  });
});

/** Wednesday 25 November 2026, 10:00 in UTC+8: a year and a month of history lie before it. */
const startMs = Date.UTC(2026, 10, 25, 2);
const dayS = 86_400;

/**
 * The demo as a first start makes it, on the app's manual clock: its first quarter hour raises no
 * alarm (so no work order), the electrical-safety figures agree (24 meters, none beyond a limit),
 * and its energy history is not the same every day.
 */
describeEachDatabase('the demo estate on first start', (dialect) => {
  const clock = createManualClock(startMs);
  const t = useTestApp(dialect, {
    clock: clock.now,
    timers: clock.timers,
    drivers: { simulator: createSimulatorDriver({ now: clock.now, random: mulberry32(38) }) },
  });
  beforeAll(async () => {
    clock.settleWith((between) => t.sitewatch.settled(between));
    await t.sitewatch.prepare({ demo: true });
    await t.sitewatch.start();
  }, 120_000);

  it('raises no alarm and makes no work order in its first fifteen minutes', async () => {
    await clock.advance(15 * 60_000);
    await t.sitewatch.settled();
    const k = t.database.db.kysely;
    const samples = await k
      .selectFrom('samples_1m')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    // Every item was read through the quarter hour (750 items, a minute roll-up each a minute).
    expect(Number(samples.n)).toBeGreaterThanOrEqual(750 * 14);
    const alarms = await k.selectFrom('alarms').select(['device_name', 'item_name', 'info']).execute();
    expect(alarms).toEqual([]);
    expect(await k.selectFrom('work_orders').select('id').execute()).toEqual([]);

    // The home panel's figures: every meter read, none beyond a limit.
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/overview/electrical_safety',
      headers: { authorization: 'Bearer admin-token' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const overview = res.json().data;
    expect([overview.meters, overview.meters_with_issues, overview.issues]).toEqual([24, 0, []]);
    expect(overview.worst.current_unbalance).toBeLessThan(15);
  }, 300_000);

  it('has energy history in which weekdays, weekends, seasons and years differ', async () => {
    await t.sitewatch.services.energyFill.catchUp();
    const k = t.database.db.kysely;
    const site = (await k.selectFrom('device_groups').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const meters = await k
      .selectFrom('energy_meters')
      .select(['id', 'category'])
      .where('device_group_id', '=', site)
      .execute();
    const ids = (category: string) => meters.filter((m) => m.category === category).map((m) => m.id);
    const days = await k.selectFrom('energy_days').select(['meter_id', 'ts', 'kwh']).execute();
    /** kWh of a category's meters per day (ts of the local day). */
    const perDay = (category: string) => {
      const mine = new Set(ids(category));
      const out = new Map<number, number>();
      for (const d of days) if (mine.has(d.meter_id)) out.set(d.ts, (out.get(d.ts) ?? 0) + d.kwh);
      return out;
    };
    const it = perDay('it');
    const total = perDay('total');
    const now = startMs / 1000;
    /** Mean of `f` over the whole days in [from, to) (epoch seconds). */
    const mean = (series: Map<number, number>, from: number, to: number, keep = (_ts: number) => true) => {
      const v = [...series].filter(([ts]) => ts >= from && ts + dayS <= to && keep(ts)).map(([, kwh]) => kwh);
      expect(v.length).toBeGreaterThan(0);
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    // Weekdays above weekends (the last eight weeks; the days as the server's zone cuts them).
    const weekday = (ts: number) => new Date((ts + dayS / 2) * 1000).getDay();
    const recent = now - 56 * dayS;
    const workdays = mean(it, recent, now, (ts) => weekday(ts) >= 2 && weekday(ts) <= 4);
    const weekends = mean(it, recent, now, (ts) => weekday(ts) === 0 || weekday(ts) === 6);
    expect(weekends / workdays).toBeLessThan(0.95);
    // Summer's cooling makes a higher PUE than winter's.
    const pueOf = (from: number, to: number) => mean(total, from, to) / mean(it, from, to);
    const july = pueOf(Date.UTC(2026, 6, 1) / 1000, Date.UTC(2026, 7, 1) / 1000);
    const january = pueOf(Date.UTC(2026, 0, 1) / 1000, Date.UTC(2026, 1, 1) / 1000);
    expect(july).toBeGreaterThan(1.5);
    expect(january).toBeLessThan(1.4);
    // No two days alike, and last year's November below this year's (three whole weeks each).
    const dailyPue = [...it].filter(([ts]) => total.has(ts)).map(([ts, kwh]) => (total.get(ts)! / kwh).toFixed(3));
    expect(new Set(dailyPue).size).toBeGreaterThan(dailyPue.length / 3);
    const thisYear = mean(it, Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 22) / 1000);
    const lastYear = mean(it, Date.UTC(2025, 10, 1) / 1000, Date.UTC(2025, 10, 22) / 1000);
    expect(lastYear / thisYear).toBeLessThan(0.97);
    expect(lastYear / thisYear).toBeGreaterThan(0.9);
  }, 300_000);
});
