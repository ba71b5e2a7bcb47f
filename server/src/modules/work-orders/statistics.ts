import type { monthQuery, statisticsQuery } from '@sitewatch/contract/work-orders';
import { priorityNames, workOrderState, workOrderStates } from '@sitewatch/contract/work-orders';
import type { z } from 'zod';
import type { WorkOrderRepository } from './repository.ts';
import { type Order, visible } from './rows.ts';
import type { Actor } from './service.ts';

const day = 86_400;

/** The statistics pages (002 §3): counts by state, priority and handler, times to receive and complete, by month and by day. */
export const createWorkOrderStatistics = ({ repo, now }: { repo: WorkOrderRepository; now: () => number }) => {
  /** Orders created in a range (default: all), for the statistics. */
  const inRange = async (q: z.infer<typeof statisticsQuery>, actor: Actor, sites: number[] | null) => {
    let query = repo.orders();
    if (q.start !== undefined) query = query.where('o.created_at', '>=', q.start);
    if (q.end !== undefined) query = query.where('o.created_at', '<', q.end);
    return (await query.execute()).filter((o) => visible(o, actor.id, sites));
  };
  const counts = <T>(rows: T[], key: (r: T) => number, name: (k: number, r: T) => string) => {
    const m = new Map<number, { key: number; name: string; count: number }>();
    for (const r of rows) {
      const k = key(r);
      const e = m.get(k) ?? { key: k, name: name(k, r), count: 0 };
      e.count += 1;
      m.set(k, e);
    }
    return [...m.values()].sort((a, b) => a.key - b.key);
  };
  const avg = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

  const statistics = async (q: z.infer<typeof statisticsQuery>, actor: Actor, sites: number[] | null) => {
    const rows = await inRange(q, actor, sites);
    const at = now();
    const stateNames = Object.fromEntries(Object.entries(workOrderState).map(([k, v]) => [v, k]));
    return {
      total: rows.length,
      overdue: rows.filter((o) => (o.completed_at === null ? at : Number(o.completed_at)) > Number(o.deadline)).length,
      by_state: workOrderStates.map((s) => ({
        key: s,
        name: stateNames[s] ?? '',
        count: rows.filter((o) => o.state === s).length,
      })),
      by_priority: priorityNames.map((n, i) => ({
        key: i + 1,
        name: n,
        count: rows.filter((o) => o.priority === i + 1).length,
      })),
      by_handler: counts(
        rows,
        (o) => o.handler_id,
        (_k, o) => o.handler_name ?? '',
      ),
      avg_receive_seconds: avg(
        rows.filter((o) => o.received_at !== null).map((o) => Number(o.received_at) - Number(o.created_at)),
      ),
      avg_complete_seconds: avg(
        rows.filter((o) => o.completed_at !== null).map((o) => Number(o.completed_at) - Number(o.created_at)),
      ),
    };
  };
  /** Buckets by UTC month or day: created in it, and completed in it. */
  const series = (rows: Order[], bucket: (sec: number) => string, labels: string[]) =>
    labels.map((label) => ({
      label,
      created: rows.filter((o) => bucket(Number(o.created_at)) === label).length,
      completed: rows.filter((o) => o.completed_at !== null && bucket(Number(o.completed_at)) === label).length,
    }));
  const month = async (q: z.infer<typeof monthQuery>, actor: Actor, sites: number[] | null) => {
    const start = Date.UTC(q.year, 0, 1) / 1000;
    const end = Date.UTC(q.year + 1, 0, 1) / 1000;
    const rows = await inRange({ start, end, t: undefined }, actor, sites);
    const labels = Array.from({ length: 12 }, (_, i) => `${q.year}-${String(i + 1).padStart(2, '0')}`);
    return series(rows, (s) => new Date(s * 1000).toISOString().slice(0, 7), labels);
  };
  const time = async (q: z.infer<typeof statisticsQuery>, actor: Actor, sites: number[] | null) => {
    const end = q.end ?? now();
    const start = Math.max(q.start ?? end - 30 * day, end - 366 * day);
    const rows = await inRange({ start, end, t: undefined }, actor, sites);
    const labels: string[] = [];
    for (let d = Math.floor(start / day) * day; d < end; d += day)
      labels.push(new Date(d * 1000).toISOString().slice(0, 10));
    return series(rows, (s) => new Date(s * 1000).toISOString().slice(0, 10), labels);
  };

  return { statistics, month, time };
};
