import {
  type InspectedItem,
  type inspectionReportSettings,
  type manualInput,
  type patrolSettings,
  reportStatus,
} from '@sitewatch/contract/inspection';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { z } from 'zod';
import { readIdList } from '../../db/json.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Scheduler } from '../../schedule/scheduler.ts';
import { createPlans } from './plans.ts';
import type { InspectionRepository } from './repository.ts';
import { type Allowed, autoSummary, granted, grantedReport, toReport, touches } from './rows.ts';

export { planTask } from './plans.ts';

/** The live values of the collector (absent: the stored ones). */
export interface InspectionLive {
  liveItem(itemId: number): { value: number | null; state: number } | undefined;
}

export interface InspectionDeps {
  repo: InspectionRepository;
  live?: InspectionLive | undefined;
  scheduler: Scheduler;
  /** Epoch ms. */
  clock: () => number;
}

/** What the parts of the service share: the repository, the clock, the settings and the sites a scope covers. */
const inspectionParts = (deps: InspectionDeps) => {
  const { repo } = deps;
  const now = () => Math.floor(deps.clock() / 1000);

  const settings = {
    patrol: () => repo.settings.get('patrol_settings'),
    report: () => repo.settings.get('inspection_report'),
  };

  /** The sites with their sub-sites (a site deleted since covers nothing). */
  const covered = async (siteIds: number[]) => {
    const sites = await repo.sites();
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
    const known = new Set(sites.map((s) => s.id));
    return [...found].filter((id) => known.has(id));
  };
  const requireKnown = async (siteIds: number[]) => {
    const known = new Set((await repo.sites()).map((s) => s.id));
    for (const id of siteIds) if (!known.has(id)) throw notFound('errors.notFound');
  };
  return { repo, live: deps.live, scheduler: deps.scheduler, now, settings, covered, requireKnown };
};
export type InspectionParts = ReturnType<typeof inspectionParts>;

/** Inspecting: a manual inspection of the caller's scope, and a plan's automatic run; each writes a report. */
const inspectionRounds = ({ repo, live: collector, now, settings, covered, requireKnown }: InspectionParts) => {
  /** The sites and their sub-sites, within the allowed ones; a site named outside them is refused. */
  const scope = async (siteIds: number[], allowed: Allowed) => {
    await requireKnown(siteIds);
    for (const id of siteIds) if (!granted(allowed, id)) throw forbidden('access.siteNotGranted');
    return (await covered(siteIds)).filter((id) => granted(allowed, id));
  };
  /** Every item of the scope with its value at this moment (live over stored). */
  const capture = async (siteIds: number[]): Promise<InspectedItem[]> =>
    (await repo.items(siteIds)).map((it) => {
      const live = collector?.liveItem(it.item_id);
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
    return toReport((await repo.report(id))!, null);
  };

  return {
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
      const content = await capture(await covered(siteIds));
      const summary = autoSummary(content);
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
  };
};

/** The reports: the latest, the list and one report, each cut to the caller's sites, and their review. */
const inspectionReports = ({ repo, now, settings }: InspectionParts) => ({
  async last(allowed: Allowed) {
    const latest = await repo.latest();
    const visible = latest && touches(latest.device_group_ids, allowed);
    return { report: visible ? toReport(latest, allowed) : null, enable: (await settings.patrol()).enable };
  },
  async reports(
    q: { page: number; limit: number; status?: number | undefined; kind?: string | undefined },
    allowed: Allowed,
  ) {
    // Reports carry their sites: a caller sees those touching a granted site, and of them the granted part.
    if (allowed === null) {
      const { total, rows } = await repo.reports(q, q.page, q.limit);
      return { total, data: rows.map((r) => toReport(r, null)) };
    }
    const { rows } = await repo.reports(q, 1, 1_000_000);
    const visible = rows.filter((r) => touches(r.device_group_ids, allowed));
    const page = visible.slice((q.page - 1) * q.limit, q.page * q.limit);
    return { total: visible.length, data: page.map((r) => toReport(r, allowed)) };
  },
  async report(id: number, allowed: Allowed) {
    const r = await repo.report(id);
    if (!r || !touches(r.device_group_ids, allowed)) throw notFound('errors.notFound');
    return grantedReport(r, allowed);
  },
  async review(
    id: number,
    input: { result: 'passed' | 'failed'; comment: string },
    user: { id: number; name: string },
    allowed: Allowed,
  ) {
    // A review judges the whole report: only someone who sees all of it may give it.
    const r = await repo.report(id);
    if (!r || !touches(r.device_group_ids, allowed)) throw notFound('errors.notFound');
    if (grantedReport(r, allowed).items !== grantedReport(r, null).items) throw forbidden('access.spansOtherSites');
    const done = await repo.review(id, {
      status: input.result === 'passed' ? reportStatus.passed : reportStatus.failed,
      reviewer_id: user.id,
      reviewer: user.name,
      review_comment: input.comment,
      reviewed_at: now(),
    });
    if (!done) throw conflict('inspection.reviewed');
    return toReport((await repo.report(id))!, allowed);
  },
});

/**
 * Manual and automatic inspection, reports and their review (docs/inspection-duty.md). The plans are
 * in plans.ts; the inspections and the reports are parts over what they share.
 */
export const createInspectionService = (deps: InspectionDeps) => {
  const parts = inspectionParts(deps);
  const { repo, settings } = parts;
  return {
    settings,
    ...inspectionRounds(parts),
    ...inspectionReports(parts),
    ...createPlans(parts),
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
