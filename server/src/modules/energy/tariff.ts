import type { Gradient, TariffMode, TimeSlot } from '@sitewatch/contract/energy';

/**
 * Tariffs and cost (002 §2.3, §3, §5.1; docs/energy.md "Tariffs"). Pure. Money is exact: prices are
 * integers of 1/10 000 yuan per kWh, energy is rounded to whole Wh per hour, their products are
 * integers of 1e-7 yuan summed exactly, and a bill is rounded to the fen once, at the end.
 */

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

/**
 * The rules the schema cannot see alone (the mode's parts, gradients in order, slots covering the
 * day) live in the contract, so the web's tariff editors check a tariff as the server does.
 */
export { tariffProblems } from '@sitewatch/contract/rules/tariff';

/** What the cost function needs of a tariff. */
export interface Tariff {
  mode: TariffMode;
  summer_months: number[];
  gradients: Gradient[];
  slots: TimeSlot[];
}

/** A tariff in force from `validFrom` (epoch s) until the next one of the same site. */
export interface TariffPeriod {
  validFrom: number;
  tariff: Tariff;
}

export interface LocalClock {
  /** Minutes east of UTC at that instant (for a zone with DST this changes). */
  offsetMinutes(ts: number): number;
  /**
   * [year × 12 + month index, month 1-12, minute of the day] of `ts` on the clock, remembered by the
   * clock (a year of hours of many meters asks for the same 8 760).
   */
  local(ts: number): [number, number, number];
}

/** Local wall-clock offset of an IANA zone, cached per UTC hour (Intl is slow on a year of hours). */
export const zoneClock = (zone: string): LocalClock => {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const cache = new Map<number, number>();
  const locals = new Map<number, [number, number, number]>();
  const clock: LocalClock = {
    local(ts) {
      let v = locals.get(ts);
      if (!v) {
        if (locals.size > 200_000) locals.clear();
        const local = new Date((ts + clock.offsetMinutes(ts) * 60) * 1000);
        v = [
          local.getUTCFullYear() * 12 + local.getUTCMonth(),
          local.getUTCMonth() + 1,
          local.getUTCHours() * 60 + local.getUTCMinutes(),
        ];
        locals.set(ts, v);
      }
      return v;
    },
    offsetMinutes(ts) {
      const hour = Math.floor(ts / 3600);
      let offset = cache.get(hour);
      if (offset === undefined) {
        const p = Object.fromEntries(format.formatToParts(new Date(hour * 3600_000)).map((x) => [x.type, x.value]));
        const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
        offset = Math.round((local - hour * 3600_000) / 60_000);
        cache.set(hour, offset);
      }
      return offset;
    },
  };
  return clock;
};

/** Integer price of 1/10 000 yuan. */
export const priceUnits = (p: number) => Math.round(p * 1e4);

interface Prepared {
  mode: TariffMode;
  summer: Set<number>;
  /** Per season: sorted tiers [start Wh, end Wh | Infinity, price units]. */
  tiers: Map<string, Array<[number, number, number]>>;
  /** Per season: price units of each minute of the day. */
  minutes: Map<string, Int32Array>;
  /** Per season and local start minute of an hour: [price units, minutes] of its periods (a cache). */
  hourParts: Map<number, Array<[number, number]>>;
}

const prepare = (t: Tariff): Prepared => {
  const tiers = new Map<string, Array<[number, number, number]>>();
  for (const g of [...t.gradients].sort((a, b) => a.start - b.start)) {
    const list = tiers.get(g.season) ?? [];
    list.push([
      Math.round(g.start * 1000),
      g.end === null ? Number.POSITIVE_INFINITY : Math.round(g.end * 1000),
      priceUnits(g.price),
    ]);
    tiers.set(g.season, list);
  }
  const minutes = new Map<string, Int32Array>();
  for (const s of t.slots) {
    const day = minutes.get(s.season) ?? new Int32Array(1440);
    const a = minutesOf(s.start);
    let b = minutesOf(s.end);
    if (b <= a) b += 1440;
    for (let m = a; m < b; m++) day[m % 1440] = priceUnits(s.price);
    minutes.set(s.season, day);
  }
  return { mode: t.mode, summer: new Set(t.summer_months), tiers, minutes, hourParts: new Map() };
};

export interface CostedHour {
  ts: number;
  wh: number;
  /** 1e-7 yuan. */
  cost: number;
}

/** Rounds 1e-7 yuan to whole fen, half away from zero. */
export const toCents = (units: number) => Math.round(units / 1e5);

/**
 * Cost of hourly energy (sorted by time) under the tariffs in force. The stair counts consumption
 * within the local calendar month; an hour crossing a tier edge is split at the edge; in an hour
 * whose minutes fall in several time-share periods its energy is split by minutes (even load
 * within the hour). Hours before the first tariff are returned with cost null.
 */
