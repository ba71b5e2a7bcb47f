import { type MakeContext, unique } from './estate-rows.ts';
import type { Example } from './route-examples.ts';
import type { Side } from './site-estate.ts';

/**
 * The working calls of automation's routes (issue 32; docs/automation.md), beside
 * route-examples.ts's catalogue, which spreads them in. An action writes the side's second item; a
 * rule reads its first (a rule never writes what it reads: the loop guard).
 */
export const automationAction = (s: Side, name: string) => ({
  name,
  device_group_id: s.site,
  preset: 'switch',
  commands: [{ kind: 'item.write', command: 'on', params: { item_id: s.item2, value: 1 } }],
});
export const automationRule = (s: Side, name: string) => ({
  name,
  device_group_id: s.site,
  conditions: [{ item_id: s.item, op: 'gt', value: 28 }],
  action_id: s.rows.automation_actions,
});
export const automationTask = (s: Side, name: string) => ({
  name,
  device_group_id: s.site,
  action_id: s.rows.automation_actions,
  repeat: 'cron',
  cron: '0 3 * * *',
});

export const automationRoutes: Record<string, Example> = {
  'POST /api/v1/setting/actions': { table: 'automation_actions', body: (s) => automationAction(s, `${s.label}action`) },
  'PUT /api/v1/setting/actions/:id': {
    table: 'automation_actions',
    body: (s) => automationAction(s, `${s.label}action edited`),
  },
  'DELETE /api/v1/setting/actions/:id': { table: 'automation_actions', fresh: true },
  'GET /api/v1/setting/motion_management/:id': { table: 'automation_actions' },
  'POST /api/v1/pub/remote_control': {
    table: 'automation_actions',
    body: (s) => ({ action_id: s.rows.automation_actions, dry_run: true }),
  },
  'POST /api/v1/setting/auto': { table: 'automation_linkages', body: (s) => automationRule(s, `${s.label}rule`) },
  'GET /api/v1/setting/auto/:id': { table: 'automation_linkages' },
  'PUT /api/v1/setting/auto/:id': {
    table: 'automation_linkages',
    body: (s) => automationRule(s, `${s.label}rule edited`),
  },
  'DELETE /api/v1/setting/auto/:id': { table: 'automation_linkages', fresh: true },
  'POST /api/v1/setting/auto/update_state': {
    table: 'automation_linkages',
    body: (s) => ({ id: s.rows.automation_linkages, enable: false }),
  },
  'POST /api/v1/setting/cron': { table: 'automation_tasks', body: (s) => automationTask(s, `${s.label}task`) },
  'PUT /api/v1/setting/cron/:id': {
    table: 'automation_tasks',
    body: (s) => automationTask(s, `${s.label}task edited`),
  },
  'DELETE /api/v1/setting/cron/:id': { table: 'automation_tasks', fresh: true },
};

/** The automation area's rows made for the generated suites (estate-rows.ts `makers`). */
export const automationMakers: Record<string, (c: MakeContext, s: Side) => Promise<number | undefined>> = {
  automation_actions: async ({ api }, s) =>
    (await api('POST', 'setting/actions', automationAction(s, unique(`${s.label}action`)))).id,
  automation_linkages: async ({ api }, s) =>
    (await api('POST', 'setting/auto', automationRule(s, unique(`${s.label}rule`)))).id,
  automation_tasks: async ({ api }, s) =>
    (await api('POST', 'setting/cron', automationTask(s, unique(`${s.label}task`)))).id,
  automation_runs: async ({ api }, s) =>
    (await api('POST', 'pub/remote_control', { action_id: s.rows.automation_actions, dry_run: true })).id,
  automation_task_log: async ({ db, estate }, s) => {
    const { id } = await db.kysely
      .insertInto('automation_task_log')
      .values({
        task_id: s.rows.automation_tasks ?? 0,
        task_name: `${s.label}task`,
        device_group_id: s.site,
        time: estate.now,
        ok: 1,
        run_id: 0,
        detail: `${s.label}run`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  },
};
