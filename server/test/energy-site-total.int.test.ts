import { expect, it } from 'vitest';
import { zoneClock } from '../src/modules/energy/tariff.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { addDeviceItems, addSite, realLogin, signInFirstAdmin } from './helpers/estate.ts';

const h = 3600;
const clock = zoneClock(process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone);
const localMidnight = (y: number, m: number, d: number) => {
  const utc = Date.UTC(y, m - 1, d) / 1000;
  return utc - clock.offsetMinutes(utc) * 60;
};
const march1 = localMidnight(2026, 3, 1);
const march10 = localMidnight(2026, 3, 10);
const feb20 = localMidnight(2026, 2, 20);
/** Now: 15 March 2026, 12:00 local (this month is March, the last February). */
const nowS = localMidnight(2026, 3, 15) + 12 * h;

type Row = { in_site_total: boolean; site_name: string; name: string };
const sum = <R>(rows: R[], pick: (r: R) => number) => Math.round(rows.reduce((s, r) => s + pick(r), 0) * 1000) / 1000;

/**
 * One rule for a site's total (issue 38, docs/energy.md "A site's total"): every answer that shows
 * what a site consumed or cost gives the same figure for the same site and period — the sum of its
 * top-level meters (its incoming meters, else all its meters), site by site over its sub-sites.
 * /electric_statistics used to add the incoming meter to the meters beneath it (a doubled bill).
 */
describeEachDatabase('energy: one site total in every answer', (dialect) => {
  const t = useTestApp(dialect, (database) => ({
    ...realLogin,
    clock: () => nowS * 1000,
    series: createSeriesStore(database.db),
  }));

  it('electric statistics, cost, PUE, trend, ranking, consumption and periods agree on each site', async () => {
    const { admin, call } = await signInFirstAdmin(t);
    const north = await addSite(call, 'North room');
    const annex = (
      await call('POST', 'setting/device_groups', admin, { name: 'North annex', weight: 1, parent_id: north })
    ).json().data.id as number;
    const south = await addSite(call, 'South room');
    const series = createSeriesStore(t.database.db);
    const flat = await call('POST', 'time_sharing_system', admin, {
      name: 'Flat',
      slots: [{ start: '00:00', end: '24:00', band: 'flat', price: 0.6523 }],
    });
    /** Power meters of a site at steady kW, read every minute on 20 Feb, 10 March and 15 March to 12:00. */
    const meters = async (site: number, list: Array<[string, string, number]>) => {
      const device = await addDeviceItems(call, site, { name: `PM-${site}`, code: 'power_meter', template_id: 4 });
      for (const [i, [name, category, kw]] of list.entries()) {
        const item = device.items[i]!;
        const res = await call('POST', 'setting/energy', admin, {
          name,
          item_id: item,
          kind: 'power',
          category,
          device_group_id: site,
        });
        expect(res.statusCode).toBe(200);
        for (const [day, hours] of [
          [feb20, 24],
          [march10, 24],
          [nowS - 12 * h, 12],
        ] as const)
          for (let m = 0; m < hours * 60; m++) series.append(item, (day + m * 60) * 1000, kw);
      }
      await call('PUT', `energy_cost_set/${site}`, admin, { tariff_id: flat.json().data.id, valid_from: 0 });
    };
    // The same names on two sites, as the demo has them; the annex has no incoming meter of its own.
    await meters(north, [
      ['总进线电表', 'total', 30],
      ['IT 负载 A 路', 'it', 20],
      ['空调', 'cooling', 8],
    ]);
    await meters(annex, [
      ['IT 负载 A 路', 'it', 5],
      ['照明', 'lighting', 1],
    ]);
    await meters(south, [
      ['总进线电表', 'total', 10],
      ['IT 负载 A 路', 'it', 6],
    ]);
    await series.flush();

    // 36 hours of March so far: North's incoming 30 kW + the annex's parts 6 kW; the annex 6; South 10.
    const expected = new Map([
      [north, 36 * 36],
      [annex, 36 * 6],
      [south, 36 * 10],
    ]);
    const stats = (await call('GET', 'setting/electricity_statistics')).json().data as Array<{
      device_group_id: number;
      month_kwh: number;
      last_month_kwh: number;
      month_cost_cents: number;
    }>;
    const month = `t1=${march1}&t2=${nowS - 1}`;
    for (const [site, kwh] of expected) {
      const q = `device_group_id=${site}&${month}&interval=month`;
      const row = stats.find((r) => r.device_group_id === site)!;
      const cost = (await call('GET', `energy_analysis/cost_statistics?${q}`)).json().data as Array<
        Row & { kwh: number; cost_cents: number }
      >;
      const top = cost.filter((r) => r.in_site_total);
      const costCents = sum(top, (r) => r.cost_cents);
      const pue = (await call('GET', `energy/pue_value?${q}`)).json().data;
      const trend = (await call('GET', `energy/analysis?${q}`)).json().data;
      const ranking = (await call('GET', `energy/item_energy_ranking?${q}`)).json().data as Array<
        Row & { kwh: number }
      >;
      const used = (await call('GET', `energy/energy_used?${q}`)).json().data as Array<Row & { total_kwh: number }>;
      const bands = (await call('GET', `energy_analysis/time_sharing_statistics?${q}`)).json().data;
      const figures = {
        electric_statistics: row.month_kwh,
        cost_statistics: sum(top, (r) => r.kwh),
        pue_value: sum(pue.buckets, (b: { total_kwh: number }) => b.total_kwh),
        analysis: trend.total_kwh,
        ranking: sum(
          ranking.filter((r) => r.in_site_total),
          (r) => r.kwh,
        ),
        energy_used: sum(
          used.filter((r) => r.in_site_total),
          (r) => r.total_kwh,
        ),
        time_sharing: sum(Object.values(bands.total) as number[], (v) => v),
      };
      expect(figures, `site ${site}`).toEqual(Object.fromEntries(Object.keys(figures).map((k) => [k, kwh])));
      // The bill is the same figure's: kWh × 0.6523 yuan, rounded to the fen once per meter.
      expect(row.month_cost_cents, `site ${site}`).toBe(costCents);
      expect(Math.abs(costCents - kwh * 65.23)).toBeLessThanOrEqual(top.length);
      // Last month: the 24 hours of 20 February.
      expect(row.last_month_kwh).toBe((kwh / 36) * 24);
    }
    // North's bill used to be the incoming meter plus the meters beneath it: 30 + 20 + 8 + 6 kW, not 36.
    const northRow = stats.find((r) => r.device_group_id === north)!;
    expect(northRow.month_cost_cents).toBeLessThan(37 * 36 * 65.23);

    // All sites at once: the meters carry their site's name, and the top-level ones add up to the sites' totals.
    const all = (await call('GET', `energy/item_energy_ranking?${month}`)).json().data as Array<Row & { kwh: number }>;
    expect(
      all
        .filter((r) => r.name === '总进线电表')
        .map((r) => r.site_name)
        .sort(),
    ).toEqual(['North room', 'South room']);
    expect(
      sum(
        all.filter((r) => r.in_site_total),
        (r) => r.kwh,
      ),
    ).toBe(expected.get(north)! + expected.get(south)!);
    // Active power: the site's kW is its top-level meters' (South: 10 kW, not 16).
    const power = (await call('GET', `energy/get_active_power?device_group_id=${south}`)).json().data;
    expect(power.total_kw).toBe(10);
  });
});
