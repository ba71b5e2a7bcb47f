import type { AnalysisAnswer, AnalysisQuery, EnergyQuery, LoadAnswer } from '@sitewatch/contract/energy';
import { type Allowed, type EnergyContext, type EnergyPart, round3 } from './reader.ts';

const hour = 3600;

/**
 * The trend with month-on-month and year-on-year, and the load (mean and peak kW) of a site's
 * facility, a category or a meter (docs/energy.md "Analyses").
 */
export const createAnalyses = (ctx: EnergyContext) => {
  const { now } = ctx;
  const { metersOf, partsOf, hoursOf, startOf, facility, yearBack, nextStart } = ctx.reader;

  return {
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
  };
};
