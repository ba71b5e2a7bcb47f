import { z } from 'zod';
import { pageOf, pageQuery, tParam } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Work orders (issue 16; 000 §2.4, §3, §4.8, §7; 002 §2.1 /work_order, /workorder_statistics, §3, §4,
 * §7.7). The spec names states, actions and roles but not the rules between them (002 §4 "not
 * shown"): the table below is the product's, explained in docs/work-orders.md.
 */
const tags = ['work-orders'];
const id = z.coerce.number().int().min(1).max(2_147_483_647);
const text = (max: number) => z.string().trim().min(1).max(max);

/** States (002 §4). 1 is the spec's state=1 "to receive" of the shell's bell (000 §4.8, §7). */
export const workOrderState = {
  waitingReceive: 1,
  received: 2,
  waitingReview: 3,
  passed: 4,
  /** Refused (returned) by its handler: back with the creator, who may edit and resend it. */
  returned: 5,
} as const;
export type WorkOrderState = (typeof workOrderState)[keyof typeof workOrderState];
export const workOrderStates = Object.values(workOrderState) as WorkOrderState[];

/** Priorities (002 §4): low … urgent as 1 … 5. */
export const workOrderPriority = z.number().int().min(1).max(5);
export const priorityNames = ['low', 'medium', 'high', 'serious', 'urgent'] as const;

/**
 * The one table from an alarm's level (1 most severe … 5) to the priority of the order it becomes
 * (5 urgent … 1 low): 紧急 → 紧急, 严重 → 严重, 重要 → 高, 次要 → 中, 提示 → 低. An order made from
 * an alarm by hand is offered it, and a dispatch rule uses it unless the rule sets its own priority
 * (docs/work-orders.md, "Priority from the alarm level").
 */
export const priorityOfLevel: Readonly<Record<number, number>> = { 1: 5, 2: 4, 3: 3, 4: 2, 5: 1 };
/** The priority of an order made from an alarm of `level` (a level outside 1–5 is clamped). */
export const priorityForLevel = (level: number): number =>
  priorityOfLevel[Math.min(5, Math.max(1, Math.round(level)))] ?? 3;

/**
 * The description of an order made from an alarm, by hand or by a rule: "site / device / item: " and
 * the alarm's text, else its value (the alarm's state label is a key of the web's texts, not words
 * to store). A communication alarm has no item.
 */
export const alarmOrderDescription = (alarm: {
  device_group_name: string;
  device_name: string;
  item_name: string;
  info: string;
  value: string | number | null;
}): string =>
  `${[alarm.device_group_name, alarm.device_name, alarm.item_name].filter((x) => x !== '').join(' / ')}: ${alarm.info || `${alarm.value ?? '-'}`}`.slice(
    0,
    2000,
  );

export const workOrderRole = z.enum(['creator', 'handler', 'reviewer']);
export type WorkOrderRole = z.infer<typeof workOrderRole>;
export const workOrderAction = z.enum(['edit', 'receive', 'transfer', 'refuse', 'complete', 'pass', 'delete']);
export type WorkOrderAction = z.infer<typeof workOrderAction>;

export interface Transition {
  roles: readonly WorkOrderRole[];
  /** The next state; 'same' keeps it, null deletes the order. */
  to: WorkOrderState | 'same' | null;
}

/**
 * The state machine, as data: state × action → allowed roles and next state. What is not here is
 * refused (wrong state), and a caller holding none of `roles` on the order is refused (wrong role).
 * Creation puts an order in waitingReceive. docs/work-orders.md has the same table.
 */
export const workOrderMachine: Record<WorkOrderState, Partial<Record<WorkOrderAction, Transition>>> = {
  1: {
    edit: { roles: ['creator'], to: 'same' },
    receive: { roles: ['handler'], to: 2 },
    transfer: { roles: ['handler'], to: 1 },
    refuse: { roles: ['handler'], to: 5 },
    delete: { roles: ['creator'], to: null },
  },
  2: {
    edit: { roles: ['creator'], to: 'same' },
    transfer: { roles: ['handler'], to: 1 },
    complete: { roles: ['handler'], to: 3 },
  },
  3: {
    pass: { roles: ['reviewer'], to: 4 },
    refuse: { roles: ['reviewer'], to: 2 },
  },
  4: {},
  5: {
    // The creator edits the returned order and sends it again (to the same or another handler).
    edit: { roles: ['creator'], to: 1 },
    delete: { roles: ['creator'], to: null },
  },
};

/** The transition for a caller holding `roles` on an order, or why there is none. */
export const transitionFor = (
  state: WorkOrderState,
  action: WorkOrderAction,
  roles: readonly WorkOrderRole[],
): { ok: true; to: WorkOrderState | null } | { ok: false; reason: 'state' | 'role' } => {
  const t = workOrderMachine[state]?.[action];
  if (!t) return { ok: false, reason: 'state' };
  if (!t.roles.some((r) => roles.includes(r))) return { ok: false, reason: 'role' };
  return { ok: true, to: t.to === 'same' ? state : t.to };
};

const orderFields = {
  description: text(2000).describe('Problem description.'),
  priority: workOrderPriority.describe('1 low, 2 medium, 3 high, 4 serious, 5 urgent.'),
  handler_id: id.describe('Handler (a user).'),
  reviewer_id: id.describe('Reviewer (a user).'),
  deadline_hours: z.number().min(0.1).max(8760).describe('Deadline length in hours (> 0); deadline = send time + it.'),
  device_group_id: id.nullable().default(null).describe('Site the order concerns, or null.'),
};

export const createWorkOrderBody = z.object({ ...orderFields, alarm_id: id.nullable().default(null), t: tParam });

/** PUT work_order/{id}: one action of the table. */
export const workOrderActionBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('edit'), ...orderFields, t: tParam }),
  z.object({ action: z.literal('receive'), t: tParam }),
  z.object({ action: z.literal('transfer'), handler_id: id.describe('New handler.'), comment: text(500), t: tParam }),
  z.object({ action: z.literal('refuse'), comment: text(500), t: tParam }),
  z.object({
    action: z.literal('complete'),
    processing_method: text(2000),
    /** 'fixed' may require the linked alarm to be recovered first (the dispatch rule's setting). */
    resolution: z.enum(['fixed', 'other']),
    t: tParam,
  }),
  z.object({ action: z.literal('pass'), comment: z.string().trim().max(500).default(''), t: tParam }),
]);
export type WorkOrderActionBody = z.infer<typeof workOrderActionBody>;

