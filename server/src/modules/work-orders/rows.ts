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

export type SetRow = Awaited<ReturnType<WorkOrderRepository['sets']>>[number];
/** The caller's site grant for the dispatch rules: their sites (null: all), and whether they hold every site. */
export interface RuleGrant {
  sites: number[] | null;
  everySite: boolean;
}
const ruleSites = (s: SetRow) => JSON.parse(s.device_group_ids) as number[];
/** A rule for every site (no sites named) belongs to holders of every site; others to holders of all their sites. */
export const holdsRule = (s: SetRow, grant: RuleGrant) => {
  const sites = ruleSites(s);
  return sites.length === 0 ? grant.everySite : sites.every((id) => grant.sites === null || grant.sites.includes(id));
};
/** A rule the caller sees: one for every site, or naming a granted site. */
export const touchesRule = (s: SetRow, grant: RuleGrant) => {
  const sites = ruleSites(s);
  return sites.length === 0 || sites.some((id) => grant.sites === null || grant.sites.includes(id));
};
/** The caller's view of a rule: its granted sites only, and whether they may change it. */
export const toSet = (s: SetRow, grant: RuleGrant): WorkOrderSet => ({
  id: s.id,
  name: s.name,
  enable: s.enable === 1,
  // By level, most severe first, whatever order they were ticked in (rules saved before kept that order).
  levels: (JSON.parse(s.levels) as number[]).sort((a, b) => a - b),
  device_group_ids: ruleSites(s).filter((id) => grant.sites === null || grant.sites.includes(id)),
  handler_id: s.handler_id,
  reviewer_id: s.reviewer_id,
  priority: s.priority === 0 ? null : s.priority,
  deadline_hours: Number(s.deadline_hours),
  require_recovered: s.require_recovered === 1,
  handler_on_duty: s.handler_on_duty === 1,
  editable: holdsRule(s, grant),
});
/** The rules as the automatic dispatch reads them: whole. */
export const everything: RuleGrant = { sites: null, everySite: true };

/** An order the caller takes part in, or one of a site granted to them. */
export const visible = (o: Order, userId: number, sites: number[] | null) =>
  rolesOf(o, userId).length > 0 || sites === null || (o.device_group_id !== null && sites.includes(o.device_group_id));
