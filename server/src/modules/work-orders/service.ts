import { nowSeconds } from '@sitewatch/contract';
import type { createWorkOrderBody, workOrderListQuery } from '@sitewatch/contract/work-orders';
import {
  transitionFor,
  type WorkOrderActionBody,
  type WorkOrderState,
  workOrderState,
  workOrderUploads,
} from '@sitewatch/contract/work-orders';
import type { z } from 'zod';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { createDispatch } from './dispatch.ts';
import type { WorkOrderRepository } from './repository.ts';
import { type Order, rolesOf, toRow, visible } from './rows.ts';

export type { RuleGrant } from './rows.ts';

import { createWorkOrderStatistics } from './statistics.ts';

export interface Actor {
  id: number;
  name: string;
}
/** Who is on duty at an instant (the duty area's stored shifts) for a site (null: anywhere): contacts, each with its user if any. */
export interface DutyLookup {
  onDutyPeople(at: number, siteId: number | null): Promise<{ name: string; user_id: number | null }[]>;
}
/** What the parts of the service share: the repository, the clock and the checks every action makes. */
const orderParts = (deps: WorkOrderDeps) => {
  const { repo } = deps;
  const now = () => nowSeconds((deps.clock ?? Date.now)());
  const tell = (o: Pick<Order, 'id' | 'state' | 'handler_id' | 'creator_id' | 'reviewer_id'>, extra: number[] = []) =>
    deps.notify?.({ id: o.id, state: o.state, handler_id: o.handler_id }, [
      ...new Set([o.handler_id, o.creator_id, o.reviewer_id, ...extra]),
    ]);

  const activeUser = async (id: number, key: string) => {
    const u = await repo.user(id);
    if (u?.enable !== 1) throw badRequest(key, { id });
    return u;
  };
  const load = async (id: number) => {
    const o = await repo.order(id);
    if (!o) throw notFound('workOrders.notFound', { id });
    return o;
  };
  /** The people on duty now; none when there is no duty area (or its read fails: an order still goes out). */
  const onDuty = async (at: number, siteId: number | null) =>
    deps.duty ? await deps.duty.onDutyPeople(at, siteId).catch(() => []) : [];
  const recoveredOrRefuse = async (o: Pick<Order, 'alarm_id' | 'require_recovered'>) => {
    if (o.require_recovered !== 1 || o.alarm_id === null) return;
    const alarm = await repo.alarm(o.alarm_id);
    if (alarm && alarm.end_time === null) throw conflict('workOrders.alarmNotRecovered');
  };
  return { repo, now, tell, activeUser, load, onDuty, recoveredOrRefuse };
};
export type OrderParts = ReturnType<typeof orderParts>;

