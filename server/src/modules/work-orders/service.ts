import { nowSeconds } from '@sitewatch/contract';
import type { AlarmRow } from '@sitewatch/contract/alarms';
import type {
  createWorkOrderBody,
  monthQuery,
  statisticsQuery,
  workOrderListQuery,
  workOrderSetBody,
} from '@sitewatch/contract/work-orders';
import {
  priorityNames,
  transitionFor,
  type WorkOrderAction,
  type WorkOrderActionBody,
  type WorkOrderRole,
  type WorkOrderRow,
  type WorkOrderSet,
  type WorkOrderState,
  workOrderMachine,
  workOrderState,
  workOrderStates,
  workOrderUploads,
} from '@sitewatch/contract/work-orders';
import type { z } from 'zod';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { WorkOrderRepository } from './repository.ts';

export interface Actor {
  id: number;
  name: string;
}
/** Who is on duty at an instant (the duty area's stored shifts) for a site (null: anywhere): contacts, each with its user if any. */
export interface DutyLookup {
  onDutyPeople(at: number, siteId: number | null): Promise<{ name: string; user_id: number | null }[]>;
}
type Order = NonNullable<Awaited<ReturnType<WorkOrderRepository['order']>>>;
/** Rule numbers run 1–1000 (the route's id). */
const maxRules = 1000;
const num = (v: number | string | null) => (v === null ? null : Number(v));
const day = 86_400;

export const rolesOf = (order: Pick<Order, 'creator_id' | 'handler_id' | 'reviewer_id'>, userId: number) => {
  const roles: WorkOrderRole[] = [];
  if (order.creator_id === userId) roles.push('creator');
  if (order.handler_id === userId) roles.push('handler');
  if (order.reviewer_id === userId) roles.push('reviewer');
  return roles;
};

