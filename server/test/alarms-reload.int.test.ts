import type { BusEvent } from '@sitewatch/contract/events';
import { expect, it } from 'vitest';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/**
 * Issue 18: `config.changed` naming devices re-reads only their items (a full read of 100 000
 * items blocked the server ~0.9 s); an event without ids still re-reads everything.
 */
describeEachDatabase('the alarm engine re-reads what a change names', (dialect) => {
  // The collector polls on the app's own clock (every second here), moved by the test.
  const t = useManualTestApp(dialect, { drivers: { simulator: createSimulatorDriver() } });
  const call = async (url: string, payload: object) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };

  it('reloads the named device’s items alone, and all of them on an event without ids', async () => {
    const site = await call('setting/device_groups', { name: '机房R', weight: 1 });
    const made: Array<{ device: number; item: number }> = [];
    for (const name of ['R-A', 'R-B']) {
      const device = await call('setting/devices', {
        name,
        device_group_id: site,
        driver: 'simulator',
        code: 'temp_hum',
        check_interval: 1,
      });
      const item = await call('setting/items', {
        device_id: device,
        name: '温度',
        value_type: 1,
        threshold_min: 0,
        threshold_max: 100,
        overrun_point: 0,
        recovery_point: 1,
        repetitions: 1,
        source: { kind: 'simulator', model: 'analog', base: 20, spread: 0, noise: 0 },
      });
      made.push({ device, item });
    }
    const [a, b] = made as [{ device: number; item: number }, { device: number; item: number }];
    const raised = new Set<number>();
    t.sitewatch.bus.subscribe('alarm.raised', (e: BusEvent<'alarm.raised'>) => raised.add(e.alarm.item_id));
    await t.sitewatch.start();
    await t.clock.advance(2_000);
    expect(raised.size).toBe(0);
    // Both thresholds drop below the steady 20 °C behind the engine's back; only A is named.
    await t.database.db.kysely
      .updateTable('items')
      .set({ threshold_max: 10 })
      .where('id', 'in', [a.item, b.item])
      .execute();
    t.sitewatch.bus.publish('config.changed', { area: 'devices', ids: [a.device] });
    // Both are polled twice more: A is judged by its new threshold, B still by its old one.
    await t.clock.advance(2_000);
    expect([...raised]).toEqual([a.item]);
    t.sitewatch.bus.publish('config.changed', { area: 'devices', ids: null });
    await t.clock.advance(2_000);
    expect([...raised].sort()).toEqual([a.item, b.item].sort());
  });
});
