import type { Db } from '../../db/kysely.ts';
import type { RollupBucket, SeriesStore } from '../../series/store.ts';
import type { CounterEvent, EnergyBucket, Reading } from './counters.ts';
import { counterHours, eventTime } from './hours.ts';
import { powerEnergy, powerHoldSeconds } from './power.ts';

const hour = 3600;
/** Hours recomputed behind new data, and as much again read before them to warm the counter rules up. */
const window = 48 * hour;
const farFuture = 32_503_680_000;
/** A power meter's minute roll-ups are read a week at a time (a whole history is 400 days of them). */
const powerSlice = 7 * 24 * hour;

/** A meter to recompute, as the fill's plan found it. */
export interface MeterWork {
  id: number;
  item_id: number;
  kind: string;
  rollover_at: number | null;
  max_power_kw: number | null;
  /** Recompute from this roll-up hour (null: the meter's whole history). */
  from: number | null;
  /** The late-data mark read from the table, cleared once handled. */
  dirty: number | null;
}

/** What a recomputation writes for one meter: its hours and events from `w` on. */
export interface MeterPlan {
  meter: MeterWork;
  /** Hours and events from here on are rewritten (-Infinity: the whole history). */
  w: number;
  hours: EnergyBucket[];
  events: CounterEvent[];
  /** The last hourly roll-up read (remembered in energy_fill). */
  head: RollupBucket;
}

export interface FillReadDeps {
  db: Db;
  store: Pick<SeriesStore, 'rollups' | 'raw'>;
  /** Now in epoch ms: a power meter's current hour is booked up to it. */
  now: () => number;
}

/**
 * The reading side of a recomputation (fill.ts): the series store's roll-ups of a group of meters
 * recomputed from the same hour, through the counter rules (counters.ts) or the power integration
 * (power.ts), into the hours and events to write.
 */
