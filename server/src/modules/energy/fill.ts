import { realTimers, type Timer, type Timers } from '../../clock/timers.ts';
import type { Db } from '../../db/kysely.ts';
import type { SeriesStore } from '../../series/store.ts';
import { createFillReader, type MeterWork } from './fill-read.ts';
import { createFillWriter } from './fill-write.ts';
import { intervalStart } from './hours.ts';
import type { LocalClock } from './tariff.ts';

const hour = 3600;
/** New readings of a live meter are taken in by a read at most this often (the timer: every minute). */
const readFreshMs = 15_000;

export interface EnergyFillDeps {
  db: Db;
  /** The series store's reads: hourly and minute roll-ups, raw samples (to stamp counter events). */
  store: Pick<SeriesStore, 'rollups' | 'raw'>;
  /** Writes the samples still buffered (so a reading just taken counts). */
  flush?: (() => Promise<unknown>) | undefined;
  clock: LocalClock;
  /** Now in epoch ms (the app's clock): the current hour of a power meter is booked up to it. */
  now?: (() => number) | undefined;
  /** The zone of `clock`: daily rows cut on another zone are rebuilt (see `zoneChecked`). */
  zone?: string;
  /** Every timer of the fill (a test's manual clock drives them). */
  timers?: Timers | undefined;
  everyMs?: number;
  onError?: (err: unknown) => void;
}

/**
 * Daily rows are cut on the server's clock: when the zone they were cut on is not the zone now
 * (the server moved), every meter's energy is dropped once and recomputed from the roll-ups.
 */
const rebuildOnZoneChange = async (db: Db, zone: string, now: () => number) => {
  const k = db.kysely;
  const row = await k.selectFrom('module_settings').select('v').where('k', '=', 'energy_zone').executeTakeFirst();
  if (row?.v === zone) return;
  await k.transaction().execute(async (trx) => {
    if (row)
      for (const table of ['energy_fill', 'energy_events', 'energy_days', 'energy_hours'] as const)
        await trx.deleteFrom(table).execute();
    await trx.deleteFrom('module_settings').where('k', '=', 'energy_zone').execute();
    await trx
      .insertInto('module_settings')
      .values({ k: 'energy_zone', v: zone, updated_at: Math.floor(now() / 1000) })
      .execute();
  });
};

/**
 * Fills energy_hours / energy_days / energy_events from the series store's roll-ups (docs/energy.md
 * "Where energy is stored"). Per meter, energy_fill remembers the last hourly roll-up read and its
 * sample count: a later hour or a grown count is new data, and the meter is recomputed from that
 * hour; a sample for an older hour (a late one, told by `touched`) recomputes from its hour; a meter
 * without a fill row (new or changed) is recomputed over its whole history. What a recomputation
 * reads and computes is fill-read.ts, what it writes fill-write.ts. Runs one at a time: on a timer
 * and before every read.
 */
