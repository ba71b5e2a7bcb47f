import type { BusEvent } from '@sitewatch/contract/events';
import { expect, it } from 'vitest';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/**
 * The test kernel (docs/testing.md, "The test clock"): two apps in one Vitest worker, each on a
 * clock of its own, do not run each other's engines or timers, and settled() leaves nothing in
 * flight (the buffered alarm rows and samples are written).
 */
describeEachDatabase('two apps in one process, each on its own clock', (dialect) => {
  const a = useManualTestApp(dialect, { drivers: { simulator: createSimulatorDriver() } });
  const b = useManualTestApp(dialect, { drivers: { simulator: createSimulatorDriver() } });
  type App = typeof a;

  /** A site with one simulated temperature polled every second, alarmed above `max`. */
  const estate = async (t: App, max: number) => {
    const post = async (url: string, payload: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/${url}`,
        headers: { authorization: 'Bearer admin-token' },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const site = await post('setting/device_groups', { name: 'Room', weight: 1 });
    const device = await post('setting/devices', {
      name: 'TH',
      device_group_id: site,
      driver: 'simulator',
      code: 'temp_hum',
      check_interval: 1,
    });
    const item = await post('setting/items', {
      device_id: device,
      name: 'temp',
      value_type: 1,
      threshold_min: 0,
      threshold_max: max,
      overrun_point: 0,
      recovery_point: 1,
      repetitions: 1,
      source: { kind: 'simulator', model: 'analog', base: 20, spread: 0, noise: 0 },
    });
    const samples: Array<BusEvent<'sample'>> = [];
    t.sitewatch.bus.subscribe('sample', (e) => {
      if (e.item_id === item) samples.push(e);
    });
    return { item, samples };
  };

  it('starting one app starts nothing of the other, and each polls only on its own clock', async () => {
    const one = await estate(a, 10);
    const two = await estate(b, 10);
    const waitingInB = b.clock.pending();
    await a.sitewatch.start();
    // A's start scheduled its engines, schedules and polls on A's clock only.
    expect(b.clock.pending()).toBe(waitingInB);
    await a.clock.advance(3_000);
    expect(one.samples.length).toBeGreaterThanOrEqual(3);
    expect(one.samples.every((s) => s.value === 20)).toBe(true);
    expect(two.samples).toEqual([]);

    await b.sitewatch.start();
    expect(b.clock.pending()).toBeGreaterThan(waitingInB);
    const seenInA = one.samples.length;
    await b.clock.advance(1_000);
    expect(two.samples.length).toBeGreaterThanOrEqual(1);
    expect(one.samples.length).toBe(seenInA);
  });

  it('settled() writes what the engines hold: the raised alarm and the samples are in the tables', async () => {
    const k = a.database.db.kysely;
    const raised = await k.selectFrom('alarms').select(['item_id', 'end_time']).execute();
    // 20 °C above a maximum of 10: raised at each app's first poll, once, in its own database.
    expect(raised).toHaveLength(1);
    expect(raised[0]!.end_time).toBeNull();
    expect(await b.database.db.kysely.selectFrom('alarms').select('id').execute()).toHaveLength(1);
    const blocks = await k.selectFrom('sample_blocks').select('n').execute();
    const chunks = await k.selectFrom('sample_chunks').select('n').execute();
    expect([...blocks, ...chunks].reduce((n, r) => n + r.n, 0)).toBeGreaterThanOrEqual(3);
  });
});
