import type { AlarmRow } from '@sitewatch/contract/alarms';
import { alarmOrderDescription, priorityForLevel, type workOrderSetBody } from '@sitewatch/contract/work-orders';
import type { z } from 'zod';
import { badRequest, forbidden } from '../../http/errors.ts';
import { everything, holdsRule, type RuleGrant, toSet, touchesRule } from './rows.ts';
import type { OrderActions, OrderParts } from './service.ts';

/**
 * The dispatch rules (002 §3 work-order set) and the automatic dispatch of raised alarms they drive.
 * The rules are read once and again after a change.
 */
/** Rule numbers run 1–1000 (the route's id). */
const maxRules = 1000;

export const createDispatch = (
  { repo, now, activeUser, onDuty }: Pick<OrderParts, 'repo' | 'now' | 'activeUser' | 'onDuty'>,
  create: OrderActions['create'],
) => {
  // The dispatch rules, read once and again after a change: every raised alarm consults them, and a
  // read per alarm queued thousands of queries a second behind SQLite's one connection (issue 18).
  let rules: Promise<ReturnType<typeof toSet>[]> | null = null;
  const dispatchRules = () => {
    rules ??= repo
      .sets()
      .then((rows) => rows.map((row) => toSet(row, everything)))
      .catch((err) => {
        rules = null;
        throw err;
      });
    return rules;
  };

  /**
   * Creates (id 0: the next free number) or changes rule `id`. A caller changes only a rule whose
   * sites they all hold, and names only sites they hold; every site (none named) needs every site.
   */
  const putSet = async (id: number, body: z.infer<typeof workOrderSetBody>, grant: RuleGrant) => {
    const all = await repo.sets();
    const existing = all.find((s) => s.id === id);
    if (existing && !holdsRule(existing, grant)) throw forbidden('access.spansOtherSites');
    const sites = [...new Set(body.device_group_ids)];
    if (sites.length === 0 && !grant.everySite) throw forbidden('access.everySiteNeeded');
    if (grant.sites !== null && sites.some((s) => !grant.sites!.includes(s))) throw forbidden('access.siteNotGranted');
    await activeUser(body.handler_id, 'workOrders.handlerNotFound');
    await activeUser(body.reviewer_id, 'workOrders.reviewerNotFound');
    const ruleId = id === 0 ? all.reduce((m, s) => Math.max(m, s.id), 0) + 1 : id;
    if (ruleId > maxRules) throw badRequest('workOrders.tooManyRules', { max: maxRules });
    await repo.putSet({
      id: ruleId,
      name: body.name,
      enable: body.enable ? 1 : 0,
      levels: JSON.stringify([...new Set(body.levels)].sort((a, b) => a - b)),
      device_group_ids: JSON.stringify(sites),
      handler_id: body.handler_id,
      reviewer_id: body.reviewer_id,
      // 0: the alarm's level decides (the column is not null; the API answers null).
      priority: body.priority ?? 0,
      deadline_hours: body.deadline_hours,
      require_recovered: body.require_recovered ? 1 : 0,
      handler_on_duty: body.handler_on_duty ? 1 : 0,
      updated_at: now(),
    });
    rules = null;
    return toSet((await repo.sets()).find((s) => s.id === ruleId)!, grant);
  };

  /**
   * Automatic dispatch (002 §3 work-order set): the first enabled rule whose levels and sites match a
   * raised alarm creates one order for it, unless the alarm has one already.
   */
  const dispatchAlarm = async (alarm: AlarmRow) => {
    const rule = (await dispatchRules()).find(
      (s) =>
        s.enable &&
        s.levels.includes(alarm.level) &&
        (s.device_group_ids.length === 0 || s.device_group_ids.includes(alarm.device_group_id)),
    );
    if (!rule || (await repo.orderOfAlarm(alarm.status_id))) return null;
    const people = await onDuty(now(), alarm.device_group_id);
    // The rule may send it to whoever is on duty (the first of them who is an enabled user); nobody: its handler.
    const handler = (rule.handler_on_duty && people.find((p) => p.user_id !== null)?.user_id) || rule.handler_id;
    return create(
      {
        description: alarmOrderDescription(alarm),
        // The rule's own priority, else the one table from the alarm's level (a 紧急 alarm: a 紧急 order).
        priority: rule.priority ?? priorityForLevel(alarm.level),
        handler_id: handler,
        reviewer_id: rule.reviewer_id,
        deadline_hours: rule.deadline_hours,
        device_group_id: alarm.device_group_id,
        alarm_id: alarm.status_id,
        t: undefined,
      },
      { id: 0, name: 'system' },
      null,
      { dispatch: 'auto', alarm_level: alarm.level, require_recovered: rule.require_recovered, on_duty: people },
    );
  };

  return {
    /** The rules the caller sees (docs/work-orders.md, "Dispatch"). */
    sets: async (grant: RuleGrant) =>
      (await repo.sets()).filter((s) => touchesRule(s, grant)).map((s) => toSet(s, grant)),
    putSet,
    dispatchAlarm,
  };
};
