import { expect, it } from 'vitest';
import { createEnergyFill } from '../src/modules/energy/fill.ts';
import { zoneClock } from '../src/modules/energy/tariff.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { addDeviceItems, addSite, realLogin, signInFirstAdmin } from './helpers/estate.ts';

const h = 3600;
const base = Date.UTC(2026, 0, 5, 0) / 1000;

/**
 * A signed-in estate with one counter meter on a new device, the series store its readings go
 * into, and what the tests read back.
 */
const counterMeter = async (t: ReturnType<typeof useTestApp>, name: string) => {
  const { call } = await signInFirstAdmin(t);
  const site = await addSite(call, `${name} room`);
  const {
    items: [item],
  } = await addDeviceItems(call, site, { name: `PM-${name}`, code: 'temp_hum', template_id: 1 });
  const meterBody = { name, item_id: item, kind: 'counter', category: 'total', device_group_id: site };
  const meter = (await call('POST', 'setting/energy', undefined, meterBody)).json().data;
  const store = createSeriesStore(t.database.db);
  /** 15-minute readings of a counter growing 10 kWh an hour over hours [from, to). */
  const readings = (from: number, to: number, skip: number[] = []) => {
    for (let hr = from; hr < to; hr++) {
      if (skip.includes(hr)) continue;
      for (let q = 0; q < 4; q++) store.append(item, (base + hr * h + q * 900) * 1000, 100 + 10 * hr + 2.5 * q);
    }
  };
  /** A late closing reading of an hour, a little higher (2 kWh moved from the next hour), told through the bus. */
  const lateReading = (hr: number) => {
    const ts = (base + hr * h + 3500) * 1000;
    store.append(item, ts, 100 + 10 * hr + 9.5);
    t.sitewatch.bus.publish('sample', { item_id: item, value: 100 + 10 * hr + 9.5, ts_ms: ts });
  };
  const hours = async () =>
    (
      await t.database.db.kysely
        .selectFrom('energy_hours')
        .select(['ts', 'kwh', 'estimated'])
        .where('meter_id', '=', meter.id)
        .orderBy('ts')
        .execute()
    ).map((r) => [(Number(r.ts) - base) / h, Math.round(r.kwh * 1000) / 1000, r.estimated]);
  return { call, site, meter, meterBody, store, fill: t.sitewatch.services.energyFill, readings, lateReading, hours };
};

/**
 * The stored energy (energy_hours / energy_days / energy_events, docs/energy.md) follows the series
 * store's roll-ups incrementally: a restarted fill resumes from the last hour it read instead of
 * recomputing everything, a late sample recomputes the hours it changes, and a changed meter is
 * recomputed over its whole history; the API answers from the stored energy on both databases.
 */
