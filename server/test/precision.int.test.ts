import type { ModbusDataType } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { modbusTcpDriver } from '../src/collector/drivers/modbus-tcp.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { pymodbusPeer, type RegisterEntry } from './helpers/pymodbus.ts';

/**
 * Issue 28, finding 7: every value was rounded to 6 decimals at ingest, so a float64 of
 * 230.123456789 was stored as 230.123457 and one below 5e-7 as 0. Values now keep the precision
 * their type carries (docs/monitoring.md "Precision"), from pymodbus's registers through the live
 * value, the items row, the raw series and the hourly roll-up's mean. Configured through the API.
 */
const points: Array<{ name: string; type: ModbusDataType; raw: number; scale?: number; value: number }> = [
  { name: 'f64', type: 'float64', raw: 230.123456789, value: 230.123456789 },
  { name: 'f64 tiny', type: 'float64', raw: 4e-7, value: 4e-7 },
  { name: 'f64 tiny negative', type: 'float64', raw: -4.9e-7, value: -4.9e-7 },
  { name: 'i64 max safe', type: 'int64', raw: -9_007_199_254_740_991, value: -9_007_199_254_740_991 },
  { name: 'u64 max safe', type: 'uint64', raw: 9_007_199_254_740_991, value: 9_007_199_254_740_991 },
  // An energy counter in Wh read as kWh: the decimal scale gives the decimal value.
  { name: 'u64 Wh', type: 'uint64', raw: 1_234_567_891_234, scale: 0.001, value: 1_234_567_891.234 },
  // A float32 carries about 7 digits: 230.1, not 230.10000610351562 (nor 230.100006).
  { name: 'f32', type: 'float32', raw: 230.1, value: 230.1 },
  { name: 'u16 scaled', type: 'uint16', raw: 2351, scale: 0.1, value: 235.1 },
];

describeEachDatabase('values keep the precision of their type', (dialect) => {
  const t = useTestApp(dialect, { drivers: { 'modbus-tcp': modbusTcpDriver } });
  let peer: Awaited<ReturnType<typeof pymodbusPeer>>;
  const itemIds = new Map<string, number>();
  /** The first value each item was sampled with, as the collector published it. */
  const sampled = new Map<number, number | null>();
  let allSampled: Promise<void>;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    const input: RegisterEntry[] = points.map((p, i) => ({
      address: 10 + i * 4,
      type: p.type,
      order: 'ABCD',
      value: p.raw,
    }));
    peer = await pymodbusPeer({ input });
    const site = (await call('POST', 'setting/device_groups', { name: 'Precision', weight: 1 })).id;
    const device = (
      await call('POST', 'setting/devices', {
        name: 'meter-precise',
        device_group_id: site,
        driver: 'modbus-tcp',
        code: 'power_meter',
        ip: '127.0.0.1',
        port: peer.port,
        check_interval: 1,
        options: { timeout_ms: 1500, modbus_merge_gap: 4, modbus_max_block: 125 },
      })
    ).id;
    for (const [i, p] of points.entries()) {
      const item = await call('POST', 'setting/items', {
        device_id: device,
        name: p.name,
        telemetry_only: true,
        source: { kind: 'modbus', function: 4, register: 10 + i * 4, data_type: p.type, scale: p.scale ?? 1 },
      });
      itemIds.set(p.name, item.id);
    }
    const wanted = new Set(itemIds.values());
    allSampled = new Promise((resolve) => {
      const stop = t.sitewatch.bus.subscribe('sample', ({ item_id, value }) => {
        if (!wanted.has(item_id) || sampled.has(item_id)) return;
        sampled.set(item_id, value);
        if (sampled.size === wanted.size) {
          stop();
          resolve();
        }
      });
    });
    await t.sitewatch.start();
  });
  afterAll(() => peer?.stop());

  const expected = () => points.map((p) => [p.name, p.value]);
  const byName = <T>(get: (id: number) => T) => points.map((p) => [p.name, get(itemIds.get(p.name)!)]);

  it('the first sample of each point is its value exactly, and so is the live value the API answers', async () => {
    await allSampled;
    expect(byName((id) => sampled.get(id))).toEqual(expected());
    const items = (await call('GET', `setting/items?limit=100`)).data as Array<{ id: number; value: number }>;
    const live = new Map(items.map((i) => [i.id, i.value]));
    expect(byName((id) => live.get(id))).toEqual(expected());
  });

  it('the items row, the raw series and the hourly mean keep the value exactly', async () => {
    await allSampled;
    await t.sitewatch.collector!.persist();
    const rows = await t.database.db.kysely.selectFrom('items').select(['id', 'value']).execute();
    const stored = new Map(rows.map((r) => [r.id, r.value]));
    expect(byName((id) => stored.get(id))).toEqual(expected());

    const series = t.sitewatch.series!;
    await series.flush();
    await series.compact();
    const now = Math.floor(Date.now() / 1000);
    for (const p of points) {
      const id = itemIds.get(p.name)!;
      const raw = await call('GET', `series/items/${id}?t1=${now - 3600}&t2=${now + 60}`);
      expect(raw.resolution).toBe('raw');
      expect(raw.points.length).toBeGreaterThan(0);
      expect(new Set(raw.points.map((q: { value: number }) => q.value)), p.name).toEqual(new Set([p.value]));
      // A year is read from the hourly roll-ups: their mean of a constant is that constant.
      const year = await call('GET', `series/items/${id}?t1=${now - 365 * 86_400}&t2=${now + 3600}`);
      expect(year.resolution).toBe('hour');
      expect(new Set(year.points.map((q: { value: number }) => q.value)), p.name).toEqual(new Set([p.value]));
    }
    const history = await call('POST', 'data_historys', {
      item_ids: [...itemIds.values()],
      t1: now - 7200,
      t2: now + 3600,
      interval: 'hour',
      limit: 100,
    });
    const avg = new Map<number, number[]>();
    for (const r of history.data as Array<{ item_id: number; avg: number; min: number; max: number }>) {
      avg.set(r.item_id, [...(avg.get(r.item_id) ?? []), r.avg, r.min, r.max]);
    }
    expect(byName((id) => [...new Set(avg.get(id))])).toEqual(points.map((p) => [p.name, [p.value]]));
  });
});