export const createEnergyFill = (deps: EnergyFillDeps) => {
  const k = deps.db.kysely;
  const now = deps.now ?? Date.now;
  const timers = deps.timers ?? realTimers;
  const days = new Map<number, number>();
  const dayOf = (ts: number) => {
    let d = days.get(ts);
    if (d === undefined) {
      if (days.size > 200_000) days.clear();
      d = intervalStart(ts, 'day', deps.clock);
      days.set(ts, d);
    }
    return d;
  };
  const read = createFillReader({ db: deps.db, store: deps.store, now });
  const write = createFillWriter(deps.db, dayOf);
  /** Meter items and the last hour read, for telling late samples apart (refreshed by every run). */
  const watched = new Map<number, { meterId: number; lastTs: number }>();
  let lateMarks = new Map<number, number>();
  /** When each meter was last recomputed (ms): a read within `readFreshMs` of it uses what is stored. */
  const recent = new Map<number, number>();
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };

  const recompute = async (meters: MeterWork[], from: number | null) => {
    const plans = await read.plans(meters, from);
    await write(plans);
    for (const p of plans) watched.set(p.meter.item_id, { meterId: p.meter.id, lastTs: p.head.ts });
  };

  let zoneChecked = deps.zone === undefined;
  const checkZone = async () => {
    if (zoneChecked || deps.zone === undefined) return;
    await rebuildOnZoneChange(deps.db, deps.zone, now);
    zoneChecked = true;
  };

  /** Which meters have new data, grouped by the hour to recompute from (one pass at a time). */
  const plan = (meterIds?: number[]) =>
    serial(async () => {
      await checkZone();
      const groups = new Map<number | null, MeterWork[]>();
      if (meterIds?.length === 0) return groups;
      const marks = lateMarks;
      lateMarks = new Map();
      try {
        await deps.flush?.();
      } catch (err) {
        deps.onError?.(err);
      }
      let q = k
        .selectFrom('energy_meters as m')
        .leftJoin('energy_fill as f', 'f.meter_id', 'm.id')
        .select((eb) => [
          'm.id',
          'm.item_id',
          'm.kind',
          'm.rollover_at',
          'm.max_power_kw',
          'f.last_ts',
          'f.last_count',
          'f.dirty_from',
          eb
            .selectFrom('samples_1h as s')
            .select('s.ts')
            .whereRef('s.item_id', '=', 'm.item_id')
            .orderBy('s.ts', 'desc')
            .limit(1)
            .as('head_ts'),
          eb
            .selectFrom('samples_1h as s')
            .select('s.count')
            .whereRef('s.item_id', '=', 'm.item_id')
            .orderBy('s.ts', 'desc')
            .limit(1)
            .as('head_count'),
        ]);
      if (meterIds) q = q.where('m.id', 'in', meterIds);
      const meters = await q.execute();
      for (const m of meters) {
        const lastTs = m.last_ts === null ? null : Number(m.last_ts);
        if (lastTs !== null) watched.set(m.item_id, { meterId: m.id, lastTs });
        if (m.head_ts === null) continue;
        const dirty = m.dirty_from === null ? null : Number(m.dirty_from);
        const mark = marks.get(m.item_id);
        const late = Math.min(dirty ?? Number.POSITIVE_INFINITY, mark ?? Number.POSITIVE_INFINITY);
        let from: number | null;
        if (lastTs === null) from = null;
        else if (Number.isFinite(late)) from = Math.min(late, lastTs);
        else if (Number(m.head_ts) === lastTs && m.head_count === m.last_count) continue;
        // A read does not redo a meter brought up to date moments ago (live meters move every poll).
        else if (meterIds && now() - (recent.get(m.id) ?? 0) < readFreshMs) continue;
        else from = lastTs;
        const work: MeterWork = {
          id: m.id,
          item_id: m.item_id,
          kind: m.kind,
          rollover_at: m.rollover_at === null ? null : Number(m.rollover_at),
          max_power_kw: m.max_power_kw === null ? null : Number(m.max_power_kw),
          from,
          dirty,
        };
        // A whole history is recomputed alone (a year of hours); incremental ones share their reads.
        const key = from === null ? -m.id - 1e12 : from;
        groups.set(key, [...(groups.get(key) ?? []), work]);
      }
      return groups;
    });
  /**
   * A pass: the plan, then each group as a step of its own, so a read waits for the step running
   * and its own meters, not for a whole first pass over a year of every meter.
   */
  const run = async (meterIds?: number[]) => {
    for (const group of (await plan(meterIds)).values())
      for (let i = 0; i < group.length; i += 200) {
        if (stopped) return;
        const part = group.slice(i, i + 200);
        await serial(async () => {
          // A whole history another pass has computed meanwhile is not computed again.
          if (
            part[0]!.from === null &&
            (await k
              .selectFrom('energy_fill')
              .select('meter_id')
              .where('meter_id', '=', part[0]!.id)
              .executeTakeFirst())
          )
            return;
          await recompute(part, part[0]!.from);
          const done = now();
          for (const m of part) recent.set(m.id, done);
        });
      }
  };

  let timer: Timer | null = null;
  let first: Timer | null = null;
  let stopped = false;
  const tick = () => run().catch((err) => deps.onError?.(err));
  return {
    /** Brings the meters' energy (all meters without ids) up to date with the roll-ups. */
    catchUp: (meterIds?: number[]) => run(meterIds),
    /** A sample of an item was taken: one for an hour already read is late and recomputes it. */
    touched(itemId: number, tsMs: number): Promise<unknown> | undefined {
      const w = watched.get(itemId);
      if (!w) return;
      const h = Math.floor(tsMs / 1000 / hour) * hour;
      if (h >= w.lastTs) return;
      read.forget(itemId);
      const mark = lateMarks.get(itemId);
      if (mark === undefined || h < mark) lateMarks.set(itemId, h);
      // Written too, so a restart before the next run still recomputes it.
      return k
        .updateTable('energy_fill')
        .set({ dirty_from: h })
        .where('meter_id', '=', w.meterId)
        .where((eb) => eb.or([eb('dirty_from', 'is', null), eb('dirty_from', '>', h)]))
        .execute()
        .catch((err) => deps.onError?.(err));
    },
    /** Forgets a meter's energy: it is recomputed over its whole history (its reading changed). */
    reset: (meterId: number) =>
      serial(async () => {
        await k.transaction().execute(async (trx) => {
          for (const table of ['energy_fill', 'energy_events', 'energy_days', 'energy_hours'] as const)
            await trx.deleteFrom(table).where('meter_id', '=', meterId).execute();
        });
        for (const [item, w] of watched) if (w.meterId === meterId) watched.delete(item);
      }),
    /** Whether start() made it follow the roll-ups on its own. */
    running: () => timer !== null,
    start() {
      if (timer) return;
      timer = timers.setInterval(tick, deps.everyMs ?? 60_000);
      timer.unref();
      // The first pass at once, as a timer too: its work counts as the timers' (settled()).
      first = timers.setTimeout(tick, 0);
      first.unref();
    },
    async stop() {
      stopped = true;
      timers.clearInterval(timer);
      timers.clearTimeout(first);
      timer = null;
      await chain;
    },
  };
};
export type EnergyFill = ReturnType<typeof createEnergyFill>;