export const workOrderRow = z.object({
  id: z.number().int(),
  number: z.string().describe('Work order number.'),
  description: z.string(),
  priority: z.number().int(),
  state: z.number().int(),
  handler_id: z.number().int(),
  handler: z.string(),
  creator_id: z.number().int().describe('0: created by automatic dispatch.'),
  creator: z.string(),
  reviewer_id: z.number().int(),
  reviewer: z.string(),
  device_group_id: z.number().int().nullable(),
  alarm_id: z.number().int().nullable(),
  alarm_level: z.number().int().nullable(),
  dispatch: z.enum(['self', 'manual', 'auto']),
  deadline_hours: z.number(),
  deadline: z.number().int().describe('Epoch seconds.'),
  processing_method: z.string(),
  resolution: z.string(),
  comment: z.string().describe('Last comment (refuse, transfer, pass).'),
  require_recovered: z.boolean(),
  on_duty: z.string().describe('Who was on duty (the duty table) when the order was made; empty: nobody.'),
  creation_time: z.number().int(),
  received_at: z.number().int().nullable(),
  transferred_at: z.number().int().nullable(),
  refused_at: z.number().int().nullable(),
  submitted_at: z.number().int().nullable(),
  reviewed_at: z.number().int().nullable(),
  completed_at: z.number().int().nullable(),
  /** What the caller may do now (from the machine): the web shows these buttons. */
  actions: z.array(workOrderAction),
});
export type WorkOrderRow = z.infer<typeof workOrderRow>;

