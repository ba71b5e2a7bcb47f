import { beforeAll, describe, expect, it } from 'vitest';
import { seedEstate } from '../../../../bench/estate.ts';
import { useServiceKit } from '../../../test/helpers/service-kit.ts';
import { createPending, trackedTimers } from '../../clock/timers.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import { createEnergyFill, type EnergyFill } from './fill.ts';
import { createEnergyRepository } from './repository.ts';
import { createEnergyService } from './service.ts';
import { zoneClock } from './tariff.ts';

/**
 * Energy's rules over their real repository (SQLite), the series store's roll-ups and the fill on a
 * clock the test moves: the fill's minute timer takes new readings into the stored energy, a load's
 * mean counts only the hours up to now, and a month's statistics run from the month's start to now.
 */
const hour = 3600;
const day0 = Date.UTC(2026, 0, 5) / 1000;

describe('energy service', () => {
  // 06:30 UTC on Monday 5 January 2026.
  const kit = useServiceKit((day0 + 6.5 * hour) * 1000);
  const ids = { site: 0, item: 0, meter: 0 };
  let store: SeriesStore;
  let fill: EnergyFill;
  const service = () =>
    createEnergyService({
      repo: createEnergyRepository(kit.db),
      catchUp: (meterIds) => fill.catchUp(meterIds),
      forget: (meterId) => fill.reset(meterId),
      zone: 'UTC',
      now: kit.clock.now,
    });
  /** A counter rising 10 kWh an hour, read every 15 minutes from midnight up to the clock's time. */
  let read = day0;
  const readUpToNow = async () => {
    for (; read * 1000 <= kit.clock.now(); read += 900)
      store.append(ids.item, read * 1000, 100 + (10 * (read - day0)) / hour);
    await store.flush();
  };
  const storedHours = async () =>
    (
      await kit.db.kysely
        .selectFrom('energy_hours')
        .select(['ts', 'kwh'])
        .where('meter_id', '=', ids.meter)
        .orderBy('ts')
        .execute()
    ).map((r) => [(Number(r.ts) - day0) / hour, Math.round(r.kwh * 1000) / 1000]);

  beforeAll(async () => {
    const estate = await seedEstate(kit.db, { items: 1, perDevice: 1, siteName: '机房' });
    ids.site = estate.site;
    ids.item = estate.devices[0]!.items[0]!;
    store = createSeriesStore(kit.db);
    const work = createPending();
    kit.clock.settleWith(() => work.settled());
    fill = createEnergyFill({
      db: kit.db,
      store,
      flush: () => store.flush(),
      clock: zoneClock('UTC'),
      zone: 'UTC',
      now: kit.clock.now,
      timers: trackedTimers(kit.clock.timers, work),
    });
    const meter = await service().createMeter(
      {
        name: '总表',
        item_id: ids.item,
        kind: 'counter',
        category: 'total',
        device_group_id: ids.site,
        measure_point: null,
        rollover_at: null,
        max_power_kw: null,
      },
      null,
    );
    ids.meter = meter.id;
    await readUpToNow();
  });

  it('the fill takes new readings into the stored energy at its next minute, not before', async () => {
    fill.start();
    // Its first pass at once.
    await kit.clock.advance(0);
    // Hour 0 rises from the first reading, its baseline (docs/energy.md); hour 6 has run half an hour.
    const first = await storedHours();
    expect(first).toEqual([[0, 7.5], ...[1, 2, 3, 4, 5].map((h) => [h, 10]), [6, 7.5]]);
    // An hour of readings later (written by the collector): the stored energy waits for the fill's minute.
    await kit.clock.advance(hour * 1000);
    await readUpToNow();
    expect(await storedHours()).toEqual(first);
    await kit.clock.advance(60_000);
    expect(await storedHours()).toEqual([[0, 7.5], ...[1, 2, 3, 4, 5, 6].map((h) => [h, 10]), [7, 7.5]]);
  });

  it('a load over the day counts only the hours up to now in its mean', async () => {
    // 07:31: the day's hours 00:00–07:00 are in, 16 hours are still to come.
    const q = { t1: day0, t2: day0 + 24 * hour - 1, interval: 'day' as const, meter_id: ids.meter, t: undefined };
    const total = async () => (await service().used({ ...q, interval: 'hour' }, null))[0]!.total_kwh;
    expect(await total()).toBe(75);
    // Over the hours from midnight through the current one (8), not the day's 24.
    expect((await service().load(q, null)).avg_kw).toBe(9.375);
    await kit.clock.advance(4 * hour * 1000);
    await readUpToNow();
    expect(await total()).toBe(115);
    expect((await service().load(q, null)).avg_kw).toBe(9.583);
  });

  it('the month’s statistics run from the month’s start to the clock’s time', async () => {
    // 11:31 on 5 January: the month so far is these five days' hours; nothing was read last month.
    expect(await service().electricityStatistics(null)).toEqual([
      expect.objectContaining({ device_group_id: ids.site, meters: 1, month_kwh: 115, last_month_kwh: 0 }),
    ]);
    await fill.stop();
  });
});
