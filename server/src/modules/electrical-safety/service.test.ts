import { type MeterRole, meterRoles } from '@sitewatch/contract/electrical-safety';
import { monitorState } from '@sitewatch/contract/monitoring';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedEstate } from '../../../../bench/estate.ts';
import { useServiceKit } from '../../../test/helpers/service-kit.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import type { QualityFormulas } from './figures.ts';
import { createElectricalSafetyRepository } from './repository.ts';
import { createElectricalSafetyService } from './service.ts';

/**
 * Electrical safety's rules over their real repository (SQLite), the series store's roll-ups and a
 * clock the test moves: the analysis of a range answers minute means of the readings taken on the
 * clock (hourly ones over longer ranges), judged by the limits; live figures are judged at the
 * reading's time, an unknown phase giving no figure; a stored mapping is stamped at the clock's time.
 */
const start = Date.UTC(2026, 2, 2, 8, 0, 0);

/** The composition root hands in the energy module's formulas; unbalance (NEMA) is all these tests read. */
const formulas: QualityFormulas = {
  unbalance: (a, b, c) => {
    const mean = (a + b + c) / 3;
    return mean > 0 ? (Math.max(Math.abs(a - mean), Math.abs(b - mean), Math.abs(c - mean)) / mean) * 100 : null;
  },
  vufFromLineVoltages: () => null,
  powerFactor: () => null,
  powerFactorPQ: () => null,
  frequencyCheck: (hz) => ({ deviation: hz - 50, ok: Math.abs(hz - 50) <= 0.2 }),
};

describe('electrical safety service', () => {
  const kit = useServiceKit(start);
  const ids = { device: 0, ua: 0, ub: 0, uc: 0 };
  const live = new Map<number, { value: number | null; state: number; last_check: number }>();
  let store: SeriesStore;
  const service = () =>
    createElectricalSafetyService({
      repo: createElectricalSafetyRepository(kit.db, kit.clock.now),
      formulas,
      live: { liveItem: (id) => live.get(id) },
      clock: kit.clock.now,
      rollups: async (itemIds, table, t1, t2) => {
        await store.flush();
        return store.rollups(itemIds, table, t1, t2);
      },
    });
  const seconds = () => Math.floor(kit.clock.now() / 1000);
  /** Readings of the three phases every 15 s for `minutes` minutes of the clock: 230, 220 and 210 V. */
  const readFor = async (minutes: number) => {
    for (let i = 0; i < minutes * 4; i++) {
      for (const [id, v] of [
        [ids.ua, 230],
        [ids.ub, 220],
        [ids.uc, 210],
      ] as const)
        store.append(id, kit.clock.now(), v);
      await kit.clock.advance(15_000);
    }
  };

  beforeAll(async () => {
    const estate = await seedEstate(kit.db, { items: 3, perDevice: 3, siteName: '配电室' });
    ids.device = estate.devices[0]!.id;
    [ids.ua, ids.ub, ids.uc] = estate.devices[0]!.items as [number, number, number];
    const k = kit.db.kysely;
    await k.updateTable('devices').set({ code: 'power_meter' }).where('id', '=', ids.device).execute();
    for (const [id, cell] of [
      [ids.ua, 'Ua'],
      [ids.ub, 'Ub'],
      [ids.uc, 'Uc'],
    ] as const)
      await k.updateTable('items').set({ item_cell_name: cell, unit: 'V' }).where('id', '=', id).execute();
    store = createSeriesStore(kit.db);
  });

  it('answers minute means of the last hour’s readings, judged by the unbalance limit', async () => {
    await readFor(60);
    const answer = await service().analysis({ device_id: ids.device, t1: seconds() - 3600, t2: seconds() }, null);
    expect(answer.resolution).toBe('minute');
    expect(answer.points).toHaveLength(60);
    expect(answer.points[0]!.ts).toBe(start / 1000);
    // NEMA: the largest deviation (10 V) over the mean (220 V), above the 2 % default limit every minute.
    expect(answer.summary.voltage_unbalance).toEqual({ avg: 4.545, min: 4.545, max: 4.545, over_pct: 100, limit: 2 });
    // Nothing was read before the clock's start: an earlier hour has no points.
    const before = await service().analysis(
      { device_id: ids.device, t1: start / 1000 - 3600, t2: start / 1000 - 1 },
      null,
    );
    expect(before.points).toEqual([]);
  });

  it('answers hourly means over a longer range', async () => {
    await readFor(120);
    const answer = await service().analysis({ device_id: ids.device, t1: seconds() - 3 * 86_400, t2: seconds() }, null);
    expect(answer.resolution).toBe('hour');
    expect(answer.points.map((p) => p.ts - start / 1000)).toEqual([0, 3600, 7200]);
  });

  it('judges live figures with the reading’s time, an unknown phase giving none', async () => {
    const at = seconds();
    live.set(ids.ua, { value: 231, state: monitorState.normal, last_check: at - 5 });
    live.set(ids.ub, { value: 229, state: monitorState.normal, last_check: at });
    live.set(ids.uc, { value: 230, state: monitorState.normal, last_check: at - 2 });
    const [row] = (await service().monitor({ device_id: ids.device }, null)).data;
    expect(row).toMatchObject({ last_check: at, issues: [] });
    expect(row!.figures.voltage_unbalance).toBeCloseTo((1 / 230) * 100, 3);
    live.set(ids.uc, { value: 230, state: monitorState.unknown, last_check: at });
    const [unknown] = (await service().monitor({ device_id: ids.device }, null)).data;
    expect(unknown!.readings.uc).toBeNull();
    expect(unknown!.figures.voltage_unbalance).toBeNull();
  });

  it('stamps a stored mapping at the clock’s time', async () => {
    await kit.clock.advance(60_000);
    const none = Object.fromEntries(meterRoles.map((role) => [role, null])) as Record<MeterRole, number | null>;
    const points = { ...none, ua: ids.ua, ub: ids.ub, uc: ids.uc };
    const mapping = await service().setMeter(ids.device, { points, switches: [] }, null);
    expect(mapping.source).toBe('stored');
    const row = await kit.db.kysely
      .selectFrom('electrical_meters')
      .select('updated_at')
      .where('device_id', '=', ids.device)
      .executeTakeFirstOrThrow();
    expect(Number(row.updated_at)).toBe(seconds());
  });
});