export const workOrderHistoryRow = z.object({
  id: z.number().int(),
  action: z.string(),
  from_state: z.number().int().nullable(),
  to_state: z.number().int().nullable(),
  user_id: z.number().int(),
  user_name: z.string(),
  comment: z.string(),
  time: z.number().int(),
});
export const workOrderFile = z.object({
  id: z.number().int(),
  url: z.string(),
  name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  created_at: z.number().int(),
});
export type WorkOrderFile = z.infer<typeof workOrderFile>;
export const workOrderInfo = workOrderRow.extend({
  history: z.array(workOrderHistoryRow),
  files: z.array(workOrderFile),
});
export type WorkOrderInfo = z.infer<typeof workOrderInfo>;

/** Tabs of /work_order (query index): 0 to handle, 1 created by me, 2 to review, 3 all of my sites. */
export const workOrderListQuery = pageQuery.extend({
  index: z.coerce.number().int().min(0).max(3).default(0),
  state: z.coerce.number().int().min(1).max(5).optional(),
  alarm_id: id.optional(),
});

/** Automatic dispatch rule (002 §3 work-order set): which alarm levels and sites raise an order, to whom. */
export const workOrderSet = z.object({
  id: z.number().int(),
  name: z.string(),
  enable: z.boolean(),
  levels: z.array(z.number().int()),
  device_group_ids: z
    .array(z.number().int())
    .describe('Sites; empty: every site. Only the sites granted to the caller are listed.'),
  handler_id: z.number().int(),
  reviewer_id: z.number().int(),
  priority: z
    .number()
    .int()
    .nullable()
    .describe('The priority of its orders; null: from the alarm level (priorityOfLevel).'),
  deadline_hours: z.number(),
  require_recovered: z.boolean().describe('Closing as "fixed" needs the linked alarm recovered.'),
  handler_on_duty: z
    .boolean()
    .describe('The handler is the person on duty when the alarm is raised; the rule’s handler when nobody is.'),
  editable: z
    .boolean()
    .describe(
      'Whether the caller may change the rule: they hold every site it names (every site, when it names none).',
    ),
});
export type WorkOrderSet = z.infer<typeof workOrderSet>;
export const workOrderSetBody = z.object({
  name: text(100),
  enable: z.boolean(),
  levels: z.array(z.number().int().min(1).max(5)).min(1).max(5),
  device_group_ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(500),
  handler_id: id,
  reviewer_id: id,
  priority: workOrderPriority.nullable().default(null).describe('null (or absent): from the alarm level.'),
  deadline_hours: z.number().min(0.1).max(8760),
  require_recovered: z.boolean(),
  handler_on_duty: z.boolean().default(false),
  t: tParam,
});

export const statisticsQuery = z.object({
  start: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  end: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  t: tParam,
});
const count = z.object({ key: z.number().int(), name: z.string(), count: z.number().int() });
export const workOrderStatistics = z.object({
  total: z.number().int(),
  overdue: z.number().int().describe('Open past their deadline, or finished after it.'),
  by_state: z.array(count),
  by_priority: z.array(count),
  by_handler: z.array(count),
  avg_receive_seconds: z.number().nullable(),
  avg_complete_seconds: z.number().nullable(),
});
export const monthQuery = z.object({ year: z.coerce.number().int().min(2000).max(2100), t: tParam });
export const seriesRow = z.object({ label: z.string(), created: z.number().int(), completed: z.number().int() });

/** The order of each alarm (the alarm list's column and link). */
export const alarmOrderRow = z.object({
  alarm_id: z.number().int(),
  id: z.number().int(),
  number: z.string(),
  state: z.number().int(),
});
export type AlarmOrderRow = z.infer<typeof alarmOrderRow>;

