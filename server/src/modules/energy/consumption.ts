import type { EnergyQuery, MeterCategory, MeterEnergy, TimeShareAnswer } from '@sitewatch/contract/energy';
import type { CounterEvent } from './counters.ts';
import { type Allowed, type EnergyContext, round3 } from './reader.ts';
import { siteFields } from './site-total.ts';
import { type Band, bandHours } from './tariff.ts';

const hour = 3600;

/**
 * Energy per meter over a range (docs/energy.md): consumption with the counter rules that fired
 * (energy_used), ranking, the parts' proportion, and kWh per time-share period.
 */
export const createConsumption = (ctx: EnergyContext) => {
  const { repo, clock } = ctx;
  const { metersOf, split, partsOf, hoursOf, totalsOf, startOf, sumBy, facility, periodsBySite } = ctx.reader;

  return {
    async used(q: EnergyQuery, allowed: Allowed): Promise<MeterEnergy[]> {
      const meters = await metersOf(q, allowed);
      const ids = meters.map((m) => m.id);
      const parts = await partsOf(ids, q.t1, q.t2, q.interval !== 'hour');
      const { a, b } = split(q.t1, q.t2, false);
      const events = await repo.events(ids, a, b + hour);
      return meters.map((meter) => {
        const hours = parts.get(meter.id) ?? [];
        const buckets = sumBy(hours, q.interval, (into, h) => {
          into.kwh = (into.kwh ?? 0) + h.kwh;
          if (h.estimated) into.estimated = 1;
        }).map(([ts, v]) => ({ ts, kwh: round3(v.kwh ?? 0), estimated: v.estimated === 1 }));
        return {
          meter_id: meter.id,
          name: meter.name,
          category: meter.category as MeterCategory,
          device_group_id: meter.device_group_id,
          ...siteFields(meter),
          total_kwh: round3(hours.reduce((s, h) => s + h.kwh, 0)),
          buckets,
          events: events
            .filter((e) => e.meter_id === meter.id)
            .map((e) => ({
              ts: Number(e.ts),
              rule: e.rule as CounterEvent['rule'],
              from: round3(e.from_value),
              to: round3(e.to_value),
              kwh: round3(e.kwh),
            })),
        };
      });
    },

    async ranking(q: EnergyQuery, allowed: Allowed) {
      const meters = await metersOf(q, allowed);
      const totals = await totalsOf(
        meters.map((m) => m.id),
        q.t1,
        q.t2,
      );
      return meters
        .map((meter) => ({
          meter_id: meter.id,
          name: meter.name,
          category: meter.category as MeterCategory,
          device_group_id: meter.device_group_id,
          ...siteFields(meter),
          kwh: round3(totals.get(meter.id) ?? 0),
        }))
        .sort((a, b) => b.kwh - a.kwh || a.meter_id - b.meter_id);
    },

    async ratio(q: EnergyQuery, allowed: Allowed) {
      const meters = (await metersOf(q, allowed)).filter((m) => m.category !== 'total');
      const totals = await totalsOf(
        meters.map((m) => m.id),
        q.t1,
        q.t2,
      );
      const by = new Map<MeterCategory, number>();
      for (const meter of meters) {
        const c = meter.category as MeterCategory;
        by.set(c, (by.get(c) ?? 0) + (totals.get(meter.id) ?? 0));
      }
      const sum = [...by.values()].reduce((s, v) => s + v, 0);
      return [...by.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([category, kwh]) => ({ category, kwh: round3(kwh), percent: sum > 0 ? round3((kwh / sum) * 100) : 0 }));
    },

    async timeSharing(q: EnergyQuery, allowed: Allowed): Promise<TimeShareAnswer> {
      const all = await metersOf(q, allowed);
      const { meters, source } = facility(all, q.meter_id !== undefined);
      const parts = await hoursOf(
        meters.map((m) => m.id),
        q.t1,
        q.t2,
      );
      const periods = await periodsBySite([...new Set(meters.map((m) => m.device_group_id))]);
      const zero = () => ({ sharp: 0, peak: 0, flat: 0, valley: 0, none: 0 });
      const buckets = new Map<number, Record<Band, number>>();
      const total = zero();
      for (const m of meters)
        for (const h of bandHours(parts.get(m.id) ?? [], periods.get(m.device_group_id) ?? [], clock)) {
          const key = startOf(h.ts, q.interval);
          const into = buckets.get(key) ?? zero();
          for (const [band, wh] of h.parts) {
            into[band] += wh;
            total[band] += wh;
          }
          buckets.set(key, into);
        }
      const kwh = (v: Record<Band, number>) => ({
        sharp: v.sharp / 1000,
        peak: v.peak / 1000,
        flat: v.flat / 1000,
        valley: v.valley / 1000,
        none: v.none / 1000,
      });
      const sum = Object.values(total).reduce((s, v) => s + v, 0);
      const share = (v: number) => (sum > 0 ? round3((v / sum) * 100) : 0);
      return {
        source,
        buckets: [...buckets.entries()].sort((x, y) => x[0] - y[0]).map(([ts, v]) => ({ ts, ...kwh(v) })),
        total: kwh(total),
        percent: {
          sharp: share(total.sharp),
          peak: share(total.peak),
          flat: share(total.flat),
          valley: share(total.valley),
          none: share(total.none),
        },
      };
    },
  };
};
