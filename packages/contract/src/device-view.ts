import { z } from 'zod';
import { pageOf, tParam, tzOffset } from './envelope.ts';
import { driverName, stateCode } from './monitoring.ts';
import { defineRoute } from './route.ts';
import { resolution, seriesPoint } from './series.ts';
import { storedNumber } from './stored-number.ts';

/**
 * The device pages of /station (002 §2.3 "device overview, details, log and curve"): one device's
 * identity and counts, its log (state changes, alarms, operations) and curves of its items.
 * The live items themselves come from `device_groups/device/item` (monitoring.ts).
 */

const msg = (key: string) => `monitoring.validation.${key}`;
const id = z.coerce.number().int().min(1).max(2_147_483_647);
const epoch = z.coerce.number().int().min(0).max(32_503_680_000);

export const deviceQuery = z.object({ device_id: id, t: tParam });

/** An open alarm of the device, as the overview lists it. */
export const deviceAlarm = z.object({
  /** The alarm record id (`status_id` of warning_operation). */
  id: z.number().int(),
  item_id: z.number().int(),
  item_name: z.string(),
  /** 'threshold' (an item's value) or 'communication' (the device gives no data). */
  kind: z.string(),
  status: z.number().int(),
  level: z.number().int(),
  color: z.string(),
  info: z.string(),
  value: storedNumber,
  start_time: z.number().int(),
  /** 0 unprocessed, 1 confirmed, 2 disabled, 3 processed. */
  handling: z.number().int(),
  confirmed_by: z.string(),
});
export type DeviceAlarm = z.infer<typeof deviceAlarm>;

export const deviceOverview = z.object({
  id: z.number().int(),
  name: z.string(),
  device_group_id: z.number().int(),
  /** Names of the device's site and its parents, top first. */
  site_path: z.array(z.string()),
  driver: driverName,
  /** Category code and its name in the caller's language. */
  code: z.string(),
  category_name: z.string(),
  template_id: z.number().int().nullable(),
  template_name: z.string(),
  /** Where the device is reached: `ip:port`, a serial port, or a broker address. */
  address: z.string(),
  protocol_id: z.number().int(),
  protocol_version: z.string(),
  check_interval: z.number().int(),
  enable: z.boolean(),
  state: stateCode,
  state_reason: z.string(),
  /** Since when the device is in its state (epoch seconds; 0 before the first poll). */
  state_time: z.number().int(),
  counts: z.object({
    total: z.number().int(),
    normal: z.number().int(),
    /** Abnormal, warning, serious, unknown or jitter. */
    abnormal: z.number().int(),
    /** Items with an open alarm. */
    alarming: z.number().int(),
  }),
  alarms: z.array(deviceAlarm),
  /**
   * Items a setpoint can be written to through the driver (simulator: any; Modbus: coils and
   * holding registers; SNMP: any, by SET; MQTT: items with a command topic).
   */
  writable_item_ids: z.array(z.number().int()),
  /** Newest check of any item of the device (epoch seconds; 0 when none yet). */
  last_update: z.number().int(),
});
export type DeviceOverview = z.infer<typeof deviceOverview>;

/** Kinds of device log entries. */
export const deviceLogKinds = ['state', 'alarm', 'operation'] as const;
export type DeviceLogKind = (typeof deviceLogKinds)[number];

export const deviceLogQuery = z
  .object({
    device_id: id,
    /** Comma-separated kinds to show (state, alarm, operation); all when absent. */
    kinds: z
      .string()
      .max(40)
      .regex(/^(state|alarm|operation)(,(state|alarm|operation))*$/, { message: 'deviceView.validation.logKinds' })
      .optional(),
    t1: epoch.optional(),
    t2: epoch.optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    limit: z.coerce.number().int().min(1).max(200).default(20),
    t: tParam,
  })
  .refine((q) => q.t1 === undefined || q.t2 === undefined || q.t2 >= q.t1, {
    message: msg('endBeforeStart'),
    path: ['t2'],
  });

