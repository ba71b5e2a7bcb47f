import {
  type actionBody,
  type CronRow,
  type cronBody,
  type LinkageRow,
  type linkageBody,
  automationMessages as m,
} from '@sitewatch/contract/automation';
import type { z } from 'zod';
import type { Kernel } from '../../area.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import { createAutomationChecks } from './checks.ts';
import type { ActionKind } from './kinds.ts';
import type { LinkageEngine } from './linkage.ts';
import { createAutomationRepository, toAction, toLinkage, toTask } from './repository.ts';
import { nextTaskRun, type TaskScheduler } from './tasks.ts';

type ActionBody = z.output<typeof actionBody>;
type LinkageBody = z.output<typeof linkageBody>;
type CronBody = z.output<typeof cronBody>;
type Page = { page: number; limit: number; device_group_id?: number | undefined; name?: string | undefined };

/**
 * Actions, linkage rules and timed tasks (docs/automation.md): every write is checked whole before
 * anything is stored (a refused save changes nothing), rows of sites the caller is not granted are
 * not found, and the engines re-read what changed.
 */
export const createAutomationService = (deps: {
  kernel: Kernel;
  kinds: () => ActionKind[];
  linkage: LinkageEngine;
  tasks: TaskScheduler;
}) => {
  const k = deps.kernel.db.kysely;
  const repo = createAutomationRepository(deps.kernel.db);
  const now = () => Math.floor(deps.kernel.clock() / 1000);
  const kindOf = (kind: string) => deps.kinds().find((x) => x.kind === kind);

  const { actionOf, describe, checkAction, checkLinkage, checkTask } = createAutomationChecks({ ...deps, repo });

  /** Rows with each condition's item named ("device / item"), for the list. */
  const linkageRows = async (records: Parameters<typeof toLinkage>[0][]): Promise<LinkageRow[]> => {
    const rules = records.map(toLinkage);
    const ids = [...new Set(rules.flatMap((x) => x.conditions.map((c) => c.item_id)))];
    const names = new Map<number, string>();
    if (ids.length > 0) {
      const items = await k
        .selectFrom('items')
        .innerJoin('devices', 'devices.id', 'items.device_id')
        .select(['items.id', 'items.name', 'devices.name as device_name'])
        .where('items.id', 'in', ids)
        .execute();
      for (const i of items) names.set(i.id, `${i.device_name} / ${i.name}`);
    }
    return rules.map((x) => ({
      ...x,
      item_names: x.conditions.map((c) => names.get(c.item_id) ?? ''),
      active: deps.linkage.isActive(x.id),
    }));
  };
  const linkageRow = async (r: Parameters<typeof toLinkage>[0]) => (await linkageRows([r]))[0]!;
  const linkageOf = async (id: number, scope: SiteScope) => {
    const row = await repo.linkage(id);
    if (!row || !scope.has(row.device_group_id)) throw notFound();
    return row;
  };
  const taskOf = async (id: number, scope: SiteScope) => {
    const row = await repo.task(id);
    if (!row || !scope.has(row.device_group_id)) throw notFound();
    return row;
  };
  const nextOf = (body: CronBody) => {
    const next = nextTaskRun(body, deps.kernel.clock() - 1);
    return body.enable && next !== null ? Math.floor(next / 1000) : null;
  };
  const linkageValues = (body: LinkageBody) => ({
    name: body.name,
    device_group_id: body.device_group_id,
    enable: body.enable ? 1 : 0,
    match: body.match,
    conditions: JSON.stringify(body.conditions),
    hold_seconds: body.hold_seconds,
    period_id: body.period_id,
    action_id: body.action_id,
    recovery_action_id: body.recovery_action_id,
    updated_at: now(),
  });
  const taskValues = (body: CronBody) => ({
    name: body.name,
    device_group_id: body.device_group_id,
    enable: body.enable ? 1 : 0,
    action_id: body.action_id,
    repeat: body.repeat,
    start: body.start,
    cron: body.cron,
    next_run: nextOf(body),
    updated_at: now(),
  });

  return {
    kinds: () =>
      deps.kinds().map((x) => ({ kind: x.kind, name_key: x.nameKey, fields: x.fields, writes_device: x.writesDevice })),
    /** Whether any command of the body writes to a device (the route asks for the control function). */
    writesDevice: (body: { commands: { kind: string }[] }) => body.commands.some((c) => kindOf(c.kind)?.writesDevice),
    actionWritesDevice: async (id: number) => {
      const row = await repo.action(id);
      return row ? toAction(row).commands.some((c) => kindOf(c.kind)?.writesDevice) : false;
    },
    async actions(query: Page, scope: SiteScope) {
      const { total, rows } = await repo.page('automation_actions', query, scope.sites);
      return { total, data: await Promise.all(rows.map((r) => describe(toAction(r)))) };
    },
    async createAction(body: ActionBody, scope: SiteScope) {
      await checkAction(body, scope);
      const row = await k
        .insertInto('automation_actions')
        .values({ ...body, commands: JSON.stringify(body.commands), updated_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return describe(await actionOf(row.id, scope));
    },
    async updateAction(id: number, body: ActionBody, scope: SiteScope) {
      await actionOf(id, scope);
      await checkAction(body, scope);
      await k
        .updateTable('automation_actions')
        .set({ ...body, commands: JSON.stringify(body.commands), updated_at: now() })
        .where('id', '=', id)
        .execute();
      return describe(await actionOf(id, scope));
    },
    async deleteAction(id: number, scope: SiteScope) {
      await actionOf(id, scope);
      if ((await repo.actionUsers(id)) > 0) throw conflict(m.actionInUse);
      await k.deleteFrom('automation_runs').where('action_id', '=', id).execute();
      await k.deleteFrom('automation_actions').where('id', '=', id).execute();
      return null;
    },
    async runs(id: number, query: { page: number; limit: number }, scope: SiteScope) {
      await actionOf(id, scope);
      return repo.runs(id, query);
    },
    actionOf,
    async linkages(query: Page, scope: SiteScope) {
      const { total, rows } = await repo.page('automation_linkages', query, scope.sites);
      return { total, data: await linkageRows(rows) };
    },
    linkage: async (id: number, scope: SiteScope) => linkageRow(await linkageOf(id, scope)),
    async createLinkage(body: LinkageBody, scope: SiteScope) {
      await checkLinkage(body, scope);
      const row = await k
        .insertInto('automation_linkages')
        .values({ ...linkageValues(body), last_fired: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await deps.linkage.reload();
      return linkageRow(await linkageOf(row.id, scope));
    },
    async updateLinkage(id: number, body: LinkageBody, scope: SiteScope) {
      await linkageOf(id, scope);
      await checkLinkage(body, scope);
      await k.updateTable('automation_linkages').set(linkageValues(body)).where('id', '=', id).execute();
      await deps.linkage.reload();
      return linkageRow(await linkageOf(id, scope));
    },
    async setLinkageState(id: number, enable: boolean, scope: SiteScope) {
      await linkageOf(id, scope);
      await k
        .updateTable('automation_linkages')
        .set({ enable: enable ? 1 : 0, updated_at: now() })
        .where('id', '=', id)
        .execute();
      await deps.linkage.reload();
      return linkageRow(await linkageOf(id, scope));
    },
    async deleteLinkage(id: number, scope: SiteScope) {
      await linkageOf(id, scope);
      await k.deleteFrom('automation_linkages').where('id', '=', id).execute();
      await deps.linkage.reload();
      return null;
    },
    async tasks(query: Page, scope: SiteScope) {
      const { total, rows } = await repo.page('automation_tasks', query, scope.sites);
      return { total, data: rows.map(toTask) };
    },
    async createTask(body: CronBody, scope: SiteScope): Promise<CronRow> {
      await checkTask(body, scope);
      const row = await k
        .insertInto('automation_tasks')
        .values({ ...taskValues(body), last_run: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await deps.tasks.reschedule();
      return toTask(await taskOf(row.id, scope));
    },
    async updateTask(id: number, body: CronBody, scope: SiteScope): Promise<CronRow> {
      await taskOf(id, scope);
      await checkTask(body, scope);
      await k.updateTable('automation_tasks').set(taskValues(body)).where('id', '=', id).execute();
      await deps.tasks.reschedule();
      return toTask(await taskOf(id, scope));
    },
    async deleteTask(id: number, scope: SiteScope) {
      await taskOf(id, scope);
      await k.deleteFrom('automation_task_log').where('task_id', '=', id).execute();
      await k.deleteFrom('automation_tasks').where('id', '=', id).execute();
      await deps.tasks.reschedule();
      return null;
    },
    taskLog: (query: { page: number; limit: number; task_id?: number | undefined }, scope: SiteScope) =>
      repo.taskLog(query, scope.sites),
  };
};
export type AutomationService = ReturnType<typeof createAutomationService>;
