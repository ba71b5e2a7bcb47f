import type { BusEvent } from '@sitewatch/contract/events';
import { expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/** Monday 1 … Sunday 7, as time periods count days. */
const weekday = (ms: number) => new Date(ms).getDay() || 7;

/**
 * Writes announce themselves (docs/architecture.md): a time period edited through the API reaches
 * the alarm engine at once, not at the next unrelated item edit. The case of issue 27: an item at 20
 * above its maximum of 10, checked only in a period that leaves today out, raises nothing; the
 * period opened to every day, the next sample raises the alarm, within a second of the edit.
 */
describeEachDatabase('a time period edit reaches the alarm engine', (dialect) => {
  const t = useTestApp(dialect);
  const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('opens the alarm within a second of the period covering today, and the edit is announced', async () => {
    await t.sitewatch.start();
    const announced: BusEvent<'config.changed'>[] = [];
    t.sitewatch.bus.subscribe('config.changed', (e) => announced.push(e));
    const raised: number[] = [];
    t.sitewatch.bus.subscribe('alarm.raised', ({ alarm }) => raised.push(alarm.item_id));

    const today = weekday(Date.now());
    const otherDays = [1, 2, 3, 4, 5, 6, 7].filter((d) => d !== today && d !== weekday(Date.now() + 3_600_000));
    const period = await call('POST', 'setting/time_periods', {
      name: 'not today',
      ranges: [{ weekdays: otherDays, start: '00:00', end: '23:59' }],
    });
    expect(announced).toContainEqual({ area: 'time_periods', ids: [period.id] });
    const site = await call('POST', 'setting/device_groups', { name: 'Site', weight: 1 });
    const device = await call('POST', 'setting/devices', {
      name: 'TH',
      device_group_id: site.id,
      driver: 'simulator',
      code: 'temp_hum',
    });
    const item = await call('POST', 'setting/items', {
      device_id: device.id,
      name: 'T',
      value_type: 1,
      threshold_min: 0,
      threshold_max: 10,
      overrun_point: 0,
      recovery_point: 1,
      repetitions: 1,
      check_period_id: period.id,
      source: { kind: 'simulator', model: 'analog', base: 20 },
    });
    const sample = () => t.sitewatch.bus.publish('sample', { item_id: item.id, value: 20, ts_ms: Date.now() });
    // The engine has read the item (its device was announced) before the first sample is judged.
    await t.sitewatch.alarms.reload({ devices: [device.id], items: [] });
    sample();
    await t.sitewatch.alarms.flush();
    expect(raised).toEqual([]);

    await call('PUT', `setting/time_periods/${period.id}`, {
      name: 'every day',
      ranges: [{ weekdays: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59' }],
    });
    const edited = performance.now();
    expect(announced.at(-1)).toEqual({ area: 'time_periods', ids: [period.id] });
    // A sample every 20 ms until the engine has re-read the period (its gathering delay is 100 ms).
    while (!raised.includes(item.id) && performance.now() - edited < 5000) {
      sample();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(raised).toContain(item.id);
    expect(performance.now() - edited).toBeLessThan(1000);
  });
});