/** Creating an order and moving it through the machine (act, delete), each with a history row. */
const orderActions = ({ repo, now, tell, activeUser, load, onDuty, recoveredOrRefuse }: OrderParts) => {
  const create = async (
    body: z.infer<typeof createWorkOrderBody>,
    actor: Actor,
    sites: number[] | null,
    extra: {
      dispatch?: 'auto';
      alarm_level?: number | null;
      require_recovered?: boolean;
      on_duty?: { name: string }[];
    } = {},
  ) => {
    await activeUser(body.handler_id, 'workOrders.handlerNotFound');
    await activeUser(body.reviewer_id, 'workOrders.reviewerNotFound');
    if (body.device_group_id !== null && sites !== null && !sites.includes(body.device_group_id))
      throw forbidden('workOrders.siteNotGranted');
    let alarmLevel = extra.alarm_level ?? null;
    if (body.alarm_id !== null && extra.dispatch !== 'auto') {
      const alarm = await repo.alarm(body.alarm_id);
      if (!alarm || (sites !== null && !sites.includes(alarm.device_group_id)))
        throw badRequest('workOrders.alarmNotFound', { id: body.alarm_id });
      alarmLevel = alarm.level;
      // One order per alarm, as automatic dispatch makes: a second would split the work on one fault.
      const existing = await repo.orderOfAlarm(body.alarm_id);
      if (existing) throw conflict('workOrders.alarmHasOrder', { number: existing.number });
    }
    const at = now();
    // Who was on duty when the order was made, kept as it was then (the duty table may change later).
    const people = extra.on_duty ?? (await onDuty(at, body.device_group_id));
    const id = await repo.insertOrder({
      description: body.description,
      priority: body.priority,
      state: workOrderState.waitingReceive,
      handler_id: body.handler_id,
      creator_id: actor.id,
      reviewer_id: body.reviewer_id,
      device_group_id: body.device_group_id,
      alarm_id: body.alarm_id,
      alarm_level: alarmLevel,
      dispatch: extra.dispatch ?? (body.handler_id === actor.id ? 'self' : 'manual'),
      deadline_hours: body.deadline_hours,
      deadline: at + Math.round(body.deadline_hours * 3600),
      require_recovered: extra.require_recovered ? 1 : 0,
      on_duty: [...new Set(people.map((p) => p.name))].join(', ').slice(0, 1000),
      created_at: at,
      received_at: null,
      transferred_at: null,
      refused_at: null,
      submitted_at: null,
      reviewed_at: null,
      completed_at: null,
    });
    await repo.addHistory({
      order_id: id,
      action: 'create',
      from_state: null,
      to_state: workOrderState.waitingReceive,
      user_id: actor.id,
      user_name: actor.name,
      comment: '',
      time: at,
    });
    const o = await load(id);
    tell(o);
    return toRow(o, actor.id);
  };

  const act = async (id: number, body: WorkOrderActionBody, actor: Actor) => {
    const o = await load(id);
    const from = o.state as WorkOrderState;
    const t = transitionFor(from, body.action, rolesOf(o, actor.id));
    // Someone who takes no part in the order learns only that it is not theirs.
    if (!t.ok) throw t.reason === 'role' ? forbidden('workOrders.wrongRole') : conflict('workOrders.wrongState');
    const to = t.to ?? from;
    const at = now();
    const set: Parameters<WorkOrderRepository['updateOrder']>[2] = { state: to };
    let comment = '';
    switch (body.action) {
      case 'edit': {
        await activeUser(body.handler_id, 'workOrders.handlerNotFound');
        await activeUser(body.reviewer_id, 'workOrders.reviewerNotFound');
        Object.assign(set, {
          description: body.description,
          priority: body.priority,
          handler_id: body.handler_id,
          reviewer_id: body.reviewer_id,
          device_group_id: body.device_group_id,
          deadline_hours: body.deadline_hours,
          // A returned order sent again starts its deadline anew.
          deadline:
            (from === workOrderState.returned ? at : Number(o.created_at)) + Math.round(body.deadline_hours * 3600),
        });
        break;
      }
      case 'receive':
        set.received_at = at;
        break;
      case 'transfer': {
        if (body.handler_id === o.handler_id) throw badRequest('workOrders.sameHandler');
        await activeUser(body.handler_id, 'workOrders.handlerNotFound');
        Object.assign(set, {
          handler_id: body.handler_id,
          transferred_at: at,
          received_at: null,
          comment: body.comment,
        });
        comment = body.comment;
        break;
      }
      case 'refuse':
        Object.assign(set, { refused_at: at, comment: body.comment });
        comment = body.comment;
        break;
      case 'complete':
        if (body.resolution === 'fixed') await recoveredOrRefuse(o);
        Object.assign(set, {
          submitted_at: at,
          processing_method: body.processing_method,
          resolution: body.resolution,
        });
        comment = body.processing_method;
        break;
      case 'pass':
        if (o.resolution === 'fixed') await recoveredOrRefuse(o);
        Object.assign(set, { reviewed_at: at, completed_at: at, comment: body.comment });
        comment = body.comment;
        break;
    }
    if (!(await repo.updateOrder(id, from, set))) throw conflict('workOrders.wrongState');
    await repo.addHistory({
      order_id: id,
      action: body.action,
      from_state: from,
      to_state: to,
      user_id: actor.id,
      user_name: actor.name,
      comment,
      time: at,
    });
    const next = await load(id);
    tell(next, [o.handler_id]);
    return toRow(next, actor.id);
  };

  const remove = async (id: number, actor: Actor) => {
    const o = await load(id);
    const t = transitionFor(o.state as WorkOrderState, 'delete', rolesOf(o, actor.id));
    if (!t.ok) throw t.reason === 'role' ? forbidden('workOrders.wrongRole') : conflict('workOrders.wrongState');
    if (!(await repo.deleteOrder(id, o.state))) throw conflict('workOrders.wrongState');
    await repo.addHistory({
      order_id: id,
      action: 'delete',
      from_state: o.state,
      to_state: null,
      user_id: actor.id,
      user_name: actor.name,
      comment: '',
      time: now(),
    });
    tell(o);
    return null;
  };

  return { create, act, remove };
};
export type OrderActions = ReturnType<typeof orderActions>;