export const workOrderRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'work_order',
    summary: 'Work orders of a tab (index) and state',
    tags,
    query: workOrderListQuery,
    response: pageOf(workOrderRow),
  }),
  create: defineRoute({
    method: 'POST',
    path: 'work_order',
    summary: 'Create a work order (self-dispatch when the handler is the caller)',
    tags,
    body: createWorkOrderBody,
    response: workOrderRow,
  }),
  act: defineRoute({
    method: 'PUT',
    path: 'work_order/:id',
    summary: 'One action of the state machine on a work order',
    tags,
    params: z.object({ id }),
    body: workOrderActionBody,
    response: workOrderRow,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: 'work_order/:id',
    summary: 'Delete a work order (its creator, while waiting to receive or returned)',
    tags,
    params: z.object({ id }),
    response: z.null(),
  }),
  info: defineRoute({
    method: 'GET',
    path: 'work_order_info',
    summary: 'A work order with its history and attachments',
    tags,
    query: z.object({ id, t: tParam }),
    response: workOrderInfo,
  }),
  notReceived: defineRoute({
    method: 'GET',
    path: 'work_order/not_received',
    summary: 'Summary of the caller’s orders not received yet (the shell asks every 30 s)',
    tags,
    query: z.object({ t: tParam }),
    response: z.object({ count: z.number().int(), creation_time: z.number().int().nullable() }),
  }),
  ofAlarms: defineRoute({
    method: 'GET',
    path: 'work_order/of_alarms',
    summary: 'The work orders of these alarms that the caller may see (comma-separated alarm ids)',
    tags,
    query: z.object({
      alarm_ids: z
        .string()
        .regex(/^\d{1,10}(,\d{1,10}){0,199}$/)
        .describe('Up to 200 alarm ids, comma-separated.'),
      t: tParam,
    }),
    response: z.array(alarmOrderRow),
  }),
  users: defineRoute({
    method: 'GET',
    path: 'work_order/users',
    summary: 'People who may be chosen as handler or reviewer (enabled users)',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(z.object({ id: z.number().int(), name: z.string() })),
  }),
  sets: defineRoute({
    method: 'GET',
    path: 'work_order_set',
    summary: 'Automatic dispatch rules',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(workOrderSet),
  }),
  putSet: defineRoute({
    method: 'PUT',
    path: 'work_order_set/:id',
    summary: 'Create (id 0: the next free number) or change an automatic dispatch rule',
    tags,
    params: z.object({ id: z.coerce.number().int().min(0).max(1000) }),
    body: workOrderSetBody,
    response: workOrderSet,
  }),
  statistics: defineRoute({
    method: 'GET',
    path: 'work_order_main_page',
    summary: 'Counts by state, priority, handler; overdue; times to receive and complete',
    tags,
    query: statisticsQuery,
    response: workOrderStatistics,
  }),
  month: defineRoute({
    method: 'GET',
    path: 'work_order_main_page/month',
    summary: 'Orders created and completed per month of a year',
    tags,
    query: monthQuery,
    response: z.array(seriesRow),
  }),
  time: defineRoute({
    method: 'GET',
    path: 'work_order_main_page/time',
    summary: 'Orders created and completed per day of a range',
    tags,
    query: statisticsQuery,
    response: z.array(seriesRow),
  }),
} as const;

/** Attachments are multipart (field `file`, field `id` the order), outside the JSON contract. */
export const workOrderUploads = {
  path: '/api/v1/work_order/file',
  filePath: '/api/v1/work_order/file/:name',
  /** 002 §5.1: images at most 1 MB; work-order attachments jpg and png only. */
  maxBytes: 1024 * 1024,
  fileParams: z.object({ name: z.string().regex(/^[0-9a-f]{32}\.(png|jpg)$/) }),
} as const;

/** Pushed to the users of an order when it changes (a new order reaches its handler at once). */
export const workOrderPushMessage = z.object({
  type: z.literal('work_order'),
  id: z.number().int(),
  state: z.number().int(),
  handler_id: z.number().int(),
});