/**
 * One entry of a device's log, newest first. `event` says what happened:
 * - state: `state` is the new device state and `prev_state` the one before (-1: none recorded),
 *   `detail` the collector's reason;
 * - alarm: `raise`, `recover`, `confirm`, `unconfirm`, `disable`, `enable`, `confirm_all`,
 *   `jitter_start`, `jitter_stop`, `escalate`; `detail` the alarm info or the remarks, `user_name` who;
 * - operation: `setpoint` (a write through the driver: `detail` the value), `device` (an edit of the
 *   device's settings), `item` (an edit of one of its items); `action` create/update/delete.
 */
export const deviceLogEntry = z.object({
  /** Unique within a device's log: kind and row id. */
  key: z.string(),
  kind: z.enum(deviceLogKinds),
  time: z.number().int(),
  event: z.string(),
  action: z.string(),
  state: z.number().int(),
  prev_state: z.number().int(),
  item_id: z.number().int(),
  item_name: z.string(),
  user_name: z.string(),
  detail: z.string(),
  /** 1 success, 0 failure (operations and notices). */
  result: z.number().int(),
});
export type DeviceLogEntry = z.infer<typeof deviceLogEntry>;

const itemIds = z
  .string()
  .max(400)
  .regex(/^\d{1,10}(,\d{1,10}){0,19}$/, { message: msg('items') })
  .transform((s) => [...new Set(s.split(',').map(Number))])
  .refine((ids) => ids.every((n) => n >= 1 && n <= 2_147_483_647), { message: msg('items') });

/**
 * Curves of up to 20 items (of this or other devices) over [t1, t2], each down-sampled by the
 * series store to at most `points` points. `shift` moves the read window back by that many seconds
 * (the "compare with a previous period" view): the points keep their own times.
 */
export const curveQuery = z
  .object({
    item_ids: itemIds,
    t1: epoch,
    t2: epoch,
    shift: z.coerce.number().int().min(0).max(3_153_600_000).default(0),
    points: z.coerce.number().int().min(2).max(2000).default(1000),
    t: tParam,
  })
  .refine((q) => q.t2 >= q.t1, { message: msg('endBeforeStart'), path: ['t2'] });

export const curveSeries = z.object({
  item_id: z.number().int(),
  item_name: z.string(),
  device_id: z.number().int(),
  device_name: z.string(),
  unit: z.string(),
  resolution,
  points: z.array(seriesPoint),
});
export type CurveSeries = z.infer<typeof curveSeries>;

/** POST body of the curve export: the series shown, with the previous period when compared. */
export const curveExportInput = z
  .strictObject({
    item_ids: z
      .array(z.number().int().min(1).max(2_147_483_647))
      .min(1, { message: msg('items') })
      .max(20),
    t1: z.number().int().min(0).max(32_503_680_000),
    t2: z.number().int().min(0).max(32_503_680_000),
    /** Seconds back of the compared period; 0: no comparison. */
    shift: z.number().int().min(0).max(3_153_600_000).default(0),
    points: z.number().int().min(2).max(2000).default(1000),
    tz_offset: tzOffset,
  })
  .refine((q) => q.t2 >= q.t1, { message: msg('endBeforeStart'), path: ['t2'] });

const tags = ['device-view'];
export const deviceViewRoutes = {
  overview: defineRoute({
    method: 'GET',
    path: 'device_groups/device/overview',
    summary: "One device's identity, state with reason and time, item counts and open alarms",
    tags,
    query: deviceQuery,
    response: deviceOverview,
  }),
  log: defineRoute({
    method: 'GET',
    path: 'device_groups/device/log',
    summary: "One device's state changes, alarm events and operations, newest first, paged",
    tags,
    query: deviceLogQuery,
    response: pageOf(deviceLogEntry),
  }),
  curve: defineRoute({
    method: 'GET',
    path: 'device_groups/device/curve',
    summary: 'Down-sampled curves of up to 20 items over a range (optionally shifted back)',
    tags,
    query: curveQuery,
    response: z.array(curveSeries),
  }),
  curveExport: defineRoute({
    method: 'POST',
    path: 'device_groups/device/curve/export',
    summary: 'The curves as an xlsx file (the same points as the chart)',
    tags,
    body: curveExportInput,
    response: z.null(),
  }),
};
