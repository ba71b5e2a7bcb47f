import type { InspectionPlan, planInput } from '@sitewatch/contract/inspection';
import type { z } from 'zod';
import { readIdList } from '../../db/json.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { RepeatRule } from '../../schedule/repeat.ts';
import type { InspectionRepository } from './repository.ts';
import { type Allowed, granted, touches } from './rows.ts';
import type { InspectionParts } from './service.ts';

type PlanRow = NonNullable<Awaited<ReturnType<InspectionRepository['plan']>>>;
export const planTask = 'inspection.plan';

/**
 * The plans of automatic inspection, each an enabled plan kept as a task of the scheduler. A plan runs
 * over its sites and their sub-sites, so changing one needs all of them.
 */
export const createPlans = ({ repo, scheduler, now, covered, requireKnown }: InspectionParts) => {
  /** A plan runs over its sites and every sub-site: the caller must hold them all (403 otherwise). */
  const requireWholePlan = async (siteIds: number[], allowed: Allowed) => {
    await requireKnown(siteIds);
    for (const id of await covered(siteIds)) if (!granted(allowed, id)) throw forbidden('access.siteNotGranted');
  };
  const planOut = async (p: PlanRow, allowed: Allowed): Promise<InspectionPlan> => {
    const task = await scheduler.task(planTask, p.id);
    return {
      id: p.id,
      name: p.name,
      device_group_ids: readIdList(p.device_group_ids).filter((id) => granted(allowed, id)),
      rule: p.rule as InspectionPlan['rule'],
      start_time: Number(p.start_time),
      enable: p.enable === 1,
      next_run: task?.next_run == null ? null : Number(task.next_run),
      last_run: task?.last_run == null ? null : Number(task.last_run),
    };
  };
  /** A plan the caller may see: one naming a granted site; others do not exist for them (404). */
  const visiblePlan = async (id: number, allowed: Allowed) => {
    const p = await repo.plan(id);
    if (!p || !touches(p.device_group_ids, allowed)) throw notFound('errors.notFound');
    return p;
  };
  /** A plan the caller may change or delete: they hold every site it runs over. */
  const heldPlan = async (id: number, allowed: Allowed) => {
    const p = await visiblePlan(id, allowed);
    const sites = await covered(readIdList(p.device_group_ids));
    if (!sites.every((site) => granted(allowed, site))) throw forbidden('access.spansOtherSites');
    return p;
  };
  const schedule = async (id: number, input: z.infer<typeof planInput>) => {
    if (input.enable) await scheduler.put(planTask, id, input.rule as RepeatRule, input.start_time);
    else await scheduler.remove(planTask, id);
  };
  const plan = async (id: number, allowed: Allowed) => planOut(await visiblePlan(id, allowed), allowed);

  return {
    /** Plans naming a granted site, each with its granted sites only. */
    plans: async (allowed: Allowed) =>
      Promise.all(
        (await repo.plans()).filter((p) => touches(p.device_group_ids, allowed)).map((p) => planOut(p, allowed)),
      ),
    plan,
    async addPlan(input: z.infer<typeof planInput>, allowed: Allowed) {
      await requireWholePlan(input.device_group_ids, allowed);
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
      return plan(id, allowed);
    },
    async updatePlan(id: number, input: z.infer<typeof planInput>, allowed: Allowed) {
      await heldPlan(id, allowed);
      await requireWholePlan(input.device_group_ids, allowed);
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
      return plan(id, allowed);
    },
    async deletePlan(id: number, allowed: Allowed) {
      await heldPlan(id, allowed);
      await scheduler.remove(planTask, id);
      await repo.k.deleteFrom('inspection_plans').where('id', '=', id).execute();
      return { deleted: 1 };
    },
  };
};