export const createFillReader = ({ db, store, now }: FillReadDeps) => {
  const k = db.kysely;

  /**
   * The last hourly roll-up before `ctxStart` per item: the baseline of energy spread over a long
   * gap. Found per meter by an index seek: filtering each meter's hour rows by the newest before the
   * context read all of them (140 ms for 50 meters with a year of hours, on the main thread).
   */
  const lastBefore = (itemIds: number[], ctxStart: number) =>
    itemIds.length === 0
      ? Promise.resolve([])
      : k
          .selectFrom('energy_meters as m')
          .innerJoin('samples_1h as s', (join) =>
            join.onRef('s.item_id', '=', 'm.item_id').on('s.ts', '=', (eb) =>
              eb
                .selectFrom('samples_1h as p')
                .select((e) => e.fn.max('p.ts').as('ts'))
                .whereRef('p.item_id', '=', 'm.item_id')
                .where('p.ts', '<', ctxStart),
            ),
          )
          .select(['s.item_id', 's.ts', 's.min', 's.max', 's.sum', 's.count'])
          .where('m.item_id', 'in', itemIds)
          .execute();

  /**
   * First readings and event stamps found, per item: a run every minute would otherwise read them
   * again for every event of the last two days. Kept until a late sample of the item (`forget`).
   */
  const found = new Map<number, Map<string, number | Reading | null>>();
  const remember = async <T extends number | Reading | null>(itemId: number, key: string, find: () => Promise<T>) => {
    let byKey = found.get(itemId);
    if (!byKey) {
      byKey = new Map();
      found.set(itemId, byKey);
    }
    if (byKey.has(key)) return byKey.get(key) as T;
    const value = await find();
    if (byKey.size > 10_000) byKey.clear();
    byKey.set(key, value);
    return value;
  };

  /** The item's first reading: the first minute of its first hour (null once minutes are pruned). */
  const firstReading = (itemId: number, hourTs: number) =>
    remember(itemId, `first:${hourTs}`, async (): Promise<Reading | null> => {
      const [m] = await store.rollups([itemId], 'minute', hourTs, hourTs + hour - 1);
      return m ? { ts: Number(m.ts), value: m.min } : null;
    });

  /** Events at the time of the reading that showed them; at their hour's end once the raw samples are gone. */
  const stamp = async (itemId: number, events: CounterEvent[]) => {
    const out: CounterEvent[] = [];
    for (const e of events) {
      const ts = await remember(
        itemId,
        `${e.rule}:${e.ts}:${e.since}:${e.from}:${e.to}`,
        async () => eventTime(e, await store.raw(itemId, e.since - hour, e.ts - 1)) ?? e.ts,
      );
      out.push({ ...e, ts });
    }
    return out;
  };

  const counterPlan = async (m: MeterWork, list: RollupBucket[], whole: boolean): Promise<MeterPlan> => {
    let w = Number.NEGATIVE_INFINITY;
    if (m.from !== null) {
      w = m.from - window;
      // A reading before the window is the baseline of energy spread from its hour on (a gap).
      const q = list.filter((r) => r.ts < w).at(-1);
      if (q) w = Math.min(w, q.ts + hour);
    }
    const first = whole ? await firstReading(m.item_id, list[0]!.ts) : null;
    const { buckets, events } = counterHours(m, list, first);
    // An event's stamp may fall in the hours before its closing: kept where it falls, so that a run
    // rewrites exactly the events it deletes (those from w on).
    const stamped = await stamp(
      m.item_id,
      events.filter((e) => e.ts >= w),
    );
    return {
      meter: m,
      w,
      hours: buckets.filter((h) => h.ts >= w),
      events: stamped.filter((e) => e.ts >= w),
      head: list.at(-1)!,
    };
  };

  /**
   * Power meters recomputed from the hour `from` (their hours are independent but for a reading
   * held across an hour's end), from their minute roll-ups a slice at a time.
   */
  const powerPlans = async (meters: MeterWork[], byItem: Map<number, RollupBucket[]>, from: number | null) => {
    const plans = new Map<number, MeterPlan>();
    if (meters.length === 0) return plans;
    const lists = meters.map((m) => byItem.get(m.item_id)!);
    for (const [i, m] of meters.entries())
      plans.set(m.id, {
        meter: m,
        w: from ?? Number.NEGATIVE_INFINITY,
        hours: [],
        events: [],
        head: lists[i]!.at(-1)!,
      });
    // Slices start at hours with samples: a reading carries into the next hour only if that hour has
    // one within the hold, so the empty stretches of a long history are skipped.
    const sampled = [...new Set(lists.flatMap((l) => l.map((r) => r.ts)))]
      .filter((ts) => from === null || ts >= from)
      .sort((x, y) => x - y);
    const t = Math.floor(now() / 1000);
    for (let i = 0; i < sampled.length; ) {
      const s = sampled[i]!;
      const e = s + powerSlice;
      while (i < sampled.length && sampled[i]! < e) i++;
      const minutes = new Map<number, RollupBucket[]>();
      for (const r of await store.rollups(
        meters.map((m) => m.item_id),
        'minute',
        s - powerHoldSeconds,
        e + powerHoldSeconds - 1,
      )) {
        const list = minutes.get(r.item_id);
        if (list) list.push(r);
        else minutes.set(r.item_id, [r]);
      }
      const inSlice = (x: { ts: number }) => x.ts >= s && x.ts < e;
      for (const [j, m] of meters.entries()) {
        const part = powerEnergy(minutes.get(m.item_id) ?? [], lists[j]!.filter(inSlice), {
          holdSeconds: powerHoldSeconds,
          now: t,
        });
        const plan = plans.get(m.id)!;
        plan.hours.push(...part.buckets.filter(inSlice));
        plan.events.push(...part.events.filter(inSlice));
      }
    }
    return plans;
  };

  /** The hours and events of a group of meters recomputed from the same hour (null: whole histories). */
  const plans = async (meters: MeterWork[], from: number | null): Promise<MeterPlan[]> => {
    const ctxStart = from === null ? 0 : from - 2 * window;
    const rows = await store.rollups(
      meters.map((m) => m.item_id),
      'hour',
      ctxStart,
      farFuture,
    );
    const counters = meters.filter((m) => m.kind !== 'power');
    const before =
      from === null
        ? []
        : await lastBefore(
            counters.map((m) => m.item_id),
            ctxStart,
          );
    const byItem = new Map<number, RollupBucket[]>();
    for (const r of [...before, ...rows]) {
      const list = byItem.get(r.item_id);
      const row = { ...r, ts: Number(r.ts) };
      if (list) list.push(row);
      else byItem.set(r.item_id, [row]);
    }
    const withRows = meters.filter((m) => byItem.has(m.item_id));
    const power = await powerPlans(
      withRows.filter((m) => m.kind === 'power'),
      byItem,
      from,
    );
    // Nothing before the context: its roll-ups start at the item's first hour, with its first reading.
    const hasBefore = new Set(before.map((r) => r.item_id));
    const out: MeterPlan[] = [];
    for (const m of withRows)
      out.push(
        power.get(m.id) ?? (await counterPlan(m, byItem.get(m.item_id)!, from === null || !hasBefore.has(m.item_id))),
      );
    return out;
  };

  /** A late sample of the item: what was found for it may have changed. */
  const forget = (itemId: number) => found.delete(itemId);
  return { plans, forget };
};
