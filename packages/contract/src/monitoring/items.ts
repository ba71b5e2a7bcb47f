import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { storedNumber } from '../stored-number.ts';
import { serialSettings } from './devices.ts';
import { itemPurpose, msg, nonNegativeInt, optionalText, requiredText, stateCode, valueType } from './fields.ts';
import { type ItemSource, itemSource } from './sources.ts';

// ---------- items ----------

const nullableNumber = z.number().finite().nullable();

/** Maximum age of a value in seconds (0: none), at most a week (docs/monitoring.md "Maximum age"). */
const maxAge = z
  .number()
  .int({ message: msg('maxAge') })
  .min(0, { message: msg('maxAge') })
  .max(604_800, { message: msg('maxAge') });

/** An MQTT publisher that stays silent this long (s) has stopped: sensors publish every few seconds to a minute. */
export const defaultMqttMaxAge = 300;

/** The maximum age an item gets when none is given: MQTT values arrive only when sent, polled ones at each poll. */
export const defaultMaxAge = (kind: ItemSource['kind']): number => (kind === 'mqtt' ? defaultMqttMaxAge : 0);

export const itemInput = z
  .strictObject({
    device_id: z
      .number()
      .int()
      .min(1, { message: msg('device') })
      .max(2_147_483_647)
      .describe('Id of the device the item is read from.'),
    name: requiredText(64, 'itemName').describe('Item name, 1–64 characters.'),
    /** The device's own name of the point (001 §3 item_cell_name). */
    item_cell_name: optionalText(64)
      .default('')
      .describe("The device's own name of the point (e.g. a register or variable name); '' when none."),
    unit: optionalText(16).default('').describe('Unit shown after the value, e.g. °C, V, kWh.'),
    /** Omitted on an update: kept; on a create: none. */
    purpose: itemPurpose
      .optional()
      .describe(
        "What the item measures: room_temperature (the heat map draws these only), room_humidity, or '' none. Omitted: kept on an update, '' on a create.",
      ),
    /** Display only: values are stored and judged as read (docs/monitoring.md "Modbus"). */
    decimals: z
      .number()
      .int()
      .min(0)
      .max(6)
      .nullable()
      .default(null)
      .describe('Decimals the value is shown with (0–6), or null: as read. Stored values are not rounded.'),
    location_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Location id inside the site (0: none).'),
    value_type: valueType
      .default(1)
      .describe('1 numeric (judged against threshold_min/max), 0 status (judged against status_threshold).'),
    threshold_min: nullableNumber
      .default(null)
      .describe(
        'Lowest normal value; required for numeric items (value_type 1) unless telemetry_only; null for status items.',
      ),
    threshold_max: nullableNumber
      .default(null)
      .describe(
        'Highest normal value, not below threshold_min; required for numeric items (value_type 1) unless telemetry_only; null for status items.',
      ),
    /** Status items: the value that means abnormal (e.g. "1" for a leak). */
    status_threshold: optionalText(32)
      .default('')
      .describe(
        'The value that means abnormal, e.g. "1" for a leak; required for status items (value_type 0) unless telemetry_only.',
      ),
    recovery_point: nullableNumber
      .default(null)
      .describe(
        'Margin inside [min, max] a raised alarm must reach to clear (hysteresis); required for numeric items (value_type 1) unless telemetry_only.',
      ),
    overrun_point: nullableNumber
      .default(null)
      .describe(
        'Margin beyond min or max at which an alarm is raised; required for numeric items (value_type 1) unless telemetry_only.',
      ),
    alarm_level: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(1)
      .describe("Alarm level of the item's alarms (1 most severe … 5; 0 none)."),
    alarm_color: z
      .string()
      .regex(/^(#[0-9a-fA-F]{6})?$/, { message: msg('color') })
      .default('')
      .describe("Colour of the item in alarm, #rrggbb, or '' for the level's colour."),
    contact_group_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe("Contact group told of the item's alarms (0: none)."),
    working_period_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Time period in which the item is in service (0: always).'),
    overrun_action_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Action run when the item goes into alarm (0: none); differs from recovery_action_id.'),
    recovery_action_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Action run when the item recovers (0: none).'),
    confirm_action_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe("Action run when a person confirms the item's alarm (0: none), e.g. a buzzer off."),
    check_interval: nonNegativeInt('checkInterval')
      .default(0)
      .describe(
        "Seconds between two reads of the item (non-negative integer); 0: at every poll of its device. Read at the first poll of its device after the interval has run, so never more often than the device's interval. MQTT items take every message as it comes: their interval must be 0.",
      ),
    repetitions: nonNegativeInt('repetitions')
      .default(1)
      .describe('Consecutive checks a new state needs before it counts (0 and 1: at once).'),
    notification_interval: nonNegativeInt('notificationInterval')
      .default(300)
      .describe('Seconds between repeated notices of an unconfirmed alarm (0: once).'),
    check_period_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Time period in which samples are judged (0: always).'),
    notification_period_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Time period in which notices are sent (0: always).'),
    alarm_period_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Time period in which alarms are raised (0: always).'),
    source: itemSource.describe('Where the value is read, by driver (kind: simulator, modbus, snmp or mqtt).'),
    /**
     * A value only recorded (an energy counter): it carries no thresholds and never raises a
     * threshold alarm; a missing value is still unknown.
     */
    telemetry_only: z
      .boolean()
      .default(false)
      .describe('Only recorded (e.g. an energy counter): no thresholds, never a threshold alarm.'),
    /** Omitted: the driver's default (`defaultMaxAge`), stored as a number. */
    max_age: maxAge
      .optional()
      .describe(
        `Seconds a value may go without being refreshed before the item is unknown ("no value for N s") and its device's communication alarm may follow; 0: no limit. Omitted: ${defaultMqttMaxAge} for MQTT items, 0 for the others. Polled items count from the last change of the value.`,
      ),
    fault_alarm: z
      .boolean()
      .default(true)
      .describe(
        'Whether the item raises a point-fault alarm (level from the alarm parameters) when it cannot be read or judged: no value past its maximum age, not a number, a device exception, a payload that cannot be parsed.',
      ),
    enable: z.boolean().default(true).describe('Whether the item is checked.'),
  })
  .superRefine((item, ctx) => checkItemRules(item, ctx));
export type ItemInput = z.input<typeof itemInput>;
export type ItemValues = z.output<typeof itemInput>;

type ItemRuleFields = Pick<
  ItemValues,
  | 'value_type'
  | 'threshold_min'
  | 'threshold_max'
  | 'status_threshold'
  | 'recovery_point'
  | 'overrun_point'
  | 'overrun_action_id'
  | 'recovery_action_id'
> & {
  telemetry_only?: boolean | undefined;
  check_interval?: number | undefined;
  source?: { kind: string } | undefined;
};

/**
 * The item rules of 002 §5.1: numeric items need min and max with max not below min, and
 * recovery and overrun values; status items need a status threshold; the overrun action cannot
 * equal the recovery action. A telemetry-only item has none of these thresholds.
 */
export const checkItemRules = (item: ItemRuleFields, ctx: z.RefinementCtx) => {
  if (item.telemetry_only) {
    // Only recorded: a threshold would never be judged, so none is kept (no silent half-alarm).
    for (const f of ['threshold_min', 'threshold_max', 'recovery_point', 'overrun_point'] as const) {
      if (item[f] !== null) ctx.addIssue({ code: 'custom', path: [f], message: msg('telemetryThreshold') });
    }
    if (item.status_threshold) {
      ctx.addIssue({ code: 'custom', path: ['status_threshold'], message: msg('telemetryThreshold') });
    }
  } else if (item.value_type === 1) {
    if (item.threshold_min === null) ctx.addIssue({ code: 'custom', path: ['threshold_min'], message: msg('min') });
    if (item.threshold_max === null) ctx.addIssue({ code: 'custom', path: ['threshold_max'], message: msg('max') });
    if (item.threshold_min !== null && item.threshold_max !== null && item.threshold_max < item.threshold_min) {
      ctx.addIssue({ code: 'custom', path: ['threshold_max'], message: msg('maxBelowMin') });
    }
    if (item.recovery_point === null) {
      ctx.addIssue({ code: 'custom', path: ['recovery_point'], message: msg('recoveryPoint') });
    }
    if (item.overrun_point === null) {
      ctx.addIssue({ code: 'custom', path: ['overrun_point'], message: msg('overrunPoint') });
    }
  } else if (!item.status_threshold) {
    ctx.addIssue({ code: 'custom', path: ['status_threshold'], message: msg('statusThreshold') });
  }
  if (item.overrun_action_id !== 0 && item.overrun_action_id === item.recovery_action_id) {
    ctx.addIssue({ code: 'custom', path: ['recovery_action_id'], message: msg('sameAction') });
  }
  // An MQTT value comes when it is published, not when it is asked for: no interval can be kept.
  if (item.source?.kind === 'mqtt' && (item.check_interval ?? 0) > 0) {
    ctx.addIssue({ code: 'custom', path: ['check_interval'], message: msg('checkIntervalPushed') });
  }
};

export const itemRow = z.object({
  id: z.number().int().describe('Item id.'),
  device_id: z.number().int().describe('Id of its device.'),
  device_name: z.string().describe('Name of its device.'),
  device_group_id: z.number().int().describe("Id of the device's site."),
  name: z.string().describe('Item name.'),
  item_cell_name: z.string().describe("The device's own name of the point."),
  unit: z.string().describe('Unit of the value.'),
  purpose: itemPurpose.describe("What the item measures: room_temperature, room_humidity, or '' none."),
  decimals: z.number().int().nullable().describe('Decimals the value is shown with, or null: as read.'),
  location_id: z.number().int().describe('Location id (0: none).'),
  value_type: valueType.describe('1 numeric, 0 status.'),
  threshold_min: storedNumber.describe('Lowest normal value, or null.'),
  threshold_max: storedNumber.describe('Highest normal value, or null.'),
  status_threshold: z.string().describe('Status items: the value that means abnormal.'),
  recovery_point: storedNumber.describe('Hysteresis margin for clearing, or null.'),
  overrun_point: storedNumber.describe('Margin beyond min/max for raising, or null.'),
  alarm_level: z.number().int().describe('Alarm level (0: none).'),
  alarm_color: z.string().describe("Colour in alarm, or ''."),
  contact_group_id: z.number().int().describe('Contact group told (0: none).'),
  working_period_id: z.number().int().describe('Working time period (0: always).'),
  overrun_action_id: z.number().int().describe('Action on alarm (0: none).'),
  recovery_action_id: z.number().int().describe('Action on recovery (0: none).'),
  confirm_action_id: z.number().int().describe('Action on confirmation (0: none).'),
  check_interval: z.number().int().describe('Seconds between two checks.'),
  repetitions: z.number().int().describe('Consecutive checks before a new state counts.'),
  notification_interval: z.number().int().describe('Seconds between repeated notices.'),
  check_period_id: z.number().int().describe('Check time period (0: always).'),
  notification_period_id: z.number().int().describe('Notification time period (0: always).'),
  alarm_period_id: z.number().int().describe('Alarm time period (0: always).'),
  source: itemSource.describe('Where the value is read.'),
  telemetry_only: z.boolean().describe('Only recorded, no thresholds.'),
  max_age: z
    .number()
    .int()
    .describe('Seconds a value may go without being refreshed before the item is unknown (0: no limit).'),
  fault_alarm: z.boolean().describe('Whether the item raises a point-fault alarm when it cannot be read.'),
  enable: z.boolean().describe('Whether the item is checked.'),
  state: stateCode.describe(
    'Item state: 0 not ready, 1 normal, 2 abnormal, 3 warning, 4 unknown, 5 serious, 6 jitter.',
  ),
  value: storedNumber.describe('Last value (scaled), or null when there is none or it is unknown.'),
  last_check: z.number().int().describe('Time of the last check (epoch seconds).'),
  info: z.string().describe("Why the item is in its state (e.g. why it is unknown), or ''."),
});
export type ItemRow = z.infer<typeof itemRow>;

export const itemListQuery = pageQuery.extend({
  device_id: z.coerce.number().int().min(1).max(2_147_483_647).optional().describe('Only items of this device.'),
  device_group_id: z.coerce
    .number()
    .int()
    .min(-1)
    .max(2_147_483_647)
    .optional()
    .describe('Only items of this site (-1: all sites).'),
  name: z.string().max(64).optional().describe('Only items whose name contains this text.'),
  state: z.coerce.number().int().min(0).max(6).optional().describe('Only items in this state (0–6).'),
});

/** PUT setting/items/bulk: the same settings for many items (002 §8 "batch update partial failure"). */
export const itemBulkUpdate = z.strictObject({
  ids: z
    .array(z.number().int().min(1).max(2_147_483_647))
    .min(1, { message: msg('ids') })
    .max(5000)
    .describe('Ids of the items to change (1–5000).'),
  set: z
    .strictObject({
      threshold_min: nullableNumber.optional().describe('Lowest normal value.'),
      threshold_max: nullableNumber.optional().describe('Highest normal value.'),
      status_threshold: optionalText(32).optional().describe('Status items: the value that means abnormal.'),
      recovery_point: nullableNumber.optional().describe('Hysteresis margin for clearing.'),
      overrun_point: nullableNumber.optional().describe('Margin beyond min/max for raising.'),
      alarm_level: z.number().int().min(0).max(100).optional().describe('Alarm level (0: none).'),
      alarm_color: z
        .string()
        .regex(/^(#[0-9a-fA-F]{6})?$/, { message: msg('color') })
        .optional()
        .describe("Colour in alarm, #rrggbb or ''."),
      contact_group_id: z.number().int().min(0).max(2_147_483_647).optional().describe('Contact group told (0: none).'),
      working_period_id: z
        .number()
        .int()
        .min(0)
        .max(2_147_483_647)
        .optional()
        .describe('Working time period (0: always).'),
      overrun_action_id: z.number().int().min(0).max(2_147_483_647).optional().describe('Action on alarm (0: none).'),
      recovery_action_id: z
        .number()
        .int()
        .min(0)
        .max(2_147_483_647)
        .optional()
        .describe('Action on recovery (0: none).'),
      confirm_action_id: z
        .number()
        .int()
        .min(0)
        .max(2_147_483_647)
        .optional()
        .describe('Action on confirmation (0: none).'),
      check_interval: nonNegativeInt('checkInterval').optional().describe('Seconds between two checks.'),
      repetitions: nonNegativeInt('repetitions').optional().describe('Consecutive checks before a new state counts.'),
      notification_interval: nonNegativeInt('notificationInterval')
        .optional()
        .describe('Seconds between repeated notices.'),
      check_period_id: z.number().int().min(0).max(2_147_483_647).optional().describe('Check time period (0: always).'),
      notification_period_id: z
        .number()
        .int()
        .min(0)
        .max(2_147_483_647)
        .optional()
        .describe('Notification time period (0: always).'),
      alarm_period_id: z.number().int().min(0).max(2_147_483_647).optional().describe('Alarm time period (0: always).'),
      decimals: z
        .number()
        .int()
        .min(0)
        .max(6)
        .nullable()
        .optional()
        .describe('Decimals the value is shown with (0–6), or null: as read.'),
      max_age: maxAge
        .optional()
        .describe('Seconds a value may go without being refreshed before the item is unknown; 0: no limit.'),
      fault_alarm: z
        .boolean()
        .optional()
        .describe('Whether the items raise a point-fault alarm when they cannot be read.'),
      enable: z.boolean().optional().describe('Whether the items are checked.'),
      purpose: itemPurpose
        .optional()
        .describe(
          "What the items measure: room_temperature (the heat map draws these only), room_humidity, or '' none.",
        ),
    })
    .refine((s) => Object.keys(s).length > 0, { message: msg('nothingToUpdate') })
    .describe('The fields to set on every one of them (at least one); same meaning as in an item.'),
});
export const bulkResult = z.object({
  updated: z.number().int().describe('Number of items changed.'),
  /** Items the change was refused for, with the reason (002 §8 "batch update partial failure"). */
  failed: z
    .array(
      z.object({
        id: z.number().int().describe('Id of the item refused.'),
        message: z.string().describe('Why it was refused.'),
      }),
    )
    .describe('Items the change was refused for, with the reason.'),
});

// ---------- time periods and serial ports ----------

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: msg('time') });
export const timeRange = z
  .strictObject({
    /** Days of the week, 1 Monday … 7 Sunday. */
    weekdays: z.array(z.number().int().min(1).max(7)).min(1).max(7).describe('Days of the week, 1 Monday … 7 Sunday.'),
    start: hhmm.describe('Start time, HH:MM.'),
    end: hhmm.describe('End time, HH:MM, not before start.'),
  })
  .refine((r) => r.end >= r.start, { message: msg('endBeforeStart'), path: ['end'] });
export const timePeriodInput = z.strictObject({
  name: requiredText(64, 'periodName').describe('Name of the time period.'),
  ranges: z
    .array(timeRange)
    .min(1, { message: msg('ranges') })
    .max(50)
    .describe('Ranges of the period: days of the week with a start and end time (HH:MM).'),
});
export const timePeriodRow = z.object({
  id: z.number().int().describe('Time period id.'),
  name: z.string().describe('Name.'),
  ranges: z
    .array(
      z.object({
        weekdays: z.array(z.number().int()).describe('Days of the week, 1 Monday … 7 Sunday.'),
        start: z.string().describe('Start time, HH:MM.'),
        end: z.string().describe('End time, HH:MM.'),
      }),
    )
    .describe('Days of the week (1 Monday … 7 Sunday) with start and end times (HH:MM).'),
});

export const serialPortRow = serialSettings.extend({
  present: z.boolean().describe('Whether the port exists on this server now.'),
});
export const serialPortInput = serialSettings.extend({
  name: requiredText(100, 'serialName').describe('Serial port name, e.g. /dev/ttyS0 or /dev/ttyUSB0.'),
});
