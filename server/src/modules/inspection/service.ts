import {
  type InspectedItem,
  type InspectionPlan,
  type InspectionReport,
  type inspectionReportSettings,
  type manualInput,
  type patrolSettings,
  type planInput,
  reportStatus,
} from '@sitewatch/contract/inspection';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { z } from 'zod';
import { readIdList } from '../../db/json.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { RepeatRule } from '../../schedule/repeat.ts';
import type { Scheduler } from '../../schedule/scheduler.ts';
import type { InspectionRepository } from './repository.ts';

/** The live values of the collector (absent: the stored ones). */
export interface InspectionLive {
  liveItem(itemId: number): { value: number | null; state: number } | undefined;
}

type Allowed = number[] | null;
type Row = NonNullable<Awaited<ReturnType<InspectionRepository['report']>>>;
export const planTask = 'inspection.plan';

const toReport = (r: Row): InspectionReport => ({
  id: r.id,
  kind: r.kind === 'auto' ? 'auto' : 'manual',
  plan_id: r.plan_id,
  inspector: r.inspector,
  reviewer: r.reviewer,
  status: r.status,
  device_group_ids: readIdList(r.device_group_ids),
  summary: r.summary,
  review_comment: r.review_comment,
  items: r.items,
  abnormal: r.abnormal,
  create_time: Number(r.created_at),
  reviewed_at: r.reviewed_at === null ? null : Number(r.reviewed_at),
});

