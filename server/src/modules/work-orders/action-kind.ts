import { runDetail } from '@sitewatch/contract/automation';
import { alarmOrderDescription, createWorkOrderBody, priorityForLevel } from '@sitewatch/contract/work-orders';
import type { ActionKind } from '../automation/index.ts';
import type { WorkOrderRepository } from './repository.ts';
import type { WorkOrderService } from './service.ts';

const params = createWorkOrderBody.pick({
  description: true,
  priority: true,
  handler_id: true,
  reviewer_id: true,
  deadline_hours: true,
});

/**
 * "Create a work order" as an action kind (docs/automation.md, "Action kinds"), contributed by this
 * area: an action run by a linkage rule, a timed task or an item's overrun sends an order of the
 * action's site to its handler, as a dispatch rule does. Run by an alarm, the order is linked to it
 * (one order per alarm: an alarm that has one already gets no second), its priority the higher of
 * the command's and the one the alarm's level gives, the alarm's words after the command's.
 */
export const workOrderKind = (service: WorkOrderService, repo: WorkOrderRepository): ActionKind => {
  const people = async (p: { handler_id: number; reviewer_id: number }) => {
    const [handler, reviewer] = await Promise.all([repo.user(p.handler_id), repo.user(p.reviewer_id)]);
    if (handler?.enable !== 1) return { key: 'workOrders.handlerNotFound', params: { id: p.handler_id } };
    if (reviewer?.enable !== 1) return { key: 'workOrders.reviewerNotFound', params: { id: p.reviewer_id } };
    return null;
  };
  const describe = async (raw: unknown) => {
    const p = params.parse(raw);
    const handler = await repo.user(p.handler_id);
    return `→ ${handler?.alias || handler?.user_name || `#${p.handler_id}`}: ${p.description.slice(0, 80)}`;
  };
  return {
    kind: 'work_order.create',
    nameKey: 'automation.kinds.workOrder',
    fields: [
      { key: 'description', type: 'text', required: true },
      { key: 'priority', type: 'work_order_priority', required: true },
      { key: 'handler_id', type: 'user', required: true },
      { key: 'reviewer_id', type: 'user', required: true },
      { key: 'deadline_hours', type: 'number', required: true },
    ],
    writesDevice: false,
    params,
    validate: async (raw) => people(params.parse(raw)),
    describe,
    async run(raw, context) {
      const p = params.parse(raw);
      const refused = await people(p);
      if (refused) return { ok: false, detail: runDetail('refused', { key: refused.key, ...refused.params }) };
      const alarm = context.trigger === 'overrun' ? context.alarm : undefined;
      if (alarm && (await repo.orderOfAlarm(alarm.status_id)))
        return { ok: true, detail: runDetail('hasOrder', { alarm: alarm.status_id }) };
      const order = await service.create(
        {
          description: alarm ? `${p.description}\n${alarmOrderDescription(alarm)}`.slice(0, 2000) : p.description,
          priority: alarm ? Math.max(p.priority, priorityForLevel(alarm.level)) : p.priority,
          handler_id: p.handler_id,
          reviewer_id: p.reviewer_id,
          deadline_hours: p.deadline_hours,
          device_group_id: context.site,
          alarm_id: alarm?.status_id ?? null,
          t: undefined,
        },
        { id: 0, name: 'system' },
        null,
        { dispatch: 'auto', alarm_level: alarm?.level ?? null },
      );
      return { ok: true, detail: runDetail('orderSent', { number: order.number, what: await describe(raw) }) };
    },
    async dryRun(raw) {
      const p = params.parse(raw);
      const refused = await people(p);
      return refused
        ? { ok: false, detail: runDetail('refused', { key: refused.key, ...refused.params }) }
        : { ok: true, detail: runDetail('wouldSend', { what: await describe(raw) }) };
    },
  };
};
