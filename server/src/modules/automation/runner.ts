import { type ActionRun, runDetail } from '@sitewatch/contract/automation';
import type { FastifyRequest } from 'fastify';
import type { Kernel } from '../../area.ts';
import type { AuditLog } from '../logs/index.ts';
import type { ActionKind, CommandOutcome, RunContext } from './kinds.ts';
import { toAction, toRun } from './repository.ts';

export interface RunRequest {
  actionId: number;
  trigger: RunContext['trigger'];
  trigger_id: number;
  dryRun?: boolean;
  alarm?: RunContext['alarm'];
  /** The person who ran it by hand (audited as them); 'system' otherwise. */
  request?: FastifyRequest;
}

/**
 * Runs actions: every command through its kind, one after the other (a command that fails does not
 * stop the next: an air conditioner that does not answer must not keep the alarm lamp dark), and
 * logs the run with each command's result (`automation_runs`). A run that writes to a device is in
 * the operation log too, as its user or as `system`.
 */
export const createRunner = (deps: { kernel: Kernel; kinds: () => ActionKind[]; audit: AuditLog }) => {
  const k = deps.kernel.db.kysely;
  const inFlight = new Set<Promise<unknown>>();
  const kindOf = (kind: string) => deps.kinds().find((x) => x.kind === kind);

  const runNow = async (req: RunRequest): Promise<ActionRun | null> => {
    const row = await k.selectFrom('automation_actions').selectAll().where('id', '=', req.actionId).executeTakeFirst();
    if (!row) return null;
    const action = toAction(row);
    const now = Math.floor(deps.kernel.clock() / 1000);
    const context: RunContext = {
      trigger: req.trigger,
      trigger_id: req.trigger_id,
      site: action.device_group_id,
      action_name: action.name,
      alarm: req.alarm,
      now,
    };
    const results: Array<CommandOutcome & { kind: string; description: string }> = [];
    let writes = false;
    for (const command of action.commands) {
      const kind = kindOf(command.kind);
      if (!kind) {
        results.push({ kind: command.kind, description: command.kind, ok: false, detail: runDetail('unknownKind') });
        continue;
      }
      writes ||= kind.writesDevice;
      let description = command.kind;
      let outcome: CommandOutcome;
      try {
        description = await kind.describe(command.params);
        outcome = req.dryRun ? await kind.dryRun(command.params, context) : await kind.run(command.params, context);
      } catch (err) {
        outcome = { ok: false, detail: err instanceof Error ? err.message.slice(0, 200) : String(err) };
      }
      results.push({ kind: command.kind, description, ...outcome });
    }
    const ok = results.every((r) => r.ok);
    const userName = req.request?.principal?.user_name ?? 'system';
    const values = {
      action_id: action.id,
      action_name: action.name,
      device_group_id: action.device_group_id,
      trigger: req.trigger,
      trigger_id: req.trigger_id,
      dry_run: req.dryRun ? 1 : 0,
      ok: ok ? 1 : 0,
      time: now,
      user_name: userName.slice(0, 64),
      results: JSON.stringify(results),
    };
    const inserted = await k.insertInto('automation_runs').values(values).returning('id').executeTakeFirstOrThrow();
    if (writes && !req.dryRun) {
      await deps.audit.write(
        {
          module: req.request ? 'pub/remote_control' : 'automation',
          action: 'run',
          target: String(action.id),
          success: ok,
          detail: `${req.trigger}:${req.trigger_id}`,
          ...(req.request ? {} : { user_name: 'system' }),
        },
        req.request,
      );
    }
    // The row as written (no read back: a thousand rules firing at once are a thousand runs).
    return toRun({ id: inserted.id, ...values });
  };

  return {
    /** Runs an action now and answers its logged run (null: no such action). */
    run: runNow,
    /** Starts a run from an event or a timer; `settled` waits for it. */
    start(req: RunRequest): void {
      const p = runNow(req).catch((err) => deps.kernel.log.error({ err, action: req.actionId }, 'action run failed'));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    },
    async settled(): Promise<boolean> {
      if (inFlight.size === 0) return false;
      await Promise.allSettled([...inFlight]);
      return true;
    },
  };
};
export type Runner = ReturnType<typeof createRunner>;
