import { expect, it } from 'vitest';
import { createSeriesStore } from '../src/series/store.ts';
import { type TestApp, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { addDeviceItems, addSite, type Headers } from './helpers/estate.ts';

const h = 3600;
const min = 60;
const admin: Headers = { authorization: 'Bearer admin-token' };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A meter on a new device of its own, the samples it is read through (published on the bus, as the
 * collector does, into the app's series store) and the energy the API books for it.
 */
const estate = (t: TestApp) => {
  const call = (method: Method, url: string, headers = admin, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  const meter = async (name: string, body: { kind: 'counter' | 'power' } & Record<string, unknown>) => {
    const site = await addSite(call, `${name} room`);
    const { items } = await addDeviceItems(call, site, { name: `PM-${name}`, code: 'power_meter', template_id: 4 });
    const res = await call('POST', 'setting/energy', undefined, {
      name,
      item_id: items[0],
      category: 'total',
      device_group_id: site,
      ...body,
    });
    expect(res.statusCode).toBe(200);
    return { id: res.json().data.id as number, item: items[0] };
  };
  const publish = (item: number, ts: number, value: number) =>
    t.sitewatch.bus.publish('sample', { item_id: item, value, ts_ms: ts * 1000 });
  /** What energy_used answers for a meter over [t1, t2): hours (from t1) and events (from t1), rounded to Wh. */
  const used = async (meterId: number, t1: number, t2: number) => {
    const data = (
      await call('GET', `energy/energy_used?meter_id=${meterId}&t1=${t1}&t2=${t2 - 1}&interval=hour`)
    ).json().data[0];
    return {
      total: data.total_kwh as number,
      hours: data.buckets.map((b: { ts: number; kwh: number; estimated: boolean }) => [
        (b.ts - t1) / h,
        b.kwh,
        b.estimated,
      ]),
      events: data.events.map((e: { ts: number; rule: string; from: number; to: number; kwh: number }) => [
        e.rule,
        e.ts - t1,
        e.from,
        e.to,
        e.kwh,
      ]),
    };
  };
  return { meter, publish, used };
};

/**
 * Energy books what was measured (issue 28, docs/energy.md "Rules"), hour by hour as computed by
 * hand, on both databases. Samples go through the bus into the app's series store; time is the
 * app's clock, moved by the test (a read takes in a live meter's new readings once 15 s have passed).
 */
describeEachDatabase('energy: books what was measured', (dialect) => {
  let now = Date.UTC(2026, 2, 2, 0, 0, 0);
  const t = useTestApp(dialect, (database) => ({ clock: () => now, series: createSeriesStore(database.db) }));
  const day = (d: number) => Date.UTC(2026, 2, d) / 1000;

  it('a power meter books the time its readings cover: mid-hour, when the hour ends, across a gap', async () => {
    const { meter, publish, used } = estate(t);
    const d = day(2);
    const power = await meter('Feed', { kind: 'power' });
    const counter = await meter('Feed counter', { kind: 'counter' });
    /** The same 150 kW load read every 10 s up to `to`: by the power item and by an energy counter from 1000 kWh. */
    let next = d + 16 * h;
    const readUpTo = (to: number) => {
      for (; next <= to; next += 10) {
        publish(power.item, next, 150);
        publish(counter.item, next, 1000 + (150 * (next - (d + 16 * h))) / h);
      }
      now = to * 1000;
    };

    // 90 s into the hour: 150 kW × 1.5 min = 3.75 kWh (a whole hour at the mean, 150 kWh, before).
    readUpTo(d + 16 * h + 90);
    expect(await used(power.id, d, d + 24 * h)).toEqual({ total: 3.75, hours: [[16, 3.75, false]], events: [] });

    // The hour ends and the next has run 20 s: the hour is closed whole, the next holds its 20 s.
    readUpTo(d + 17 * h + 20);
    const powered = await used(power.id, d, d + 24 * h);
    expect(powered.hours).toEqual([
      [16, 150, false],
      [17, 0.833, false],
    ]);
    // The counter on the same load: its first reading is its baseline; it closes each hour at its
    // last reading (16:59:50), so its hours lag a poll, and the day is the counter's difference.
    const counted = await used(counter.id, d, d + 24 * h);
    expect(counted.hours).toEqual([
      [16, 149.583, false],
      [17, 1.25, false],
    ]);
    expect(powered.total).toBe(150.833);
    expect(counted.total).toBe(150.833);

    // Readings stop at 17:10 and come back at 17:40: the 17:10 reading holds for its minute, the
    // half hour is not filled (a gap is noted at 17:40), then 17:40-18:00 is covered again.
    readUpTo(d + 17 * h + 10 * min);
    next = d + 17 * h + 40 * min;
    readUpTo(d + 18 * h);
    const gapped = await used(power.id, d, d + 24 * h);
    // 17:00-17:11 and 17:40-18:00: 31 minutes at 150 kW = 77.5 kWh.
    expect(gapped.hours).toEqual([
      [16, 150, false],
      [17, 77.5, false],
    ]);
    expect(gapped.events).toEqual([['gap', 17 * h + 40 * min, 150, 150, 0]]);
  });

  it('a counter books its first, partial hour and keeps what it counted after a reset without max_power_kw', async () => {
    const { meter, publish, used } = estate(t);
    const d = day(3);
    const counter = await meter('Chiller', { kind: 'counter' });
    // Read every 5 minutes from 16:20 at 120 kWh an hour (10 kWh a reading), from 500 kWh; reset to
    // zero at 17:32, so 17:35 reads 6 kWh; on until 18:55 (166 kWh).
    const value = (ts: number) =>
      ts < d + 17 * h + 32 * min
        ? 500 + (120 * (ts - (d + 16 * h + 20 * min))) / h
        : (120 * (ts - (d + 17 * h + 32 * min))) / h;
    let next = d + 16 * h + 20 * min;
    const readUpTo = (to: number) => {
      for (; next <= to; next += 5 * min) publish(counter.item, next, value(next));
      now = to * 1000;
    };

    // 17:50: the reset happened inside hour 17, whose closing is still the old counter's highest
    // reading (640 at 17:30); the event is stamped at the reading that showed it (17:35), not at
    // the end of the hour (18:00), let alone of the next.
    readUpTo(d + 17 * h + 50 * min);
    const early = await used(counter.id, d, d + 24 * h);
    expect(early.hours).toEqual([
      [16, 70, false],
      [17, 70, false],
    ]);
    // Hour 16 from the first reading (500 at 16:20) to its closing (570 at 16:55): the partial hour is booked.
    expect(early.events).toEqual([]);

    // 18:05: the new counter's 66 kWh are in hour 18 (the reset's energy: estimated).
    readUpTo(d + 18 * h + 5 * min);
    const reset = await used(counter.id, d, d + 24 * h);
    expect(reset.hours).toEqual([
      [16, 70, false],
      [17, 70, false],
      [18, 66, true],
    ]);
    expect(reset.events).toEqual([['reset', 17 * h + 35 * min, 640, 66, 66]]);

    // 19:00: 166 kWh counted since the reset, over 10 % of the old reading (64): still kept (the
    // old rule booked 0 from here on).
    readUpTo(d + 18 * h + 55 * min);
    now = (d + 19 * h) * 1000;
    const kept = await used(counter.id, d, d + 24 * h);
    expect(kept.hours).toEqual([
      [16, 70, false],
      [17, 70, false],
      [18, 166, true],
    ]);
    expect(kept.events).toEqual([['reset', 17 * h + 35 * min, 640, 166, 166]]);
    // The day is the counters' differences: the old one's (640 - 500) and the new one's (166).
    expect(kept.total).toBe(140 + 166);
  });

  it('a counter across a rollover and a gap: each hour by hand, the total the counter difference', async () => {
    const { meter, publish, used } = estate(t);
    const d = day(4);
    const counter = await meter('Wrap', { kind: 'counter', rollover_at: 10_000, max_power_kw: 500 });
    // 100 kWh an hour read every 15 minutes from 00:00 (9800 kWh); the register wraps at 10 000
    // (02:00 reads 0); nothing is read from 03:00 to 06:00; back at 06:00 (400) until 06:45 (475).
    const value = (ts: number) => (9800 + (100 * (ts - d)) / h) % 10_000;
    for (let ts = d; ts < d + 3 * h; ts += 15 * min) publish(counter.item, ts, value(ts));
    for (let ts = d + 6 * h; ts < d + 7 * h; ts += 15 * min) publish(counter.item, ts, value(ts));
    now = (d + 7 * h) * 1000;

    const { total, hours, events } = await used(counter.id, d, d + 24 * h);
    expect(hours).toEqual([
      [0, 75, false], // the first reading (9800) to the hour's closing (9875 at 00:45)
      [1, 100, false],
      [2, 100, false], // 9975 → 75 across the wrap: 10 000 − 9975 + 75
      [3, 100, true], // 75 → 475 over four hours, spread and estimated
      [4, 100, true],
      [5, 100, true],
      [6, 100, true],
    ]);
    expect(events).toEqual([
      ['rollover', 2 * h, 9975, 75, 100],
      ['gap', 6 * h, 75, 475, 400],
    ]);
    expect(total).toBe(10_000 - 9800 + 475);
  });
});
