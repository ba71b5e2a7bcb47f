import {
  type ActivePowerAnswer,
  type AnalysisAnswer,
  type AnalysisQuery,
  type EnergyDevice,
  type EnergyQuery,
  type LoadAnswer,
  type MeterCategory,
  type MeterEnergy,
  type PueAnswer,
  type PueMenuNode,
  pueCategoryOf,
  type TimeShareAnswer,
} from '@sitewatch/contract/energy';
import { badRequest, notFound } from '../../http/errors.ts';
import type { RollupBucket } from '../../series/store.ts';
import type { CounterEvent } from './counters.ts';
import { intervalStart } from './hours.ts';
import { createEnergyReader, type EnergyPart } from './reader.ts';
import type { EnergyRepository } from './repository.ts';
import { createEnergySettings, siteScope } from './settings.ts';
import { type Band, bandHours, costHours, toCents, zoneClock } from './tariff.ts';

type Allowed = number[] | null;
const hour = 3600;

export interface EnergyDeps {
  repo: EnergyRepository;
  /** Brings the meters' stored energy up to date with the series store before a read (fill.ts). */
  catchUp?: (meterIds: number[]) => Promise<void>;
  /** Drops a meter's stored energy, to be recomputed over its whole history (its reading changed). */
  forget?: (meterId: number) => Promise<void>;
  /** The series store's minute roll-ups (get_active_power). */
  minutes?: (itemIds: number[], t1: number, t2: number) => Promise<RollupBucket[]>;
  zone?: string;
  now?: () => number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export const createEnergyService = (deps: EnergyDeps) => {
  const { repo } = deps;
  const clock = zoneClock(deps.zone ?? (process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone));
  const now = () => Math.floor((deps.now?.() ?? Date.now()) / 1000);

  const { scope, visible } = siteScope(repo);

  const { metersOf, split, partsOf, hoursOf, totalsOf, startOf, sumBy, facility, yearBack, nextStart, periodsBySite } =
    createEnergyReader({
      repo,
      clock,
      scope,
      catchUp: deps.catchUp,
    });

  return {
    ...createEnergySettings({ repo, now, scope, visible, forget: deps.forget }),

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
          kwh: costed.reduce((s, h) => s + h.wh, 0) / 1000,
          cost_cents: toCents(totalUnits),
          buckets,
          uncosted_kwh: uncosted / 1000,
        };
      });
    },

    async pue(q: EnergyQuery, allowed: Allowed): Promise<PueAnswer> {
      if (q.device_group_id === undefined) throw badRequest('energy.validation.siteRequired');
      if (!visible(q.device_group_id, allowed) || !(await repo.siteExists(q.device_group_id)))
        throw notFound('energy.siteNotFound');
      const meters = await metersOf(q, allowed);
      const partsBy = await partsOf(
        meters.map((m) => m.id),
        q.t1,
        q.t2,
        q.interval !== 'hour',
      );
      const energy = meters.map((meter) => ({ meter, hours: partsBy.get(meter.id) ?? [] }));
      const hasTotal = meters.some((m) => m.category === 'total');
      const itPoints = meters.filter((m) => m.category === 'it').map((m) => m.measure_point);
      // The figure is only as good as its least precise IT meter: the lowest category among them.
      const category =
        itPoints.length === 0
          ? 0
          : Math.min(...itPoints.map((p) => pueCategoryOf[(p ?? 'ups_output') as keyof typeof pueCategoryOf]));
      const sums = new Map<number, Record<string, number>>();
      for (const e of energy) {
        const category = e.meter.category;
        for (const h of e.hours) {
          const key = startOf(h.ts, q.interval);
          let into = sums.get(key);
          if (!into) {
            into = {};
            sums.set(key, into);
          }
          if (category === 'total' || !hasTotal) into.total = (into.total ?? 0) + h.kwh;
          if (category === 'it') into.it = (into.it ?? 0) + h.kwh;
          if (category === 'cooling') into.cooling = (into.cooling ?? 0) + h.kwh;
          if (h.estimated) into.estimated = 1;
        }
      }
      const buckets = [...sums.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([ts, v]) => {
          const it = v.it ?? 0;
          return {
            ts,
            total_kwh: round3(v.total ?? 0),
            it_kwh: round3(it),
            cooling_kwh: round3(v.cooling ?? 0),
            pue: it > 0 ? round3((v.total ?? 0) / it) : null,
            ppue_cooling: it > 0 ? round3((it + (v.cooling ?? 0)) / it) : null,
            estimated: v.estimated === 1,
          };
        });
      const it = buckets.reduce((s, b) => s + b.it_kwh, 0);
      const total = buckets.reduce((s, b) => s + b.total_kwh, 0);
      const cooling = buckets.reduce((s, b) => s + b.cooling_kwh, 0);
      return {
        device_group_id: q.device_group_id,
        category,
        total_source: hasTotal ? 'total_meters' : 'sum_of_parts',
        buckets,
        pue: it > 0 ? round3(total / it) : null,
        ppue_cooling: it > 0 ? round3((it + cooling) / it) : null,
      };
    },

    async analysis(q: AnalysisQuery, allowed: Allowed): Promise<AnalysisAnswer> {
      const all = await metersOf(q, allowed);
      const { meters, source } =
        q.category !== undefined
          ? { meters: all.filter((m) => m.category === q.category), source: 'category' as const }
          : facility(all, q.meter_id !== undefined);
      const ids = meters.map((m) => m.id);
      const daily = q.interval !== 'hour';
      const a = q.t1 - (q.t1 % hour);
      const b = q.t2 - (q.t2 % hour);
      const byKey = (parts: Map<number, EnergyPart[]>) => {
        const out = new Map<number, { kwh: number; estimated: boolean }>();
        for (const list of parts.values())
          for (const p of list) {
            const key = startOf(p.ts, q.interval);
            const v = out.get(key) ?? { kwh: 0, estimated: false };
            v.kwh += p.kwh;
            v.estimated ||= p.estimated;
            out.set(key, v);
          }
        return out;
      };
      const current = byKey(await partsOf(ids, a, b, daily));
      const firstPrevious = startOf(startOf(a, q.interval) - 1, q.interval);
      const previous = byKey(await partsOf(ids, firstPrevious, a - 1, daily));
      const lastYear = byKey(await partsOf(ids, yearBack(a), yearBack(b + hour) - 1, daily));
      const change = (now: number, then: number) => (then > 0 ? round3(((now - then) / then) * 100) : null);
      const buckets = [...current.entries()]
        .sort((x, y) => x[0] - y[0])
        .map(([ts, v]) => {
          const before = startOf(ts - 1, q.interval);
          const previousKwh = current.get(before)?.kwh ?? previous.get(before)?.kwh ?? 0;
          const lastYearKwh = lastYear.get(startOf(yearBack(ts), q.interval))?.kwh ?? 0;
          return {
            ts,
            kwh: round3(v.kwh),
            previous_kwh: round3(previousKwh),
            mom_percent: change(v.kwh, previousKwh),
            last_year_kwh: round3(lastYearKwh),
            yoy_percent: change(v.kwh, lastYearKwh),
            estimated: v.estimated,
          };
        });
      const total = [...current.values()].reduce((s, v) => s + v.kwh, 0);
      const lastYearTotal = [...lastYear.values()].reduce((s, v) => s + v.kwh, 0);
      return {
        source,
        buckets,
        total_kwh: round3(total),
        last_year_total_kwh: round3(lastYearTotal),
        yoy_percent: change(total, lastYearTotal),
      };
    },

    async load(q: EnergyQuery, allowed: Allowed): Promise<LoadAnswer> {
      const all = await metersOf(q, allowed);
      const { meters, source } = facility(all, q.meter_id !== undefined);
      const it = new Set(all.filter((m) => m.category === 'it').map((m) => m.id));
      const chosen = new Set(meters.map((m) => m.id));
      const a = q.t1 - (q.t1 % hour);
      // Hours still to come do not lower the mean.
      const b = Math.min(q.t2 - (q.t2 % hour), now() - (now() % hour));
      const parts = await hoursOf(
        all.filter((m) => chosen.has(m.id) || it.has(m.id)).map((m) => m.id),
        a,
        b,
      );
      const perHour = new Map<number, { kwh: number; it: number }>();
      for (const [meterId, list] of parts)
        for (const p of list) {
          const v = perHour.get(p.ts) ?? { kwh: 0, it: 0 };
          if (chosen.has(meterId)) v.kwh += p.kwh;
          if (it.has(meterId)) v.it += p.kwh;
          perHour.set(p.ts, v);
        }
      const buckets = new Map<number, { kwh: number; it: number; peak: number; peakTs: number | null }>();
      for (const [ts, v] of [...perHour.entries()].sort((x, y) => x[0] - y[0])) {
        const key = startOf(ts, q.interval);
        const bucket = buckets.get(key) ?? { kwh: 0, it: 0, peak: 0, peakTs: null };
        bucket.kwh += v.kwh;
        bucket.it += v.it;
        if (bucket.peakTs === null || v.kwh > bucket.peak) {
          bucket.peak = v.kwh;
          bucket.peakTs = ts;
        }
        buckets.set(key, bucket);
      }
      /** Hours of the interval starting at `key` that lie in the range [a, b]. */
      const hoursIn = (key: number) =>
        Math.max(1, (Math.min(nextStart(key, q.interval), b + hour) - Math.max(key, a)) / hour);
      const rows = [...buckets.entries()].map(([ts, v]) => ({
        ts,
        avg_kw: round3(v.kwh / hoursIn(ts)),
        peak_kw: round3(v.peak),
        peak_ts: v.peakTs,
        it_avg_kw: round3(v.it / hoursIn(ts)),
      }));
      const span = Math.max(1, (b + hour - a) / hour);
      const peak = rows.reduce<(typeof rows)[number] | null>(
        (best, r) => (best && best.peak_kw >= r.peak_kw ? best : r),
        null,
      );
      return {
        source,
        buckets: rows,
        avg_kw: round3([...perHour.values()].reduce((s, v) => s + v.kwh, 0) / span),
        peak_kw: peak?.peak_kw ?? 0,
        peak_ts: peak?.peak_ts ?? null,
      };
    },

    async activePower(q: { device_group_id?: number | undefined }, allowed: Allowed): Promise<ActivePowerAnswer> {
      const meters = await repo.meters(await scope(q.device_group_id, allowed));
      const t = now();
      // The last half hour of minute roll-ups: a power item's latest mean, a counter's rise over them.
      const rows =
        (await deps.minutes?.(
          meters.map((m) => m.item_id),
          t - 1800,
          t,
        )) ?? [];
      const byItem = new Map<number, RollupBucket[]>();
      for (const r of rows) byItem.set(r.item_id, [...(byItem.get(r.item_id) ?? []), r]);
      // Without two recent readings (a meter polled rarely): the mean of the last whole hour's energy.
      const thisHour = t - (t % hour);
      await deps.catchUp?.(meters.map((m) => m.id));
      const lastHour = new Map<number, { ts: number; kwh: number }>();
      for (const r of await repo.energy(
        'energy_hours',
        meters.map((m) => m.id),
        thisHour - 2 * hour,
        thisHour,
      ))
        lastHour.set(r.meter_id, r);
      const out = meters.map((m) => {
        const list = (byItem.get(m.item_id) ?? []).sort((x, y) => x.ts - y.ts);
        const last = list.at(-1);
        let kw: number | null = null;
        if (m.kind === 'power') kw = last ? round3(last.sum / last.count) : null;
        else if (list.length >= 2) {
          const rise = last!.max - list[0]!.max;
          // A counter that went down (reset, rollover) says nothing about the power now.
          kw = rise >= 0 ? round3(rise / ((last!.ts - list[0]!.ts) / hour)) : null;
        }
        const source = m.kind === 'power' ? ('power_item' as const) : ('counter' as const);
        const fallback = lastHour.get(m.id);
        if (kw === null && fallback)
          return {
            meter_id: m.id,
            name: m.name,
            category: m.category as MeterCategory,
            device_group_id: m.device_group_id,
            kw: round3(fallback.kwh),
            ts: fallback.ts + hour,
            source: 'hour_energy' as const,
          };
        return {
          meter_id: m.id,
          name: m.name,
          category: m.category as MeterCategory,
          device_group_id: m.device_group_id,
          kw,
          ts: kw === null || !last ? null : Number(last.ts),
          source,
        };
      });
      const { meters: fac } = facility(meters, false);
      const facIds = new Set(fac.map((m) => m.id));
      const sum = (keep: (r: (typeof out)[number]) => boolean) =>
        round3(out.filter(keep).reduce((s, r) => s + (r.kw ?? 0), 0));
      return {
        meters: out,
        total_kw: sum((r) => facIds.has(r.meter_id)),
        it_kw: sum((r) => r.category === 'it'),
        cooling_kw: sum((r) => r.category === 'cooling'),
      };
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

    async pueMenu(allowed: Allowed): Promise<PueMenuNode[]> {
      const meters = await repo.meters(allowed);
      const sites = (await repo.siteRows()).filter((s) => visible(s.id, allowed));
      const byId = new Map(sites.map((s) => [s.id, s]));
      const counts = new Map<number, number>();
      const points = new Map<number, number[]>();
      for (const m of meters) {
        counts.set(m.device_group_id, (counts.get(m.device_group_id) ?? 0) + 1);
        if (m.category === 'it')
          points.set(m.device_group_id, [
            ...(points.get(m.device_group_id) ?? []),
            pueCategoryOf[(m.measure_point ?? 'ups_output') as keyof typeof pueCategoryOf],
          ]);
      }
      // The sites with meters and the (granted) sites above them, so the tree keeps its shape.
      const kept = new Set<number>();
      for (const id of counts.keys()) {
        let site = byId.get(id);
        while (site && !kept.has(site.id)) {
          kept.add(site.id);
          site = byId.get(site.parent_id);
        }
      }
      const nodes = new Map<number, PueMenuNode>();
      for (const s of sites)
        if (kept.has(s.id))
          nodes.set(s.id, {
            id: s.id,
            name: s.name,
            parent_id: s.parent_id,
            meter_count: counts.get(s.id) ?? 0,
            category: points.has(s.id) ? Math.min(...points.get(s.id)!) : 0,
            children: [],
          });
      const roots: PueMenuNode[] = [];
      for (const n of nodes.values()) {
        const parent = nodes.get(n.parent_id);
        if (parent) parent.children.push(n);
        else roots.push(n);
      }
      return roots;
    },

    async electricityStatistics(allowed: Allowed) {
      const meters = await repo.meters(allowed);
      const sites = (await repo.siteRows()).filter((s) => visible(s.id, allowed));
      const t = now();
      const monthStart = intervalStart(t, 'month', clock);
      const lastMonthStart = intervalStart(monthStart - 1, 'month', clock);
      await deps.catchUp?.(meters.map((m) => m.id));
      const periods = await periodsBySite(sites.map((s) => s.id));
      const hoursBy = await hoursOf(
        meters.map((m) => m.id),
        monthStart,
        t,
      );
      const rows = [];
      for (const site of sites) {
        // Each row is the site's own meters, so that the rows of a site and its sub-sites do not overlap.
        const own = meters.filter((m) => m.device_group_id === site.id);
        if (own.length === 0) continue;
        const { meters: fac } = facility(own, false);
        const month = await totalsOf(
          own.map((m) => m.id),
          monthStart,
          t,
        );
        const last = await totalsOf(
          fac.map((m) => m.id),
          lastMonthStart,
          monthStart - 1,
        );
        const sumOf = (list: typeof own, totals: Map<number, number>) =>
          list.reduce((s, m) => s + (totals.get(m.id) ?? 0), 0);
        const itKwh = sumOf(
          own.filter((m) => m.category === 'it'),
          month,
        );
        let units = 0;
        for (const m of own)
          for (const h of costHours(hoursBy.get(m.id) ?? [], periods.get(site.id) ?? [], clock)) units += h.cost ?? 0;
        const inForce = (periods.get(site.id) ?? []).filter((p) => p.validFrom <= t).at(-1);
        rows.push({
          device_group_id: site.id,
          name: site.name,
          meters: own.length,
          month_kwh: round3(sumOf(fac, month)),
          last_month_kwh: round3(sumOf(fac, last)),
          month_cost_cents: toCents(units),
          month_pue: itKwh > 0 ? round3(sumOf(fac, month) / itKwh) : null,
          tariff_name: inForce ? inForce.tariff.name : null,
        });
      }
      return rows;
    },

    /** The devices whose items are meters of the sites (and sub-sites), each with its meters. */
    async energyDevices(siteIds: number[] | undefined, allowed: Allowed): Promise<EnergyDevice[]> {
      let inScope: Allowed = allowed;
      if (siteIds !== undefined) {
        const all = new Set<number>();
        for (const id of siteIds) for (const s of (await scope(id, allowed)) ?? []) all.add(s);
        inScope = [...all];
      }
      const devices = new Map<number, EnergyDevice>();
      for (const m of await repo.meters(inScope)) {
        const d = devices.get(m.device_id) ?? {
          device_id: m.device_id,
          device_name: m.device_name,
          device_group_id: m.item_site_id,
          meters: [],
        };
        d.meters.push({
          meter_id: m.id,
          name: m.name,
          item_id: m.item_id,
          item_name: m.item_name,
          kind: m.kind as 'counter' | 'power',
          category: m.category as MeterCategory,
          device_group_id: m.device_group_id,
        });
        devices.set(m.device_id, d);
      }
      return [...devices.values()].sort((a, b) => a.device_id - b.device_id);
    },
  };
};
export type EnergyService = ReturnType<typeof createEnergyService>;