export const costHours = (
  hours: Array<{ ts: number; kwh: number }>,
  periods: TariffPeriod[],
  clock: LocalClock,
): Array<CostedHour | { ts: number; wh: number; cost: null }> => {
  const sorted = [...periods].sort((a, b) => a.validFrom - b.validFrom);
  const prepared = sorted.map((p) => ({ validFrom: p.validFrom, t: prepare(p.tariff) }));
  const out: Array<CostedHour | { ts: number; wh: number; cost: null }> = [];
  let monthKey = -1;
  let used = 0;
  let pi = -1;
  /** Cost of `partWh` at a period price: the price alone (time-share), or walking the tiers from the
   * month's consumption so far, split at tier edges, the tier price added (stair modes). */
  const charge = (partWh: number, bandPrice: number, tiers: Array<[number, number, number]> | null) => {
    if (tiers === null) return partWh * bandPrice;
    let left = partWh;
    let c = 0;
    for (let i = 0; i < tiers.length && left > 0; i++) {
      const [start, end, tierPrice] = tiers[i]!;
      if (used >= end) continue;
      const from = Math.max(used, start);
      const take = Math.min(left, end - from);
      c += take * (tierPrice + bandPrice);
      used += take;
      left -= take;
    }
    return c;
  };
  for (const h of hours) {
    const wh = Math.max(0, Math.round(h.kwh * 1000));
    while (pi + 1 < prepared.length && prepared[pi + 1]!.validFrom <= h.ts) pi++;
    const [month, monthNo, m0] = clock.local(h.ts);
    if (month !== monthKey) {
      monthKey = month;
      used = 0;
    }
    if (pi < 0) {
      out.push({ ts: h.ts, wh, cost: null });
      used += wh;
      continue;
    }
    const t = prepared[pi]!.t;
    const season = t.summer.size === 0 ? 'all' : t.summer.has(monthNo) ? 'summer' : 'non_summer';
    const tiers = t.mode === 'time_share' ? null : (t.tiers.get(season) ?? []);
    // Split the hour's Wh over its minutes' period prices (remainder to the last part: exact sum).
    let cost = 0;
    if (t.mode === 'stair') cost = charge(wh, 0, tiers);
    else {
      const key = (season === 'all' ? 0 : season === 'summer' ? 1 : 2) * 1440 + m0;
      let minutesByPrice = t.hourParts.get(key);
      if (!minutesByPrice) {
        const day = t.minutes.get(season)!;
        const byPrice = new Map<number, number>();
        for (let m = 0; m < 60; m++) {
          const p = day[(m0 + m) % 1440]!;
          byPrice.set(p, (byPrice.get(p) ?? 0) + 1);
        }
        minutesByPrice = [...byPrice.entries()];
        t.hourParts.set(key, minutesByPrice);
      }
      let left = wh;
      const last = minutesByPrice.length - 1;
      for (let i = 0; i <= last; i++) {
        const part = i === last ? left : Math.floor((wh * minutesByPrice[i]![1]) / 60);
        left -= part;
        cost += charge(part, minutesByPrice[i]![0], tiers);
      }
    }
    out.push({ ts: h.ts, wh, cost });
  }
  return out;
};

export type Band = 'sharp' | 'peak' | 'flat' | 'valley' | 'none';

/**
 * Energy of each hour by time-share period under the tariffs in force (time_sharing_statistics).
 * An hour whose minutes fall in several periods is split by minutes (even load within the hour),
 * as the cost is; hours under a stair tariff or before any tariff have no period (`none`).
 */
export const bandHours = (
  hours: Array<{ ts: number; kwh: number }>,
  periods: TariffPeriod[],
  clock: LocalClock,
): Array<{ ts: number; parts: Array<[Band, number]> }> => {
  const sorted = [...periods].sort((a, b) => a.validFrom - b.validFrom);
  const prepared = sorted.map((p) => {
    const minutes = new Map<string, Band[]>();
    for (const s of p.tariff.slots) {
      const day = minutes.get(s.season) ?? new Array<Band>(1440).fill('none');
      const a = minutesOf(s.start);
      let b = minutesOf(s.end);
      if (b <= a) b += 1440;
      for (let m = a; m < b; m++) day[m % 1440] = s.band;
      minutes.set(s.season, day);
    }
    return { validFrom: p.validFrom, t: p.tariff, minutes, cache: new Map<string, Array<[Band, number]>>() };
  });
  let pi = -1;
  return hours.map((h) => {
    const wh = Math.max(0, Math.round(h.kwh * 1000));
    while (pi + 1 < prepared.length && prepared[pi + 1]!.validFrom <= h.ts) pi++;
    const p = prepared[pi];
    if (!p || p.t.mode === 'stair') return { ts: h.ts, parts: [['none', wh]] };
    const local = new Date((h.ts + clock.offsetMinutes(h.ts) * 60) * 1000);
    const season =
      p.t.summer_months.length === 0
        ? 'all'
        : p.t.summer_months.includes(local.getUTCMonth() + 1)
          ? 'summer'
          : 'non_summer';
    const m0 = local.getUTCHours() * 60 + local.getUTCMinutes();
    const key = `${season}|${m0}`;
    let share = p.cache.get(key);
    if (!share) {
      const day = p.minutes.get(season);
      const by = new Map<Band, number>();
      for (let m = 0; m < 60; m++) {
        const band = day?.[(m0 + m) % 1440] ?? 'none';
        by.set(band, (by.get(band) ?? 0) + 1);
      }
      share = [...by.entries()];
      p.cache.set(key, share);
    }
    let left = wh;
    const parts = share.map(([band, n], i): [Band, number] => {
      const part = i === share!.length - 1 ? left : Math.floor((wh * n) / 60);
      left -= part;
      return [band, part];
    });
    return { ts: h.ts, parts };
  });
};
