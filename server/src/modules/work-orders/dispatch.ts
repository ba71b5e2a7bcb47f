import type { AlarmRow } from '@sitewatch/contract/alarms';
import type { workOrderSetBody } from '@sitewatch/contract/work-orders';
import type { z } from 'zod';
import { toSet } from './rows.ts';
import type { OrderActions, OrderParts } from './service.ts';

/**
 * The dispatch rules (002 §3 work-order set) and the automatic dispatch of raised alarms they drive.
 * The rules are read once and again after a change.
 */
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
      .then((rows) => rows.map(toSet))
      .catch((err) => {
        rules = null;
        throw err;
      });
    return rules;
  };

  const putSet = async (id: number, body: z.infer<typeof workOrderSetBody>) => {
    await activeUser(body.handler_id, 'workOrders.handlerNotFound');
    await activeUser(body.reviewer_id, 'workOrders.reviewerNotFound');
    await repo.putSet({
      id,
      name: body.name,
      enable: body.enable ? 1 : 0,
      levels: JSON.stringify([...new Set(body.levels)]),
      device_group_ids: JSON.stringify([...new Set(body.device_group_ids)]),
      handler_id: body.handler_id,
      reviewer_id: body.reviewer_id,
      priority: body.priority,
      deadline_hours: body.deadline_hours,
      require_recovered: body.require_recovered ? 1 : 0,
      handler_on_duty: body.handler_on_duty ? 1 : 0,
      updated_at: now(),
    });
    rules = null;
    return toSet((await repo.sets()).find((s) => s.id === id)!);
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
    const people = await onDuty(now());
    // The rule may send it to whoever is on duty (the first of them who is an enabled user); nobody: its handler.
    const handler = (rule.handler_on_duty && people.find((p) => p.user_id !== null)?.user_id) || rule.handler_id;
    // The alarm's own text, else its value: status_label is a key of the web's texts, not words to store.
    const description = `${alarm.device_group_name} / ${alarm.device_name} / ${alarm.item_name}: ${alarm.info || `${alarm.value ?? '-'}`}`;
    return create(
      {
        description: description.slice(0, 2000),
        priority: rule.priority,
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

  return { sets: async () => (await repo.sets()).map(toSet), putSet, dispatchAlarm };
};