describeEachDatabase('energy: the incremental hourly energy fill', (dialect) => {
  const t = useTestApp(dialect, realLogin);

  it('resumes after a restart, recomputes late data and a changed meter', async () => {
    const { call, site, meter, meterBody, store, fill, readings, lateReading, hours } = await counterMeter(t, 'Feed');
    const k = t.database.db.kysely;

    // Five days of readings, hour 50 missing: its energy is spread over the gap and marked estimated.
    // The first reading (100 kWh at hour 0) is the baseline of the first hour: 7.5 kWh to its closing.
    readings(0, 120, [50]);
    await store.flush();
    await fill.catchUp();
    const filled = await hours();
    expect(filled).toHaveLength(120);
    expect(filled.slice(0, 2)).toEqual([
      [0, 7.5, 0],
      [1, 10, 0],
    ]);
    expect(filled.filter((r) => r[2] === 1).map((r) => r[0])).toEqual([50, 51]);
    const fillRow = await k.selectFrom('energy_fill').selectAll().where('meter_id', '=', meter.id).executeTakeFirst();
    expect(Number(fillRow?.last_ts)).toBe(base + 119 * h);

    // A restart: a new fill on the same tables resumes from the last hour read. An old hour altered
    // by hand stays as it is, which shows that nothing before the recomputed window was redone.
    await k
      .updateTable('energy_hours')
      .set({ kwh: 999 })
      .where('meter_id', '=', meter.id)
      .where('ts', '=', base + 2 * h)
      .execute();
    readings(120, 130);
    await store.flush();
    const restarted = createEnergyFill({
      db: t.database.db,
      store,
      clock: zoneClock(process.env.TZ || 'UTC'),
    });
    await restarted.catchUp();
    const resumed = await hours();
    expect(resumed).toHaveLength(130);
    expect(resumed.at(-1)).toEqual([129, 10, 0]);
    expect(resumed.find((r) => r[0] === 2)).toEqual([2, 999, 0]);

    // A late sample for hour 120 (its closing reading a little higher: 2 kWh moved from hour 121 to
    // 120) is told through the bus and recomputes those hours.
    await fill.catchUp();
    lateReading(120);
    await store.flush();
    await fill.catchUp();
    const after = await hours();
    expect(after.find((r) => r[0] === 120)).toEqual([120, 12, 0]);
    expect(after.find((r) => r[0] === 121)).toEqual([121, 8, 0]);
    expect(after.find((r) => r[0] === 2)).toEqual([2, 999, 0]);
    const range = `meter_id=${meter.id}&t1=${base}&t2=${base + 130 * h - 1}`;
    expect((await call('GET', `energy/energy_used?${range}&interval=hour`)).json().data[0].total_kwh).toBe(
      7.5 + 10 * 129 + 999 - 10,
    );

    // A changed meter (another highest power) is recomputed over its whole history: the altered hour heals.
    expect(
      (await call('PUT', `setting/energy/${meter.id}`, undefined, { ...meterBody, max_power_kw: 1000 })).statusCode,
    ).toBe(200);
    const healed = (await call('GET', `energy/energy_used?${range}&interval=hour`)).json().data[0];
    expect(healed.total_kwh).toBe(1297.5);
    expect(healed.buckets.find((b: { ts: number }) => b.ts === base + 2 * h).kwh).toBe(10);
    // The gap is stamped at the reading that showed it: the first one after it, at 51:00.
    expect(healed.events.map((e: { rule: string; ts: number }) => [e.rule, (e.ts - base) / h])).toEqual([['gap', 51]]);
    // By day the answer comes from the daily sums (whole days) and hours (the partial edges): the same total.
    const daily = (await call('GET', `energy/energy_used?${range}&interval=day`)).json().data[0];
    expect(daily.total_kwh).toBe(1297.5);
    expect(daily.buckets.length).toBeGreaterThanOrEqual(6);
    expect(daily.buckets.some((b: { estimated: boolean }) => b.estimated)).toBe(true);
    // The cost reads whole days from the hours packed in the daily rows: every hour counted once.
    const flat = (
      await call('POST', 'time_sharing_system', undefined, {
        name: 'Flat',
        slots: [{ start: '00:00', end: '24:00', band: 'flat', price: 0.5 }],
      })
    ).json().data;
    await call('PUT', `energy_cost_set/${site}`, undefined, { tariff_id: flat.id, valid_from: 0 });
    const cost = (await call('GET', `energy_analysis/cost_statistics?${range}&interval=day`)).json().data[0];
    expect(cost).toMatchObject({ kwh: 1297.5, cost_cents: 64_875, uncosted_kwh: 0 });
    const days = await k
      .selectFrom('energy_days')
      .select((eb) => eb.fn.sum<number>('kwh').as('kwh'))
      .where('meter_id', '=', meter.id)
      .executeTakeFirst();
    expect(Number(days?.kwh)).toBeCloseTo(1297.5, 6);

    // The server's zone changed (a fill on another clock): the daily rows are cut again on local
    // midnights of the new zone (Kathmandu, +05:45: not on the hour), their packed hours whole.
    const other = 'Asia/Kathmandu';
    const moved = createEnergyFill({
      db: t.database.db,
      store,
      clock: zoneClock(other),
      zone: other,
    });
    await moved.catchUp();
    expect(
      (await k.selectFrom('module_settings').select('v').where('k', '=', 'energy_zone').executeTakeFirst())?.v,
    ).toBe(other);
    const cut = await k
      .selectFrom('energy_days')
      .select(['ts', 'kwh', 'hours'])
      .where('meter_id', '=', meter.id)
      .execute();
    expect(cut.every((d) => Number(d.ts) % h === 15 * 60)).toBe(true);
    const unpacked = cut.flatMap((d) =>
      d.hours
        .split(',')
        .filter((v) => v !== '')
        .map(Number),
    );
    expect(unpacked).toHaveLength(130);
    expect(unpacked.reduce((a, b) => a + b, 0)).toBeCloseTo(1297.5, 6);
  });
});

describeEachDatabase('energy: the fill after a long gap', (dialect) => {
  const t = useTestApp(dialect, realLogin);

  it('a late sample after a long gap keeps the gap spread from the last reading before it', async () => {
    const { store, fill, readings, lateReading, hours } = await counterMeter(t, 'Gap');
    // Hours 0-10, nothing for 100 hours (more than the recompute's two days of context), then 110-200.
    readings(
      0,
      201,
      Array.from({ length: 99 }, (_, i) => 11 + i),
    );
    await store.flush();
    await fill.catchUp();
    const before = await hours();
    // The gap's energy is spread over its hours, from the last reading before it (hour 10).
    expect(before.filter((r) => r[2] === 1).map((r) => r[0])).toEqual(Array.from({ length: 100 }, (_, i) => 11 + i));

    // A late sample for hour 150 recomputes from two days before it: the gap's last hours are in
    // that window, and their baseline is hour 10, found before the context.
    lateReading(150);
    await store.flush();
    await fill.catchUp();
    const after = await hours();
    const expected = before.map((r) => (r[0] === 150 ? [150, 12, 0] : r[0] === 151 ? [151, 8, 0] : r));
    expect(after).toEqual(expected);
  });
});
