import type { BusEvent } from '@sitewatch/contract/events';
import { expect, it } from 'vitest';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 18: `config.changed` naming devices re-reads only their items (a full read of 100 000
 * items blocked the server ~0.9 s); an event without ids still re-reads everything.
 */
describeEachDatabase('the alarm engine re-reads what a change names', (dialect) => {
  const t = useTestApp(dialect, { drivers: { simulator: createSimulatorDriver() } });
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
    // Both thresholds drop below the steady 20 °C behind the engine's back; only A is named.
    await t.database.db.kysely
      .updateTable('items')
      .set({ threshold_max: 10 })
      .where('id', 'in', [a.item, b.item])
      .execute();
    t.sitewatch.bus.publish('config.changed', { area: 'devices', ids: [a.device] });
    const until = Date.now() + 5000;
    while (!raised.has(a.item) && Date.now() < until) await sleep(25);
    expect(raised.has(a.item)).toBe(true);
    // B has been polled since, with its old threshold still in force.
    await sleep(1500);
    expect(raised.has(b.item)).toBe(false);
    t.sitewatch.bus.publish('config.changed', { area: 'devices', ids: null });
    const later = Date.now() + 5000;
    while (!raised.has(b.item) && Date.now() < later) await sleep(25);
    expect(raised.has(b.item)).toBe(true);
  });
});
