import { type Language, sharedText } from '@sitewatch/contract';
import { type MeterCategory, meterInput, tariffInput } from '@sitewatch/contract/energy';
import { itemSource } from '@sitewatch/contract/monitoring';
import { demoFeeds, type LoadProfile } from '../../collector/drivers/load-profile.ts';
import { counterValue } from '../../collector/drivers/simulator.ts';
import type { Db } from '../../db/kysely.ts';
import { createEnergyRepository } from './repository.ts';
import { createEnergyService } from './service.ts';

const hour = 3600;
/** History written on first start: a year and a month, so that year-on-year has something to compare. */
const historyDays = 400;

/**
 * The demo meters of a site: which power meter's energy counter and its role; its mean power (kW)
 * and load profile are the feed's (`demoFeeds`), which the meter's power readings follow too.
 */
const demoMeters: Array<{ device: string; key: string; category: MeterCategory; kw: number; profile: LoadProfile }> = (
  [
    ['PM-01', 'incoming', 'total'],
    ['PM-02', 'itA', 'it'],
    ['PM-03', 'itB', 'it'],
    ['PM-04', 'cooling', 'cooling'],
  ] as const
).map(([device, key, category]) => ({ device, key, category, ...demoFeeds[device]! }));

/** A commercial stair + time-share tariff in the shape of a provincial price list (yuan/kWh). */
const demoSlots = (season: 'summer' | 'non_summer') => {
  const up = season === 'summer' ? 0.05 : 0;
  return [
    { season, start: '00:00', end: '08:00', band: 'valley' as const, price: 0.3102 },
    { season, start: '08:00', end: '10:00', band: 'flat' as const, price: 0.6519 },
    { season, start: '10:00', end: '12:00', band: 'peak' as const, price: 1.0412 + up },
    { season, start: '12:00', end: '14:00', band: 'sharp' as const, price: 1.2494 + up },
    { season, start: '14:00', end: '19:00', band: 'peak' as const, price: 1.0412 + up },
    { season, start: '19:00', end: '24:00', band: 'flat' as const, price: 0.6519 },
  ];
};

/**
 * Energy of the demo estate (issue 17 item 7; docs/energy.md "Demo meters"): on each demo site the
 * energy counters of four power meters become the incoming, two IT and one cooling meter, with
 * mean powers that give a PUE near 1.45 and load profiles (load-profile.ts) by which weekdays,
 * weekends, seasons and years differ (PUE about 1.33 in winter, 1.57 in summer; the load 5 % lower
 * a year before); their hourly roll-ups are written for the last 400 days
 * from the same formula the simulator reads them by (so the counters run on without a jump), and
 * a stair + time-share tariff is in force from the start of that history. The energy fill computes
 * the rest when the server starts.
 */
export const seedEnergyDemo = async (db: Db, lang: Language, siteIds: number[], now = Date.now()) => {
  const k = db.kysely;
  const service = createEnergyService({ repo: createEnergyRepository(db) });
  const end = Math.floor(now / 1000 / hour) * hour;
  const start = end - historyDays * 24 * hour;
  const tariff = await service.createTariff(
    'stair_time_share',
    tariffInput.parse({
      name: sharedText(lang, 'energy.demo.tariff'),
      summer_months: [7, 8, 9],
      gradients: (['summer', 'non_summer'] as const).flatMap((season) => [
        { season, start: 0, end: 60_000, price: 0 },
        { season, start: 60_000, end: null, price: 0.05 },
      ]),
      slots: [...demoSlots('summer'), ...demoSlots('non_summer')],
    }),
  );
  for (const siteId of siteIds) {
    await service.setCost(siteId, { tariff_id: tariff.id, valid_from: start }, null);
    for (const m of demoMeters) {
      const item = await k
        .selectFrom('items as i')
        .innerJoin('devices as d', 'd.id', 'i.device_id')
        .select(['i.id', 'i.source'])
        .where('d.device_group_id', '=', siteId)
        .where('d.name', '=', m.device)
        .where('i.item_cell_name', '=', 'EP')
        .executeTakeFirst();
      if (!item) continue;
      const source = itemSource.parse(JSON.parse(item.source));
      if (source.kind !== 'simulator') continue;
      await k
        .updateTable('items')
        .set({ source: JSON.stringify({ ...source, base: m.kw, profile: m.profile }) })
        .where('id', '=', item.id)
        .execute();
      await service.createMeter(
        meterInput.parse({
          name: sharedText(lang, `energy.demo.${m.key}`),
          item_id: item.id,
          kind: 'counter',
          category: m.category,
          device_group_id: siteId,
          measure_point: m.category === 'it' ? 'pdu_output' : null,
          max_power_kw: m.kw * 3,
        }),
        null,
      );
      // The hour's roll-up as the series store folds a reading every 15 minutes.
      const rows = [];
      for (let ts = start; ts < end; ts += hour) {
        const q = [0, 900, 1800, 2700].map(
          (s) => Math.round(counterValue(item.id, m.kw, (ts + s) * 1000, m.profile) * 100) / 100,
        );
        rows.push({ item_id: item.id, ts, min: q[0]!, max: q[3]!, sum: q[0]! + q[1]! + q[2]! + q[3]!, count: 4 });
      }
      for (let i = 0; i < rows.length; i += 1000)
        await k
          .insertInto('samples_1h')
          .values(rows.slice(i, i + 1000))
          .execute();
    }
  }
};
