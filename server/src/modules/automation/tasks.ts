import { type CronRepeat, runDetail, runDetailsText } from '@sitewatch/contract/automation';
import { Cron } from 'croner';
import type { Kernel } from '../../area.ts';
import type { Timer } from '../../clock/timers.ts';
import { nextRun, type RepeatRule } from '../../schedule/repeat.ts';
import { scheduleZone } from '../../schedule/zone.ts';
import type { Runner } from './runner.ts';

/** Whether a cron expression parses (five or six fields; croner's syntax). */
export const cronValid = (expression: string): boolean => {
  try {
    new Cron(expression, { paused: true, timezone: scheduleZone() });
    return true;
  } catch {
    return false;
  }
};

/**
 * The next run of a task strictly after `afterMs` (epoch ms), or null when it has none (a `once`
 * past). Repeat options count from `start` in the server's zone (server/src/schedule/repeat.ts);
 * a cron expression by croner in the same zone.
 */
export const nextTaskRun = (task: { repeat: CronRepeat; start: number; cron: string }, afterMs: number) => {
  if (task.repeat === 'cron') {
    try {
      const next = new Cron(task.cron, { paused: true, timezone: scheduleZone() }).nextRun(new Date(afterMs));
      return next ? next.getTime() : null;
    } catch {
      return null;
    }
  }
  return nextRun(task.start * 1000, task.repeat as RepeatRule, afterMs, scheduleZone());
};

/**
 * Timed tasks (docs/automation.md, "Timed tasks"): one timer on the kernel's clock, armed for the
 * earliest stored `next_run`. When it fires, each due task is claimed by moving its `next_run` on
 * in one conditional update (only one claimer sees the old value), then its action runs and the run
 * is logged. A restart reads the stored times: a task overdue while the server was down runs once
 * (missed runs collapse into that one), and a claimed run never runs again.
 */
export const createTaskScheduler = (deps: { kernel: Kernel; runner: Runner }) => {
  const { kernel } = deps;
  const k = kernel.db.kysely;
  let timer: Timer | null = null;
  let stopped = true;
  let running: Promise<void> | null = null;

  const arm = async () => {
    if (timer) kernel.timers.clearTimeout(timer);
    timer = null;
    if (stopped) return;
    const first = await k
      .selectFrom('automation_tasks')
      .select((eb) => eb.fn.min('next_run').as('at'))
      .where('enable', '=', 1)
      .where('next_run', 'is not', null)
      .executeTakeFirst();
    if (first?.at === null || first?.at === undefined || stopped) return;
    const wait = Math.max(0, Number(first.at) * 1000 - kernel.clock());
    // Long waits are re-armed (a 32-bit timer) and follow a clock set forward.
    timer = kernel.timers.setTimeout(() => void tick(), Math.min(wait, 3_600_000));
    timer.unref();
  };

  const runDue = async () => {
    const now = kernel.clock();
    const due = await k
      .selectFrom('automation_tasks')
      .selectAll()
      .where('enable', '=', 1)
      .where('next_run', 'is not', null)
      .where('next_run', '<=', Math.floor(now / 1000))
      .orderBy('next_run')
      .execute();
    for (const task of due) {
      const next = nextTaskRun(
        { repeat: task.repeat as CronRepeat, start: Number(task.start), cron: task.cron },
        Math.max(now, Number(task.next_run) * 1000),
      );
      const claimed = await k
        .updateTable('automation_tasks')
        .set({ next_run: next === null ? null : Math.floor(next / 1000), last_run: Math.floor(now / 1000) })
        .where('id', '=', task.id)
        .where('next_run', '=', task.next_run)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      let detail = '';
      let ok = false;
      let runId = 0;
      try {
        const run = await deps.runner.run({ actionId: task.action_id, trigger: 'timer', trigger_id: task.id });
        ok = run?.ok ?? false;
        runId = run?.id ?? 0;
        detail = run ? runDetailsText(run.results.map((r) => r.detail)) : runDetail('actionMissing');
      } catch (err) {
        detail = err instanceof Error ? err.message : String(err);
      }
      await k
        .insertInto('automation_task_log')
        .values({
          task_id: task.id,
          task_name: task.name,
          device_group_id: task.device_group_id,
          time: Math.floor(now / 1000),
          ok: ok ? 1 : 0,
          run_id: runId,
          detail: detail.slice(0, 500),
        })
        .execute();
    }
  };

  const tick = async () => {
    timer = null;
    const work = (running ?? Promise.resolve())
      .then(runDue)
      .catch((err) => kernel.log.error({ err }, 'timed tasks failed'))
      .then(arm)
      .catch((err) => kernel.log.error({ err }, 'timed tasks not armed'));
    running = work;
    await work;
    if (running === work) running = null;
  };

  return {
    async start() {
      stopped = false;
      await tick();
    },
    /** After a task was saved: looks again for the earliest run. */
    reschedule: () => (stopped ? Promise.resolve() : arm()),
    stop() {
      stopped = true;
      if (timer) kernel.timers.clearTimeout(timer);
      timer = null;
    },
    async settled(): Promise<boolean> {
      if (!running) return false;
      await running;
      return true;
    },
  };
};
export type TaskScheduler = ReturnType<typeof createTaskScheduler>;
