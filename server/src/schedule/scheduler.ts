import { realTimers, type Timer, type Timers } from '../clock/timers.ts';
import type { Db } from '../db/kysely.ts';
import { nextRun, type RepeatRule } from './repeat.ts';

export interface SchedulerOptions {
  db: Db;
  /** Epoch ms. */
  clock: () => number;
  timers?: Timers;
  /** Zone of the wall-clock rules. */
  zone: string;
  /** How often due tasks are looked for (ms); the tick itself is also callable. */
  intervalMs?: number;
  log?: { error(obj: object, msg: string): void };
}

export type TaskHandler = (refId: number, at: number) => Promise<void>;

/**
 * Runs scheduled tasks from the `scheduled_tasks` table. The next run is stored: a tick claims a
 * due task by moving its next run forward in one conditional update (only the tick that sees the
 * old value wins), then runs it. A restart finds the stored time and runs an overdue task once
 * (runs missed while stopped collapse into that one); a run is never repeated (docs/schedules.md).
 */
export const createScheduler = (options: SchedulerOptions) => {
  const k = options.db.kysely;
  const handlers = new Map<string, TaskHandler>();
  const timers = options.timers ?? realTimers;
  let timer: Timer | null = null;
  let first: Timer | null = null;
  let ticking: Promise<number> | null = null;
  const sec = (ms: number) => Math.floor(ms / 1000);

  const tickOnce = async (): Promise<number> => {
    const now = options.clock();
    const due = await k
      .selectFrom('scheduled_tasks')
      .selectAll()
      .where('next_run', 'is not', null)
      .where('next_run', '<=', sec(now))
      .orderBy('next_run')
      .execute();
    let ran = 0;
    for (const task of due) {
      const handler = handlers.get(task.kind);
      if (!handler) continue;
      const next = nextRun(task.anchor * 1000, task.rule as RepeatRule, now, options.zone);
      const claimed = await k
        .updateTable('scheduled_tasks')
        .set({ next_run: next === null ? null : sec(next), last_run: sec(now), runs: task.runs + 1 })
        .where('id', '=', task.id)
        .where('next_run', '=', task.next_run)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      try {
        await handler(task.ref_id, sec(now));
        ran++;
      } catch (err) {
        options.log?.error({ err, task: task.id }, 'scheduled task failed');
      }
    }
    return ran;
  };

  return {
    on(kind: string, handler: TaskHandler) {
      handlers.set(kind, handler);
    },
    /** Creates or replaces the task of (kind, ref): its first run is the rule's next run after now. */
    async put(kind: string, refId: number, rule: RepeatRule, anchorSec: number) {
      const next = nextRun(anchorSec * 1000, rule, options.clock() - 1, options.zone);
      const row = { rule, anchor: anchorSec, next_run: next === null ? null : sec(next) };
      const found = await k
        .updateTable('scheduled_tasks')
        .set(row)
        .where('kind', '=', kind)
        .where('ref_id', '=', refId)
        .executeTakeFirst();
      if (Number(found.numUpdatedRows) === 0)
        await k
          .insertInto('scheduled_tasks')
          .values({ kind, ref_id: refId, last_run: null, ...row })
          .execute();
    },
    async remove(kind: string, refId: number) {
      await k.deleteFrom('scheduled_tasks').where('kind', '=', kind).where('ref_id', '=', refId).execute();
    },
    async task(kind: string, refId: number) {
      return k
        .selectFrom('scheduled_tasks')
        .selectAll()
        .where('kind', '=', kind)
        .where('ref_id', '=', refId)
        .executeTakeFirst();
    },
    /** Runs what is due now; one tick at a time. Returns the runs made. */
    async tick(): Promise<number> {
      while (ticking) await ticking;
      ticking = tickOnce();
      try {
        return await ticking;
      } finally {
        ticking = null;
      }
    },
    /** Whether start() made it tick on its own. */
    running: () => timer !== null,
    start() {
      if (timer) return;
      const tick = () => this.tick().catch(() => 0);
      timer = timers.setInterval(tick, options.intervalMs ?? 15_000);
      timer.unref();
      // The first look at once, as a timer too: its work counts as the timers' (settled()).
      first = timers.setTimeout(tick, 0);
      first.unref();
    },
    async stop() {
      timers.clearInterval(timer);
      timers.clearTimeout(first);
      timer = null;
      while (ticking) await ticking.catch(() => {});
    },
  };
};
export type Scheduler = ReturnType<typeof createScheduler>;
