import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSitewatch } from '../src/app.ts';
import { counterValue } from '../src/collector/drivers/simulator.ts';
import { createEnergyFill } from '../src/modules/energy/fill.ts';
import { createEnergyRepository } from '../src/modules/energy/repository.ts';
import { createEnergyService } from '../src/modules/energy/service.ts';
import { zoneClock } from '../src/modules/energy/tariff.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { testLoginKey } from './helpers/build-app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';

/**
 * The demo estate's energy (issue 17 item 7): on first start every demo site has an incoming, two
 * IT and a cooling meter with a year of history and a tariff in force, so trend, cost, PUE and
 * time-share periods show data at once; the simulated counters run on from the history without a
 * jump, so no counter rule fires.
 */
let database: TestDatabase;
// Its own data dir: a first start writes the administrator's password file there (not in the checkout).
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-energy-demo-'));
beforeAll(async () => {
  database = await createTestDatabase('sqlite');
  // The demo estate as a first start makes it: every area's share, in English.
  const sitewatch = await createSitewatch({ db: database.db, dataDir, loginKey: testLoginKey, logLevel: 'silent' });
  await sitewatch.prepare({ demo: true, language: 'en_us' });
  await sitewatch.app.close();
});
afterAll(async () => {
  await database.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

it('shows a year of energy, cost and a PUE near 1.45 on every demo site', async () => {
  const zone = process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const store = createSeriesStore(database.db);
  const fill = createEnergyFill({
    db: database.db,
    store,
    clock: zoneClock(zone),
  });
  const service = createEnergyService({
    repo: createEnergyRepository(database.db),
    catchUp: (ids) => fill.catchUp(ids),
    zone,
  });
  const meters = await service.meters({}, null);
  expect(meters).toHaveLength(12);
  expect(meters.slice(0, 4).map((m) => [m.name, m.category])).toEqual([
    ['Incoming meter', 'total'],
    ['IT load, feed A', 'it'],
    ['IT load, feed B', 'it'],
    ['Precision cooling', 'cooling'],
  ]);
  const site = meters[0]!.device_group_id;
  const now = Math.floor(Date.now() / 1000);
  const q = { device_group_id: site, t1: now - 365 * 86_400, t2: now, interval: 'month' as const };
  const pue = await service.pue(q, null);
  expect(pue.pue).toBeGreaterThan(1.4);
  expect(pue.pue).toBeLessThan(1.5);
  expect(pue.buckets.length).toBeGreaterThanOrEqual(12);
  const cost = await service.cost(q, null);
  expect(cost.every((c) => c.cost_cents > 0 && c.uncosted_kwh === 0)).toBe(true);
  const trend = await service.analysis({ ...q, t1: now - 30 * 86_400 }, null);
  expect(trend.last_year_total_kwh).toBeGreaterThan(0);
  const bands = await service.timeSharing({ ...q, t1: now - 7 * 86_400 }, null);
  expect(Math.min(bands.total.sharp, bands.total.peak, bands.total.flat, bands.total.valley)).toBeGreaterThan(0);
  const used = await service.used(q, null);
  expect(used.flatMap((m) => m.events)).toEqual([]);

  // The simulator reads the counter by the same formula: a reading now continues the history.
  const item = meters[0]!.item_id;
  const last = (await store.rollups([item], 'hour', now - 2 * 3600, now)).at(-1);
  expect(last).toBeDefined();
  const reading = counterValue(item, 58, Date.now(), 'incoming');
  expect(reading).toBeGreaterThan(last!.max);
  expect(reading - last!.max).toBeLessThan(58 * 1.15 * 1.25);
});
