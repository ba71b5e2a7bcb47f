import type { EnergyQuery, MeterCategory } from '@sitewatch/contract/energy';
import { intervalStart } from './hours.ts';
import { type Allowed, type EnergyContext, round3 } from './reader.ts';
import { siteFields, withSite } from './site-total.ts';
import { costHours, toCents } from './tariff.ts';

const hour = 3600;

/**
 * Money (docs/energy.md "Tariffs"): the cost per meter and interval under the tariffs in force,
 * and the per-site monthly statement of /electric_statistics.
 */
export const createCost = (ctx: EnergyContext) => {
  const { repo, clock, now, scope, visible, catchUp } = ctx;
  const { metersOf, hoursOf, totalsOf, sumBy, periodsBySite } = ctx.reader;

  return {
    async cost(q: EnergyQuery, allowed: Allowed) {
      // The stair counts from the start of the month: the month's earlier hours are costed too, then left out.
      const from = q.t1 - (q.t1 % hour);
      const meters = await metersOf(q, allowed);
      const hoursBy = await hoursOf(
        meters.map((m) => m.id),
        Math.min(from, intervalStart(q.t1, 'month', clock)),
        q.t2,
      );
      const periods = await periodsBySite([...new Set(meters.map((m) => m.device_group_id))]);
      return meters.map((meter) => {
        const hours = hoursBy.get(meter.id) ?? [];
        const costed = costHours(hours, periods.get(meter.device_group_id) ?? [], clock).filter((h) => h.ts >= from);
        let uncosted = 0;
        const buckets = sumBy(costed, q.interval, (into, h) => {
          into.wh = (into.wh ?? 0) + h.wh;
          if (h.cost === null) uncosted += h.wh;
          else into.cost = (into.cost ?? 0) + h.cost;
        }).map(([ts, v]) => ({ ts, kwh: (v.wh ?? 0) / 1000, cost_cents: toCents(v.cost ?? 0) }));
        const totalUnits = costed.reduce((s, h) => s + (h.cost ?? 0), 0);
        return {
          meter_id: meter.id,
          name: meter.name,
          category: meter.category as MeterCategory,
          device_group_id: meter.device_group_id,
          ...siteFields(meter),
          kwh: costed.reduce((s, h) => s + h.wh, 0) / 1000,
          cost_cents: toCents(totalUnits),
          buckets,
          uncosted_kwh: uncosted / 1000,
        };
      });
    },

    /**
     * /electric_statistics: per granted site with meters of its own, the site's total (its and its
     * sub-sites' top-level meters, the same figure as every other answer for that site) this month and
     * last, this month's cost and PUE, and the tariff in force now.
     */
    async electricityStatistics(allowed: Allowed) {
      const meters = withSite(await repo.meters(allowed));
      const sites = (await repo.siteRows()).filter((s) => visible(s.id, allowed));
      const t = now();
      const monthStart = intervalStart(t, 'month', clock);
      const lastMonthStart = intervalStart(monthStart - 1, 'month', clock);
      await catchUp?.(meters.map((m) => m.id));
      const top = meters.filter((m) => m.in_site_total);
      const periods = await periodsBySite(sites.map((s) => s.id));
      const hoursBy = await hoursOf(
        top.map((m) => m.id),
        monthStart,
        t,
      );
      const month = await totalsOf(
        meters.map((m) => m.id),
        monthStart,
        t,
      );
      const last = await totalsOf(
        top.map((m) => m.id),
        lastMonthStart,
        monthStart - 1,
      );
      // Each top-level meter is costed under its own site's tariffs and rounded to the fen once, as
      // cost_statistics answers it; the site's bill is the sum of those (one bill per incoming meter).
      const cents = new Map(
        top.map((m) => [
          m.id,
          toCents(
            costHours(hoursBy.get(m.id) ?? [], periods.get(m.device_group_id) ?? [], clock).reduce(
              (s, h) => s + (h.cost ?? 0),
              0,
            ),
          ),
        ]),
      );
      const sumOf = (list: typeof meters, totals: Map<number, number>) =>
        list.reduce((s, m) => s + (totals.get(m.id) ?? 0), 0);
      const rows = [];
      for (const site of sites) {
        const own = meters.filter((m) => m.device_group_id === site.id);
        if (own.length === 0) continue;
        const inScope = new Set(await scope(site.id, allowed));
        const mine = meters.filter((m) => inScope.has(m.device_group_id));
        const fac = mine.filter((m) => m.in_site_total);
        const itKwh = sumOf(
          mine.filter((m) => m.category === 'it'),
          month,
        );
        const inForce = (periods.get(site.id) ?? []).filter((p) => p.validFrom <= t).at(-1);
        rows.push({
          device_group_id: site.id,
          name: site.name,
          meters: mine.length,
          month_kwh: round3(sumOf(fac, month)),
          last_month_kwh: round3(sumOf(fac, last)),
          month_cost_cents: fac.reduce((s, m) => s + (cents.get(m.id) ?? 0), 0),
          month_pue: itKwh > 0 ? round3(sumOf(fac, month) / itKwh) : null,
          tariff_name: inForce ? inForce.tariff.name : null,
        });
      }
      return rows;
    },
  };
};
