import type {
  ActionCommand,
  ActionPreset,
  ActionRun,
  CronRepeat,
  CronRow,
  LinkageCondition,
  LinkageRow,
} from '@sitewatch/contract/automation';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { AutomationTables } from '../../db/schema-automation.ts';

type ActionRecord = Selectable<AutomationTables['automation_actions']>;
type LinkageRecord = Selectable<AutomationTables['automation_linkages']>;
type TaskRecord = Selectable<AutomationTables['automation_tasks']>;
type RunRecord = Selectable<AutomationTables['automation_runs']>;

const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export interface StoredAction {
  id: number;
  name: string;
  device_group_id: number;
  preset: ActionPreset;
  commands: ActionCommand[];
  remark: string;
  updated_at: number;
}
export const toAction = (r: ActionRecord): StoredAction => ({
  id: r.id,
  name: r.name,
  device_group_id: r.device_group_id,
  preset: r.preset as ActionPreset,
  commands: json<ActionCommand[]>(r.commands, []),
  remark: r.remark,
  updated_at: Number(r.updated_at),
});

export type StoredLinkage = Omit<LinkageRow, 'active' | 'item_names'>;
export const toLinkage = (r: LinkageRecord): StoredLinkage => ({
  id: r.id,
  name: r.name,
  device_group_id: r.device_group_id,
  enable: r.enable === 1,
  match: r.match === 'any' ? 'any' : 'all',
  conditions: json<LinkageCondition[]>(r.conditions, []),
  hold_seconds: r.hold_seconds,
  period_id: r.period_id,
  action_id: r.action_id,
  recovery_action_id: r.recovery_action_id,
  last_fired: r.last_fired === null ? null : Number(r.last_fired),
  updated_at: Number(r.updated_at),
});

export const toTask = (r: TaskRecord): CronRow => ({
  id: r.id,
  name: r.name,
  device_group_id: r.device_group_id,
  enable: r.enable === 1,
  action_id: r.action_id,
  repeat: r.repeat as CronRepeat,
  start: Number(r.start),
  cron: r.cron,
  next_run: r.next_run === null ? null : Number(r.next_run),
  last_run: r.last_run === null ? null : Number(r.last_run),
  updated_at: Number(r.updated_at),
});

export const toRun = (r: RunRecord): ActionRun => ({
  id: r.id,
  action_id: r.action_id,
  action_name: r.action_name,
  device_group_id: r.device_group_id,
  trigger: r.trigger,
  trigger_id: r.trigger_id,
  dry_run: r.dry_run === 1,
  ok: r.ok === 1,
  time: Number(r.time),
  user_name: r.user_name,
  results: json(r.results, []),
});

/** Rows of the granted sites (null: every site). */
type Sites = readonly number[] | null;
type Listed = 'automation_actions' | 'automation_linkages' | 'automation_tasks';

/** The queries of automation's tables. */
export const createAutomationRepository = (db: Db) => {
  const k = db.kysely;
  const page = async <T extends Listed>(
    table: T,
    query: { page: number; limit: number; device_group_id?: number | undefined; name?: string | undefined },
    sites: Sites,
  ) => {
    // biome-ignore lint/suspicious/noExplicitAny: the three tables share the filtered columns
    let q = k.selectFrom(table as any) as any;
    if (sites !== null) q = q.where('device_group_id', 'in', sites.length ? [...sites] : [-1]);
    if (query.device_group_id) q = q.where('device_group_id', '=', query.device_group_id);
    if (query.name) q = q.where('name', 'like', `%${query.name.replace(/[%_\\]/g, '')}%`);
    const total = await q
      .select((eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const rows = await q
      .selectAll()
      .orderBy('id')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    return { total: Number(total?.n ?? 0), rows: rows as Selectable<AutomationTables[T]>[] };
  };
  return {
    page,
    action: (id: number) => k.selectFrom('automation_actions').selectAll().where('id', '=', id).executeTakeFirst(),
    linkage: (id: number) => k.selectFrom('automation_linkages').selectAll().where('id', '=', id).executeTakeFirst(),
    task: (id: number) => k.selectFrom('automation_tasks').selectAll().where('id', '=', id).executeTakeFirst(),
    allLinkages: () => k.selectFrom('automation_linkages').selectAll().execute(),
    /** Who uses an action: linkage rules, timed tasks and items (overrun or recovery). */
    async actionUsers(id: number): Promise<number> {
      const [l, t, i] = await Promise.all([
        k
          .selectFrom('automation_linkages')
          .select('id')
          .where((eb) => eb.or([eb('action_id', '=', id), eb('recovery_action_id', '=', id)]))
          .execute(),
        k.selectFrom('automation_tasks').select('id').where('action_id', '=', id).execute(),
        k
          .selectFrom('items')
          .select('id')
          .where((eb) =>
            eb.or([
              eb('overrun_action_id', '=', id),
              eb('recovery_action_id', '=', id),
              eb('confirm_action_id', '=', id),
            ]),
          )
          .execute(),
      ]);
      return l.length + t.length + i.length;
    },
    async runs(actionId: number, query: { page: number; limit: number }) {
      const total = await k
        .selectFrom('automation_runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('action_id', '=', actionId)
        .executeTakeFirst();
      const rows = await k
        .selectFrom('automation_runs')
        .selectAll()
        .where('action_id', '=', actionId)
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute();
      return { total: Number(total?.n ?? 0), data: rows.map(toRun) };
    },
    async taskLog(query: { page: number; limit: number; task_id?: number | undefined }, sites: Sites) {
      let q = k.selectFrom('automation_task_log');
      if (sites !== null) q = q.where('device_group_id', 'in', sites.length ? [...sites] : [-1]);
      if (query.task_id) q = q.where('task_id', '=', query.task_id);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q
        .selectAll()
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute();
      return {
        total: Number(total?.n ?? 0),
        data: rows.map((r) => ({ ...r, time: Number(r.time), ok: r.ok === 1 })),
      };
    },
  };
};
export type AutomationRepository = ReturnType<typeof createAutomationRepository>;