/** Inspection plans: each enabled plan is a task of the scheduler (its repeat rule and start). */
const planCalls = (
  deps: { repo: InspectionRepository; scheduler: Scheduler },
  now: () => number,
  scope: (siteIds: number[], allowed: Allowed) => Promise<number[]>,
) => {
  const { repo } = deps;
  const planOut = async (
    p: NonNullable<Awaited<ReturnType<InspectionRepository['plan']>>>,
  ): Promise<InspectionPlan> => {
    const task = await deps.scheduler.task(planTask, p.id);
    return {
      id: p.id,
      name: p.name,
      device_group_ids: readIdList(p.device_group_ids),
      rule: p.rule as InspectionPlan['rule'],
      start_time: Number(p.start_time),
      enable: p.enable === 1,
      next_run: task?.next_run == null ? null : Number(task.next_run),
      last_run: task?.last_run == null ? null : Number(task.last_run),
    };
  };
  const schedule = async (id: number, input: z.infer<typeof planInput>) => {
    if (input.enable) await deps.scheduler.put(planTask, id, input.rule as RepeatRule, input.start_time);
    else await deps.scheduler.remove(planTask, id);
  };
  const plan = async (id: number) => {
    const p = await repo.plan(id);
    if (!p) throw notFound('errors.notFound');
    return planOut(p);
  };

  return {
    plans: async () => Promise.all((await repo.plans()).map(planOut)),
    plan,
    async addPlan(input: z.infer<typeof planInput>) {
      await scope(input.device_group_ids, null);
      const row = {
        name: input.name,
        device_group_ids: JSON.stringify(input.device_group_ids),
        rule: input.rule,
        start_time: input.start_time,
        enable: input.enable ? 1 : 0,
      };
      const { id } = await repo.k
        .insertInto('inspection_plans')
        .values({ ...row, created_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await schedule(id, input);
      return plan(id);
    },
    async updatePlan(id: number, input: z.infer<typeof planInput>) {
      await plan(id);
      await scope(input.device_group_ids, null);
      await repo.k
        .updateTable('inspection_plans')
        .set({
          name: input.name,
          device_group_ids: JSON.stringify(input.device_group_ids),
          rule: input.rule,
          start_time: input.start_time,
          enable: input.enable ? 1 : 0,
        })
        .where('id', '=', id)
        .execute();
      await schedule(id, input);
      return plan(id);
    },
    async deletePlan(id: number) {
      await plan(id);
      await deps.scheduler.remove(planTask, id);
      await repo.k.deleteFrom('inspection_plans').where('id', '=', id).execute();
      return { deleted: 1 };
    },
  };
};

/** Manual and automatic inspection, reports and their review (docs/inspection-duty.md). */
export const createInspectionService = (deps: {
  repo: InspectionRepository;
  live?: InspectionLive | undefined;
  scheduler: Scheduler;
  /** Epoch ms. */
  clock: () => number;
}) => {
  const { repo } = deps;
  const now = () => Math.floor(deps.clock() / 1000);

  const settings = {
    patrol: () => repo.settings.get('patrol_settings'),
    report: () => repo.settings.get('inspection_report'),
  };

  /** The sites and their sub-sites, within the allowed ones; a site outside them is refused. */
  const scope = async (siteIds: number[], allowed: Allowed) => {
    const sites = await repo.sites();
    const known = new Set(sites.map((s) => s.id));
    for (const id of siteIds) {
      if (!known.has(id)) throw notFound('errors.notFound');
      if (allowed !== null && !allowed.includes(id)) throw forbidden();
    }
    const children = new Map<number, number[]>();
    for (const s of sites) children.set(s.parent_id, [...(children.get(s.parent_id) ?? []), s.id]);
    const found = new Set<number>();
    const stack = [...siteIds];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (found.has(id)) continue;
      found.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    return [...found].filter((id) => allowed === null || allowed.includes(id));
  };

  /** Every item of the scope with its value at this moment (live over stored). */
  const capture = async (siteIds: number[]): Promise<InspectedItem[]> =>
    (await repo.items(siteIds)).map((it) => {
      const live = deps.live?.liveItem(it.item_id);
      const state = live?.state ?? it.state;
      return {
        ...it,
        value: live ? live.value : it.value,
        state,
        abnormal: state !== monitorState.normal,
        note: '',
      };
    });

  const write = async (r: {
    kind: 'manual' | 'auto';
    plan_id: number | null;
    inspector_id: number;
    inspector: string;
    siteIds: number[];
    content: InspectedItem[];
    summary: string;
    autoPass: boolean;
  }) => {
    const abnormal = r.content.filter((i) => i.abnormal).length;
    const t = now();
    const passed = r.autoPass && abnormal === 0;
    const id = await repo.insertReport({
      kind: r.kind,
      plan_id: r.plan_id,
      inspector_id: r.inspector_id,
      inspector: r.inspector,
      status: passed ? reportStatus.passed : reportStatus.waitingReview,
      device_group_ids: JSON.stringify(r.siteIds),
      content: JSON.stringify(r.content),
      summary: r.summary,
      items: r.content.length,
      abnormal,
      created_at: t,
      reviewer_id: passed ? 0 : null,
      reviewer: '',
      reviewed_at: passed ? t : null,
    });
    return toReport((await repo.report(id))!);
  };

  return {
    ...planCalls(deps, now, scope),
    settings,
    async last(allowed: Allowed) {
      const latest = await repo.latest();
      const visible =
        latest && (allowed === null || readIdList(latest.device_group_ids).some((id) => allowed.includes(id)));
      return { report: visible ? toReport(latest) : null, enable: (await settings.patrol()).enable };
    },
    async snapshot(siteIds: number[], allowed: Allowed) {
      return capture(await scope(siteIds, allowed));
    },
    async manual(input: z.infer<typeof manualInput>, user: { id: number; name: string }, allowed: Allowed) {
      if (!(await settings.patrol()).enable) throw badRequest('inspection.closed');
      const siteIds = await scope(input.device_group_ids, allowed);
      const content = await capture(siteIds);
      const byItem = new Map(content.map((i) => [i.item_id, i]));
      for (const m of input.marks)
        if (!byItem.has(m.item_id)) throw badRequest('inspection.itemOutOfScope', { id: m.item_id });
      for (const m of input.marks) {
        const item = byItem.get(m.item_id)!;
        item.abnormal = m.abnormal;
        item.note = m.note;
      }
      return write({
        kind: 'manual',
        plan_id: null,
        inspector_id: user.id,
        inspector: user.name,
        siteIds: input.device_group_ids,
        content,
        summary: input.summary,
        autoPass: false,
      });
    },
    /** One run of a plan (the scheduler's task): every item of its scope, a report written. */
    async runPlan(planId: number) {
      const plan = await repo.plan(planId);
      if (!plan || plan.enable !== 1) return;
      if (!(await settings.patrol()).intelligent_enable) return;
      const siteIds = readIdList(plan.device_group_ids);
      const content = await capture(await scope(siteIds, null).catch(() => []));
      const abnormal = content.filter((i) => i.abnormal);
      // Language-neutral: abnormal / checked, then the abnormal items.
      const summary = `${abnormal.length}/${content.length}${
        abnormal.length === 0
          ? ''
          : `: ${abnormal
              .slice(0, 20)
              .map((i) => `${i.device_name}/${i.item_name}`)
              .join(', ')}`
      }`;
      await write({
        kind: 'auto',
        plan_id: plan.id,
        inspector_id: 0,
        inspector: plan.name,
        siteIds,
        content,
        summary,
        autoPass: (await settings.report()).auto_pass_normal,
      });
    },
    async reports(
      q: { page: number; limit: number; status?: number | undefined; kind?: string | undefined },
      allowed: Allowed,
    ) {
      // Reports carry their sites: a caller sees those touching a granted site.
      if (allowed === null) {
        const { total, rows } = await repo.reports(q, q.page, q.limit);
        return { total, data: rows.map(toReport) };
      }
      const { rows } = await repo.reports(q, 1, 1_000_000);
      const visible = rows.filter((r) => readIdList(r.device_group_ids).some((id) => allowed.includes(id)));
      return { total: visible.length, data: visible.slice((q.page - 1) * q.limit, q.page * q.limit).map(toReport) };
    },
    async report(id: number, allowed: Allowed) {
      const r = await repo.report(id);
      if (!r || (allowed !== null && !readIdList(r.device_group_ids).some((s) => allowed.includes(s))))
        throw notFound('errors.notFound');
      return { ...toReport(r), content: JSON.parse(r.content) as InspectedItem[] };
    },
    async review(
      id: number,
      input: { result: 'passed' | 'failed'; comment: string },
      user: { id: number; name: string },
      allowed: Allowed,
    ) {
      await this.report(id, allowed);
      const done = await repo.review(id, {
        status: input.result === 'passed' ? reportStatus.passed : reportStatus.failed,
        reviewer_id: user.id,
        reviewer: user.name,
        review_comment: input.comment,
        reviewed_at: now(),
      });
      if (!done) throw conflict('inspection.reviewed');
      return toReport((await repo.report(id))!);
    },
    async setPatrol(v: z.infer<typeof patrolSettings>) {
      await repo.settings.set('patrol_settings', v);
      return settings.patrol();
    },
    async setReport(v: z.infer<typeof inspectionReportSettings>) {
      await repo.settings.set('inspection_report', v);
      return settings.report();
    },
  };
};
export type InspectionService = ReturnType<typeof createInspectionService>;
