import type { Transaction } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';
import type { MeterPlan } from './fill-read.ts';

const hour = 3600;
const batch = 500;

type Stored = { ts: number; kwh: number; estimated: number };

/**
 * The writing side of a recomputation (fill.ts): each meter's hours from its plan's `w` on, only
 * those that changed; its events from `w` on; its days from the first one `w` touches (kept hours
 * before `w`, new ones after); its energy_fill row. One transaction for a group of meters.
 */
export const createFillWriter = (db: Db, dayOf: (ts: number) => number) => {
  const k = db.kysely;

  /** The stored hours of the plans' meters, from the first day their windows touch. */
  const storedOf = async (plans: MeterPlan[]) => {
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
    const by = new Map<number, Stored[]>();
    for (const s of stored) {
      const row = { ts: Number(s.ts), kwh: s.kwh, estimated: s.estimated };
      const list = by.get(s.meter_id);
      if (list) list.push(row);
      else by.set(s.meter_id, [row]);
    }
    return by;
  };

  const writeHours = async (trx: Transaction<Database>, p: MeterPlan, old: Stored[]) => {
    const id = p.meter.id;
    const oldAt = new Map(old.filter((o) => o.ts >= p.w).map((o) => [o.ts, o]));
    const upserts = p.hours
      .filter((h) => {
        const o = oldAt.get(h.ts);
        return !o || Math.abs(o.kwh - h.kwh) > 1e-9 || o.estimated !== (h.estimated ? 1 : 0);
      })
      .map((h) => ({ meter_id: id, ts: h.ts, kwh: h.kwh, estimated: h.estimated ? 1 : 0 }));
    const keep = new Set(p.hours.map((h) => h.ts));
    const gone = [...oldAt.keys()].filter((ts) => !keep.has(ts));
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
  };

  const writeEvents = async (trx: Transaction<Database>, p: MeterPlan) => {
    const id = p.meter.id;
    if (Number.isFinite(p.w))
      await trx.deleteFrom('energy_events').where('meter_id', '=', id).where('ts', '>=', p.w).execute();
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
  };

  const writeDays = async (trx: Transaction<Database>, p: MeterPlan, old: Stored[]) => {
    const id = p.meter.id;
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
  };

  /** Writes the plans of a group of meters in one transaction. */
  return async (plans: MeterPlan[]) => {
    if (plans.length === 0) return;
    const stored = await storedOf(plans);
    await k.transaction().execute(async (trx) => {
      for (const p of plans) {
        const id = p.meter.id;
        const full = !Number.isFinite(p.w);
        const old = full ? [] : (stored.get(id) ?? []);
        if (full)
          for (const table of ['energy_hours', 'energy_days', 'energy_events'] as const)
            await trx.deleteFrom(table).where('meter_id', '=', id).execute();
        await writeHours(trx, p, old);
        await writeEvents(trx, p);
        await writeDays(trx, p, old);
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
      }
    });
  };
};
