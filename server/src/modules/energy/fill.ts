import { realTimers, type Timer, type Timers } from '../../clock/timers.ts';
import type { Db } from '../../db/kysely.ts';
import type { RollupBucket } from '../../series/store.ts';
import { intervalStart, meterHours } from './hours.ts';
import type { LocalClock } from './tariff.ts';

const hour = 3600;
/** Hours recomputed behind new data, and as much again read before them to warm the counter rules up. */
const window = 48 * hour;
const farFuture = 32_503_680_000;
const batch = 500;
/** New readings of a live meter are taken in by a read at most this often (the timer: every minute). */
const readFreshMs = 15_000;

export interface EnergyFillDeps {
  db: Db;
  /** The series store's hourly roll-ups (`SeriesStore.rollups(ids, 'hour', t1, t2)`). */
  rollups: (itemIds: number[], t1: number, t2: number) => Promise<RollupBucket[]>;
  /** Writes the samples still buffered (so a reading just taken counts). */
  flush?: (() => Promise<unknown>) | undefined;
  clock: LocalClock;
  /** The zone of `clock`: daily rows cut on another zone are rebuilt (see `zoneChecked`). */
  zone?: string;
  /** Epoch ms (`Date.now` by default). */
  now?: () => number;
  timers?: Timers;
  everyMs?: number;
  onError?: (err: unknown) => void;
}

