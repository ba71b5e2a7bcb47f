import type {
  WorkOrderAction,
  WorkOrderRole,
  WorkOrderRow,
  WorkOrderSet,
  WorkOrderState,
} from '@sitewatch/contract/work-orders';
import { workOrderMachine } from '@sitewatch/contract/work-orders';
import type { WorkOrderRepository } from './repository.ts';

/** Stored orders and dispatch rules as the contract's shapes, and who may see an order. */

export type Order = NonNullable<Awaited<ReturnType<WorkOrderRepository['order']>>>;
const num = (v: number | string | null) => (v === null ? null : Number(v));

export const rolesOf = (order: Pick<Order, 'creator_id' | 'handler_id' | 'reviewer_id'>, userId: number) => {
  const roles: WorkOrderRole[] = [];
  if (order.creator_id === userId) roles.push('creator');
  if (order.handler_id === userId) roles.push('handler');
  if (order.reviewer_id === userId) roles.push('reviewer');
  return roles;
};

export const toRow = (o: Order, userId: number): WorkOrderRow => {
  const roles = rolesOf(o, userId);
  const state = o.state as WorkOrderState;
  const actions = Object.entries(workOrderMachine[state] ?? {})
    .filter(([, t]) => t.roles.some((r) => roles.includes(r)))
    .map(([a]) => a as WorkOrderAction);
  return {
    id: o.id,
    number: o.number,
    description: o.description,
    priority: o.priority,
    state: o.state,
    handler_id: o.handler_id,
    handler: o.handler_name ?? '',
    creator_id: o.creator_id,
    creator: o.creator_name ?? '',
    reviewer_id: o.reviewer_id,
    reviewer: o.reviewer_name ?? '',
    device_group_id: o.device_group_id,
    alarm_id: o.alarm_id,
    alarm_level: o.alarm_level,
    dispatch: o.dispatch as WorkOrderRow['dispatch'],
    deadline_hours: Number(o.deadline_hours),
    deadline: Number(o.deadline),
    processing_method: o.processing_method,
    resolution: o.resolution,
    comment: o.comment,
    require_recovered: o.require_recovered === 1,
    on_duty: o.on_duty,
    creation_time: Number(o.created_at),
    received_at: num(o.received_at),
    transferred_at: num(o.transferred_at),
    refused_at: num(o.refused_at),
    submitted_at: num(o.submitted_at),
    reviewed_at: num(o.reviewed_at),
    completed_at: num(o.completed_at),
    actions,
  };
};

export const toSet = (s: Awaited<ReturnType<WorkOrderRepository['sets']>>[number]): WorkOrderSet => ({
  id: s.id,
  name: s.name,
  enable: s.enable === 1,
  levels: JSON.parse(s.levels) as number[],
  device_group_ids: JSON.parse(s.device_group_ids) as number[],
  handler_id: s.handler_id,
  reviewer_id: s.reviewer_id,
  priority: s.priority,
  deadline_hours: Number(s.deadline_hours),
  require_recovered: s.require_recovered === 1,
  handler_on_duty: s.handler_on_duty === 1,
});

/** An order the caller takes part in, or one of a site granted to them. */
export const visible = (o: Order, userId: number, sites: number[] | null) =>
  rolesOf(o, userId).length > 0 || sites === null || (o.device_group_id !== null && sites.includes(o.device_group_id));
