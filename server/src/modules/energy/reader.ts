import type { EnergyQuery, TariffRow } from '@sitewatch/contract/energy';
import type { RollupBucket } from '../../series/store.ts';
import { intervalStart } from './hours.ts';
import type { EnergyRepository } from './repository.ts';
import { tariffRow } from './settings.ts';
import { topLevelMeters, withSite } from './site-total.ts';
import type { LocalClock, TariffPeriod } from './tariff.ts';

const hour = 3600;
/** The sites a caller may see (null: all). */
export type Allowed = number[] | null;

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A meter's energy over an hour or a whole local day, as stored (energy_hours, energy_days). */
export type EnergyPart = { ts: number; kwh: number; estimated: boolean };

export interface ReaderDeps {
  repo: EnergyRepository;
  clock: LocalClock;
  scope: (siteId: number | undefined, allowed: Allowed) => Promise<Allowed>;
  /** Brings the meters' stored energy up to date with the series store before a read (fill.ts). */
  catchUp?: ((meterIds: number[]) => Promise<void>) | undefined;
}

/**
 * How the analyses read stored energy: the meters in scope, their energy by hour or by whole local
 * day, totals, the interval a time falls in, and the tariffs in force per site.
 */
export const createEnergyReader = ({ repo, clock, scope, catchUp }: ReaderDeps) => {
  /**
   * The meters in scope, their stored energy brought up to date, each with its site's name and whether
   * it counts in its site's total (judged among all the site's meters, before `meter_id` narrows them).
   */
  const metersOf = async (q: EnergyQuery, allowed: Allowed) => {
    let meters = withSite(await repo.meters(await scope(q.device_group_id, allowed)));
    if (q.meter_id !== undefined) meters = meters.filter((m) => m.id === q.meter_id);
    await catchUp?.(meters.map((m) => m.id));
    return meters;
  };
  /**
   * The hours [a, b] of a range, and within them the whole local days [d1, d2) that the daily sums
   * answer (a year is 365 rows per meter instead of 8 760); the partial days at the edges are hours.
   */
  const split = (t1: number, t2: number, daily: boolean) => {
    const a = t1 - (t1 % hour);
    const b = t2 - (t2 % hour);
    if (!daily) return { a, b, d1: b + hour, d2: b + hour };
    const first = startOf(a, 'day');
    const d1 = first === a ? a : intervalStart(first + 26 * hour, 'day', clock);
    const d2 = startOf(b + hour, 'day');
    return d2 > d1 ? { a, b, d1, d2 } : { a, b, d1: b + hour, d2: b + hour };
  };
  /** Energy per meter over [t1, t2] as hours and whole days (hours only when `daily` is false). */
  const partsOf = async (meterIds: number[], t1: number, t2: number, daily: boolean) => {
    const { a, b, d1, d2 } = split(t1, t2, daily);
    const rows = [
      ...(await repo.energy('energy_hours', meterIds, a, d1)),
      ...(await repo.energy('energy_days', meterIds, d1, d2)),
      ...(await repo.energy('energy_hours', meterIds, d2, b + hour)),
    ];
    const out = new Map<number, EnergyPart[]>();
    for (const r of rows) {
      const list = out.get(r.meter_id);
      if (list) list.push(r);
      else out.set(r.meter_id, [r]);
    }
    for (const list of out.values()) list.sort((x, y) => x.ts - y.ts);
    return out;
  };
  /**
   * Energy per meter and hour over [t1, t2] (cost, load and periods need hours): the whole days
   * from the hours packed in the daily rows, the partial days at the edges from energy_hours.
   */
  const hoursOf = async (meterIds: number[], t1: number, t2: number) => {
    const { a, b, d1, d2 } = split(t1, t2, true);
    const out = new Map<number, EnergyPart[]>();
    const push = (meterId: number, p: EnergyPart) => {
      const list = out.get(meterId);
      if (list) list.push(p);
      else out.set(meterId, [p]);
    };
    for (const r of await repo.energy('energy_hours', meterIds, a, d1)) push(r.meter_id, r);
    for (const r of await repo.dayHours(meterIds, d1, d2)) {
      const h0 = Math.ceil(Number(r.ts) / hour) * hour;
      const values = r.hours.split(',');
      for (let i = 0; i < values.length; i++)
        if (values[i] !== '') push(r.meter_id, { ts: h0 + i * hour, kwh: Number(values[i]), estimated: false });
    }
    for (const r of await repo.energy('energy_hours', meterIds, d2, b + hour)) push(r.meter_id, r);
    return out;
  };
  /** kWh per meter over [t1, t2], summed by the database. */
  const totalsOf = async (meterIds: number[], t1: number, t2: number) => {
    const { a, b, d1, d2 } = split(t1, t2, true);
    const out = new Map<number, number>();
    for (const [table, from, to] of [
      ['energy_hours', a, d1],
      ['energy_days', d1, d2],
      ['energy_hours', d2, b + hour],
    ] as const)
      for (const r of await repo.energySums(table, meterIds, from, to))
        out.set(r.meter_id, (out.get(r.meter_id) ?? 0) + Number(r.kwh));
    return out;
  };

  const starts = {
    hour: new Map<number, number>(),
    day: new Map<number, number>(),
    month: new Map<number, number>(),
    year: new Map<number, number>(),
  };
  /** intervalStart, remembered (a year of hours of many meters asks for the same few thousand). */
  const startOf = (ts: number, interval: EnergyQuery['interval']) => {
    const cache = starts[interval];
    let v = cache.get(ts);
    if (v === undefined) {
      if (cache.size > 100_000) cache.clear();
      v = intervalStart(ts, interval, clock);
      cache.set(ts, v);
    }
    return v;
  };
  const sumBy = <T extends { ts: number }>(
    items: T[],
    interval: EnergyQuery['interval'],
    add: (into: Record<string, number>, x: T) => void,
  ) => {
    const out = new Map<number, Record<string, number>>();
    for (const x of items) {
      const key = startOf(x.ts, interval);
      const into = out.get(key) ?? {};
      add(into, x);
      out.set(key, into);
    }
    return [...out.entries()].sort((a, b) => a[0] - b[0]);
  };

  /** Whose energy a figure is: one meter when asked for, else the sites' total (site-total.ts). */
  const facility = <M extends { category: string; device_group_id: number }>(meters: M[], oneMeter: boolean) =>
    oneMeter ? { meters, source: 'meter' as const } : topLevelMeters(meters);
  /** The same local wall-clock time a year earlier (29 February → 28 February). */
  const yearBack = (ts: number) => {
    const off = clock.offsetMinutes(ts) * 60;
    const l = new Date((ts + off) * 1000);
    const y = l.getUTCFullYear() - 1;
    const last = new Date(Date.UTC(y, l.getUTCMonth() + 1, 0)).getUTCDate();
    const local =
      Date.UTC(y, l.getUTCMonth(), Math.min(l.getUTCDate(), last), l.getUTCHours(), l.getUTCMinutes()) / 1000;
    return local - clock.offsetMinutes(local - off) * 60;
  };
  /** Start of the interval after the one starting at `key`. */
  const nextStart = (key: number, interval: EnergyQuery['interval']) =>
    interval === 'hour'
      ? key + hour
      : startOf(key + (interval === 'day' ? 26 : interval === 'month' ? 32 * 24 : 367 * 24) * hour, interval);

  /** Tariff periods per site, for costing. */
  const periodsBySite = async (siteIds: number[]) => {
    const sets = await repo.tariffSets(siteIds);
    const tariffs = new Map((await repo.tariffs()).map((t) => [t.id, tariffRow(t)]));
    const out = new Map<number, Array<TariffPeriod & { tariff: TariffRow }>>();
    for (const s of sets) {
      const t = tariffs.get(s.tariff_id);
      if (!t) continue;
      out.set(s.device_group_id, [
        ...(out.get(s.device_group_id) ?? []),
        { validFrom: Number(s.valid_from), tariff: t },
      ]);
    }
    return out;
  };

  return { metersOf, split, partsOf, hoursOf, totalsOf, startOf, sumBy, facility, yearBack, nextStart, periodsBySite };
};
export type EnergyReader = ReturnType<typeof createEnergyReader>;

/** What each part of the energy service works with (service.ts builds it once). */
export interface EnergyContext {
  repo: EnergyRepository;
  clock: LocalClock;
  /** Now in epoch seconds. */
  now: () => number;
  scope: (siteId: number | undefined, allowed: Allowed) => Promise<Allowed>;
  visible: (siteId: number, allowed: Allowed) => boolean;
  reader: EnergyReader;
  /** Brings the meters' stored energy up to date with the series store before a read (fill.ts). */
  catchUp?: ((meterIds: number[]) => Promise<void>) | undefined;
  /** The series store's minute roll-ups (get_active_power). */
  minutes?: ((itemIds: number[], t1: number, t2: number) => Promise<RollupBucket[]>) | undefined;
}