/** What the caller may read: the lists, one order with its history and files, the orders of alarms. */
const orderReads = ({ repo, load }: OrderParts) => {
  const list = async (q: z.infer<typeof workOrderListQuery>, actor: Actor, sites: number[] | null) => {
    let query = repo.orders();
    if (q.index === 0) query = query.where('o.handler_id', '=', actor.id);
    else if (q.index === 1) query = query.where('o.creator_id', '=', actor.id);
    else if (q.index === 2) query = query.where('o.reviewer_id', '=', actor.id);
    else if (sites !== null)
      query = query.where((eb) =>
        eb.or([
          eb('o.handler_id', '=', actor.id),
          eb('o.creator_id', '=', actor.id),
          eb('o.reviewer_id', '=', actor.id),
          ...(sites.length > 0 ? [eb('o.device_group_id', 'in', sites)] : []),
        ]),
      );
    if (q.state !== undefined) query = query.where('o.state', '=', q.state);
    if (q.alarm_id !== undefined) query = query.where('o.alarm_id', '=', q.alarm_id);
    const rows = await query.orderBy('o.id', 'desc').execute();
    return {
      total: rows.length,
      data: rows.slice((q.page - 1) * q.limit, q.page * q.limit).map((o) => toRow(o, actor.id)),
    };
  };

  /** The orders of these alarms that the caller may see (the alarm list's links). */
  const ofAlarms = async (alarmIds: number[], actor: Actor, sites: number[] | null) => {
    if (alarmIds.length === 0) return [];
    const rows = await repo.orders().where('o.alarm_id', 'in', alarmIds).orderBy('o.id').execute();
    return rows
      .filter((o) => visible(o, actor.id, sites))
      .map((o) => ({ alarm_id: o.alarm_id!, id: o.id, number: o.number, state: o.state }));
  };

  const info = async (id: number, actor: Actor, sites: number[] | null) => {
    const o = await load(id);
    if (!visible(o, actor.id, sites)) throw notFound('workOrders.notFound', { id });
    const history = await repo.history(id);
    const files = await repo.files(id);
    return {
      ...toRow(o, actor.id),
      history: history.map((h) => ({ ...h, time: Number(h.time) })),
      files: files.map((f) => ({
        id: f.id,
        url: workOrderUploads.filePath.replace(':name', f.file),
        name: f.name,
        content_type: f.content_type,
        size: f.size,
        created_at: Number(f.created_at),
      })),
    };
  };

  const notReceived = async (actor: Actor) => {
    const r = await repo.k
      .selectFrom('work_orders')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('created_at').as('newest')])
      .where('handler_id', '=', actor.id)
      .where('state', '=', workOrderState.waitingReceive)
      .executeTakeFirstOrThrow();
    return { count: Number(r.count), creation_time: r.newest === null ? null : Number(r.newest) };
  };

  return { list, ofAlarms, info, notReceived };
};

export interface WorkOrderDeps {
  repo: WorkOrderRepository;
  clock?: () => number;
  /** Tells the users of an order (handler, creator, reviewer) that it changed. */
  notify?: (order: { id: number; state: number; handler_id: number }, userIds: number[]) => void;
  /** The duty table, when the duty area is there. */
  duty?: DutyLookup | undefined;
}

/**
 * Work orders (docs/work-orders.md): every action goes through the contract's machine (state and
 * role), is applied only if the order is still in the state it was read in, and leaves a history row.
 */
export const createWorkOrderService = (deps: WorkOrderDeps) => {
  const parts = orderParts(deps);
  const actions = orderActions(parts);
  return {
    ...actions,
    ...orderReads(parts),
    ...createDispatch(parts, actions.create),
    ...createWorkOrderStatistics(parts),
    /** Whether the caller may attach files now: the handler of a received order. */
    canAttach: async (id: number, actor: Actor) => {
      const o = await parts.load(id);
      if (o.handler_id !== actor.id) throw forbidden('workOrders.wrongRole');
      if (o.state !== workOrderState.received) throw conflict('workOrders.wrongState');
      return o;
    },
  };
};
export type WorkOrderService = ReturnType<typeof createWorkOrderService>;