interface MeterWork {
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

/**
 * Fills energy_hours / energy_days / energy_events from the series store's hourly roll-ups
 * (docs/energy.md "Where energy is stored"). Per meter, energy_fill remembers the last roll-up hour
 * read and its sample count: a later hour or a grown count is new data, and the meter is recomputed
 * from that hour; a sample for an older hour (a late one, told by `touched`) recomputes from its
 * hour; a meter without a fill row (new or changed) is recomputed over its whole history. Each
 * recomputation runs the counter rules over the roll-ups from 96 h before the hour (plus the last
 * reading before them, the baseline across a long gap) and rewrites only the hours that changed
 * from 48 h before it on. Runs one at a time: on a timer and before every read.
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
    const ids = meters.map((m) => m.item_id);
    const ctxStart = from === null ? 0 : from - 2 * window;
    const rows = await deps.rollups(ids, ctxStart, farFuture);
    // The last reading before the context: the baseline of energy spread over a long gap. Found
    // per meter by an index seek: filtering each meter's hour rows by the newest before the context
    // read all of them (140 ms for 50 meters with a year of hours, on the main thread).
    const before =
      from === null
        ? []
        : await k
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
            .where('m.item_id', 'in', ids)
            .execute();
    const byItem = new Map<number, RollupBucket[]>();
    for (const r of [...before, ...rows]) {
      const list = byItem.get(r.item_id);
      const row = { ...r, ts: Number(r.ts) };
      if (list) list.push(row);
      else byItem.set(r.item_id, [row]);
    }
    const plans = meters.flatMap((m) => {
      const list = byItem.get(m.item_id) ?? [];
      if (list.length === 0) return [];
      let w = Number.NEGATIVE_INFINITY;
      if (from !== null) {
        w = from - window;
        // A reading before the window is the baseline of energy spread from its hour on (a gap).
        const q = list.filter((r) => r.ts < w).at(-1);
        if (q) w = Math.min(w, q.ts + hour);
      }
      const { hours, events } = meterHours(m, list, 0, farFuture);
      return [
        {
          meter: m,
          w,
          hours: hours.filter((h) => h.ts >= w),
          events: events.filter((e) => e.ts >= w),
          head: list.at(-1)!,
        },
      ];
    });
    if (plans.length === 0) return;
    const firstDay = Math.min(...plans.map((p) => (Number.isFinite(p.w) ? dayOf(p.w) : 0)));
    const stored = await k
      .selectFrom('energy_hours')
      .select(['meter_id', 'ts', 'kwh', 'estimated'])
      .where(
        'meter_id',
        'in',
        plans.map((p) => p.meter.id),
      )
      .where('ts', '>=', firstDay)
      .execute();
    const storedBy = new Map<number, Array<{ ts: number; kwh: number; estimated: number }>>();
    for (const s of stored) {
      const row = { ts: Number(s.ts), kwh: s.kwh, estimated: s.estimated };
      const list = storedBy.get(s.meter_id);
      if (list) list.push(row);
      else storedBy.set(s.meter_id, [row]);
    }

    await k.transaction().execute(async (trx) => {
      for (const p of plans) {
        const id = p.meter.id;
        const full = !Number.isFinite(p.w);
        const old = full ? [] : (storedBy.get(id) ?? []);
        const oldAt = new Map(old.filter((o) => o.ts >= p.w).map((o) => [o.ts, o]));
        const upserts = p.hours
          .filter((h) => {
            const o = oldAt.get(h.ts);
            return !o || Math.abs(o.kwh - h.kwh) > 1e-9 || o.estimated !== (h.estimated ? 1 : 0);
          })
          .map((h) => ({ meter_id: id, ts: h.ts, kwh: h.kwh, estimated: h.estimated ? 1 : 0 }));
        const keep = new Set(p.hours.map((h) => h.ts));
        const gone = [...oldAt.keys()].filter((ts) => !keep.has(ts));
        if (full) {
          await trx.deleteFrom('energy_hours').where('meter_id', '=', id).execute();
          await trx.deleteFrom('energy_days').where('meter_id', '=', id).execute();
          await trx.deleteFrom('energy_events').where('meter_id', '=', id).execute();
        }
        for (let i = 0; i < gone.length; i += batch)
          await trx
            .deleteFrom('energy_hours')
            .where('meter_id', '=', id)
            .where('ts', 'in', gone.slice(i, i + batch))
            .execute();
        for (let i = 0; i < upserts.length; i += batch)
          await trx
            .insertInto('energy_hours')
            .values(upserts.slice(i, i + batch))
            .onConflict((oc) =>
              oc.columns(['meter_id', 'ts']).doUpdateSet((eb) => ({
                kwh: eb.ref('excluded.kwh'),
                estimated: eb.ref('excluded.estimated'),
              })),
            )
            .execute();
        if (!full) await trx.deleteFrom('energy_events').where('meter_id', '=', id).where('ts', '>=', p.w).execute();
        const events = p.events.map((e) => ({
          meter_id: id,
          ts: e.ts,
          rule: e.rule,
          from_value: e.from,
          to_value: e.to,
          kwh: e.kwh,
        }));
        for (let i = 0; i < events.length; i += batch)
          await trx
            .insertInto('energy_events')
            .values(events.slice(i, i + batch))
            .execute();

        // Days from the first one the window touches: kept hours before the window, new ones after.
        const dayFrom = Number.isFinite(p.w) ? dayOf(p.w) : Number.NEGATIVE_INFINITY;
        const sums = new Map<number, { kwh: number; estimated: number; hours: string[] }>();
        const add = (ts: number, kwh: number, estimated: boolean) => {
          const d = dayOf(ts);
          const s = sums.get(d) ?? { kwh: 0, estimated: 0, hours: [] };
          s.kwh += kwh;
          if (estimated) s.estimated = 1;
          s.hours[(ts - Math.ceil(d / hour) * hour) / hour] = String(kwh);
          sums.set(d, s);
        };
        for (const o of old) if (o.ts >= dayFrom && o.ts < p.w) add(o.ts, o.kwh, o.estimated === 1);
        for (const h of p.hours) add(h.ts, h.kwh, h.estimated);
        if (Number.isFinite(dayFrom))
          await trx.deleteFrom('energy_days').where('meter_id', '=', id).where('ts', '>=', dayFrom).execute();
        const dayRows = [...sums.entries()].map(([ts, s]) => ({
          meter_id: id,
          ts,
          kwh: s.kwh,
          estimated: s.estimated,
          hours: Array.from(s.hours, (v) => v ?? '').join(','),
        }));
        for (let i = 0; i < dayRows.length; i += batch)
          await trx
            .insertInto('energy_days')
            .values(dayRows.slice(i, i + batch))
            .execute();

        await trx
          .insertInto('energy_fill')
          .values({ meter_id: id, last_ts: p.head.ts, last_count: p.head.count, dirty_from: null })
          .onConflict((oc) => oc.column('meter_id').doUpdateSet({ last_ts: p.head.ts, last_count: p.head.count }))
          .execute();
        // Only the mark this run handled is cleared: a lower one written meanwhile stays.
        if (p.meter.dirty !== null)
          await trx
            .updateTable('energy_fill')
            .set({ dirty_from: null })
            .where('meter_id', '=', id)
            .where('dirty_from', '=', p.meter.dirty)
            .execute();
        watched.set(p.meter.item_id, { meterId: id, lastTs: p.head.ts });
      }
    });
  };

  /**
   * Daily rows are cut on the server's clock: when the zone they were cut on is not the zone now
   * (the server moved), every meter's energy is dropped once and recomputed from the roll-ups.
   */
  let zoneChecked = deps.zone === undefined;
  const checkZone = async () => {
    if (zoneChecked || deps.zone === undefined) return;
    const zone = deps.zone;
    const row = await k.selectFrom('module_settings').select('v').where('k', '=', 'energy_zone').executeTakeFirst();
    if (row?.v !== zone)
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