const toRow = (o: Order, userId: number): WorkOrderRow => {
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

type SetRow = Awaited<ReturnType<WorkOrderRepository['sets']>>[number];
/** The caller's site grant for the dispatch rules: their sites (null: all), and whether they hold every site. */
export interface RuleGrant {
  sites: number[] | null;
  everySite: boolean;
}
const ruleSites = (s: SetRow) => JSON.parse(s.device_group_ids) as number[];
/** A rule for every site (no sites named) belongs to holders of every site; others to holders of all their sites. */
const holdsRule = (s: SetRow, grant: RuleGrant) => {
  const sites = ruleSites(s);
  return sites.length === 0 ? grant.everySite : sites.every((id) => grant.sites === null || grant.sites.includes(id));
};
/** A rule the caller sees: one for every site, or naming a granted site. */
const touchesRule = (s: SetRow, grant: RuleGrant) => {
  const sites = ruleSites(s);
  return sites.length === 0 || sites.some((id) => grant.sites === null || grant.sites.includes(id));
};
/** The caller's view of a rule: its granted sites only, and whether they may change it. */
const toSet = (s: SetRow, grant: RuleGrant): WorkOrderSet => ({
  id: s.id,
  name: s.name,
  enable: s.enable === 1,
  levels: JSON.parse(s.levels) as number[],
  device_group_ids: ruleSites(s).filter((id) => grant.sites === null || grant.sites.includes(id)),
  handler_id: s.handler_id,
  reviewer_id: s.reviewer_id,
  priority: s.priority,
  deadline_hours: Number(s.deadline_hours),
  require_recovered: s.require_recovered === 1,
  handler_on_duty: s.handler_on_duty === 1,
  editable: holdsRule(s, grant),
});
const everything: RuleGrant = { sites: null, everySite: true };

/** An order the caller takes part in, or one of a site granted to them. */
const visible = (o: Order, userId: number, sites: number[] | null) =>
  rolesOf(o, userId).length > 0 || sites === null || (o.device_group_id !== null && sites.includes(o.device_group_id));

/**
 * Work orders (docs/work-orders.md): every action goes through the contract's machine (state and
 * role), is applied only if the order is still in the state it was read in, and leaves a history row.
 */
export const createWorkOrderService = (deps: {
  repo: WorkOrderRepository;
  clock?: () => number;
  /** Tells the users of an order (handler, creator, reviewer) that it changed. */
  notify?: (order: { id: number; state: number; handler_id: number }, userIds: number[]) => void;
  /** The duty table, when the duty area is there. */
  duty?: DutyLookup | undefined;
}) => {
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
      levels: JSON.stringify([...new Set(body.levels)]),
      device_group_ids: JSON.stringify(sites),
      handler_id: body.handler_id,
      reviewer_id: body.reviewer_id,
      priority: body.priority,
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

  /** Orders created in a range (default: all), for the statistics. */
  const inRange = async (q: z.infer<typeof statisticsQuery>, actor: Actor, sites: number[] | null) => {
    let query = repo.orders();
    if (q.start !== undefined) query = query.where('o.created_at', '>=', q.start);
    if (q.end !== undefined) query = query.where('o.created_at', '<', q.end);
    return (await query.execute()).filter((o) => visible(o, actor.id, sites));
  };
  const counts = <T>(rows: T[], key: (r: T) => number, name: (k: number, r: T) => string) => {
    const m = new Map<number, { key: number; name: string; count: number }>();
    for (const r of rows) {
      const k = key(r);
      const e = m.get(k) ?? { key: k, name: name(k, r), count: 0 };
      e.count += 1;
      m.set(k, e);
    }
    return [...m.values()].sort((a, b) => a.key - b.key);
  };
  const avg = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

  const statistics = async (q: z.infer<typeof statisticsQuery>, actor: Actor, sites: number[] | null) => {
    const rows = await inRange(q, actor, sites);
    const at = now();
    const stateNames = Object.fromEntries(Object.entries(workOrderState).map(([k, v]) => [v, k]));
    return {
      total: rows.length,
      overdue: rows.filter((o) => (o.completed_at === null ? at : Number(o.completed_at)) > Number(o.deadline)).length,
      by_state: workOrderStates.map((s) => ({
        key: s,
        name: stateNames[s] ?? '',
        count: rows.filter((o) => o.state === s).length,
      })),
      by_priority: priorityNames.map((n, i) => ({
        key: i + 1,
        name: n,
        count: rows.filter((o) => o.priority === i + 1).length,
      })),
      by_handler: counts(
        rows,
        (o) => o.handler_id,
        (_k, o) => o.handler_name ?? '',
      ),
      avg_receive_seconds: avg(
        rows.filter((o) => o.received_at !== null).map((o) => Number(o.received_at) - Number(o.created_at)),
      ),
      avg_complete_seconds: avg(
        rows.filter((o) => o.completed_at !== null).map((o) => Number(o.completed_at) - Number(o.created_at)),
      ),
    };
  };
  /** Buckets by UTC month or day: created in it, and completed in it. */
  const series = (rows: Order[], bucket: (sec: number) => string, labels: string[]) =>
    labels.map((label) => ({
      label,
      created: rows.filter((o) => bucket(Number(o.created_at)) === label).length,
      completed: rows.filter((o) => o.completed_at !== null && bucket(Number(o.completed_at)) === label).length,
    }));
  const month = async (q: z.infer<typeof monthQuery>, actor: Actor, sites: number[] | null) => {
    const start = Date.UTC(q.year, 0, 1) / 1000;
    const end = Date.UTC(q.year + 1, 0, 1) / 1000;
    const rows = await inRange({ start, end, t: undefined }, actor, sites);
    const labels = Array.from({ length: 12 }, (_, i) => `${q.year}-${String(i + 1).padStart(2, '0')}`);
    return series(rows, (s) => new Date(s * 1000).toISOString().slice(0, 7), labels);
  };
  const time = async (q: z.infer<typeof statisticsQuery>, actor: Actor, sites: number[] | null) => {
    const end = q.end ?? now();
    const start = Math.max(q.start ?? end - 30 * day, end - 366 * day);
    const rows = await inRange({ start, end, t: undefined }, actor, sites);
    const labels: string[] = [];
    for (let d = Math.floor(start / day) * day; d < end; d += day)
      labels.push(new Date(d * 1000).toISOString().slice(0, 10));
    return series(rows, (s) => new Date(s * 1000).toISOString().slice(0, 10), labels);
  };

  return {
    create,
    act,
    remove,
    list,
    info,
    ofAlarms,
    notReceived,
    /** The rules the caller sees (docs/work-orders.md, "Dispatch"). */
    sets: async (grant: RuleGrant) =>
      (await repo.sets()).filter((s) => touchesRule(s, grant)).map((s) => toSet(s, grant)),
    putSet,
    dispatchAlarm,
    statistics,
    month,
    time,
    /** Whether the caller may attach files now: the handler of a received order. */
    canAttach: async (id: number, actor: Actor) => {
      const o = await load(id);
      if (o.handler_id !== actor.id) throw forbidden('workOrders.wrongRole');
      if (o.state !== workOrderState.received) throw conflict('workOrders.wrongState');
      return o;
    },
  };
};
export type WorkOrderService = ReturnType<typeof createWorkOrderService>;
