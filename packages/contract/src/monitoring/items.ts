import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { serialSettings } from './devices.ts';
import { msg, nonNegativeInt, optionalText, requiredText, stateCode, valueType } from './fields.ts';
import { itemSource } from './sources.ts';

// ---------- items ----------

const nullableNumber = z.number().finite().nullable();

export const itemInput = z
  .strictObject({
    device_id: z
      .number()
      .int()
      .min(1, { message: msg('device') })
      .max(2_147_483_647),
    name: requiredText(64, 'itemName'),
    /** The device's own name of the point (001 §3 item_cell_name). */
    item_cell_name: optionalText(64).default(''),
    unit: optionalText(16).default(''),
    location_id: z.number().int().min(0).max(2_147_483_647).default(0),
    value_type: valueType.default(1),
    threshold_min: nullableNumber.default(null),
    threshold_max: nullableNumber.default(null),
    /** Status items: the value that means abnormal (e.g. "1" for a leak). */
    status_threshold: optionalText(32).default(''),
    recovery_point: nullableNumber.default(null),
    overrun_point: nullableNumber.default(null),
    alarm_level: z.number().int().min(0).max(100).default(1),
    alarm_color: z
      .string()
      .regex(/^(#[0-9a-fA-F]{6})?$/, { message: msg('color') })
      .default(''),
    contact_group_id: z.number().int().min(0).max(2_147_483_647).default(0),
    working_period_id: z.number().int().min(0).max(2_147_483_647).default(0),
    overrun_action_id: z.number().int().min(0).max(2_147_483_647).default(0),
    recovery_action_id: z.number().int().min(0).max(2_147_483_647).default(0),
    check_interval: nonNegativeInt('checkInterval').default(10),
    repetitions: nonNegativeInt('repetitions').default(1),
    notification_interval: nonNegativeInt('notificationInterval').default(300),
    check_period_id: z.number().int().min(0).max(2_147_483_647).default(0),
    notification_period_id: z.number().int().min(0).max(2_147_483_647).default(0),
    alarm_period_id: z.number().int().min(0).max(2_147_483_647).default(0),
    source: itemSource,
    enable: z.boolean().default(true),
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
>;

/**
 * The item rules of 002 §5.1: numeric items need min and max with max not below min, and
 * recovery and overrun values; status items need a status threshold; the overrun action cannot
 * equal the recovery action.
 */
export const checkItemRules = (item: ItemRuleFields, ctx: z.RefinementCtx) => {
  if (item.value_type === 1) {
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
};

export const itemRow = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  device_name: z.string(),
  device_group_id: z.number().int(),
  name: z.string(),
  item_cell_name: z.string(),
  unit: z.string(),
  location_id: z.number().int(),
  value_type: valueType,
  threshold_min: z.number().nullable(),
  threshold_max: z.number().nullable(),
  status_threshold: z.string(),
  recovery_point: z.number().nullable(),
  overrun_point: z.number().nullable(),
  alarm_level: z.number().int(),
  alarm_color: z.string(),
  contact_group_id: z.number().int(),
  working_period_id: z.number().int(),
  overrun_action_id: z.number().int(),
  recovery_action_id: z.number().int(),
  check_interval: z.number().int(),
  repetitions: z.number().int(),
  notification_interval: z.number().int(),
  check_period_id: z.number().int(),
  notification_period_id: z.number().int(),
  alarm_period_id: z.number().int(),
  source: itemSource,
  enable: z.boolean(),
  state: stateCode,
  value: z.number().nullable(),
  last_check: z.number().int(),
  info: z.string(),
});
export type ItemRow = z.infer<typeof itemRow>;

export const itemListQuery = pageQuery.extend({
  device_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  device_group_id: z.coerce.number().int().min(-1).max(2_147_483_647).optional(),
  name: z.string().max(64).optional(),
  state: z.coerce.number().int().min(0).max(6).optional(),
});

/** PUT setting/items/bulk: the same settings for many items (002 §8 "batch update partial failure"). */
export const itemBulkUpdate = z.strictObject({
  ids: z
    .array(z.number().int().min(1).max(2_147_483_647))
    .min(1, { message: msg('ids') })
    .max(5000),
  set: z
    .strictObject({
      threshold_min: nullableNumber.optional(),
      threshold_max: nullableNumber.optional(),
      status_threshold: optionalText(32).optional(),
      recovery_point: nullableNumber.optional(),
      overrun_point: nullableNumber.optional(),
      alarm_level: z.number().int().min(0).max(100).optional(),
      alarm_color: z
        .string()
        .regex(/^(#[0-9a-fA-F]{6})?$/, { message: msg('color') })
        .optional(),
      contact_group_id: z.number().int().min(0).max(2_147_483_647).optional(),
      working_period_id: z.number().int().min(0).max(2_147_483_647).optional(),
      overrun_action_id: z.number().int().min(0).max(2_147_483_647).optional(),
      recovery_action_id: z.number().int().min(0).max(2_147_483_647).optional(),
      check_interval: nonNegativeInt('checkInterval').optional(),
      repetitions: nonNegativeInt('repetitions').optional(),
      notification_interval: nonNegativeInt('notificationInterval').optional(),
      check_period_id: z.number().int().min(0).max(2_147_483_647).optional(),
      notification_period_id: z.number().int().min(0).max(2_147_483_647).optional(),
      alarm_period_id: z.number().int().min(0).max(2_147_483_647).optional(),
      enable: z.boolean().optional(),
    })
    .refine((s) => Object.keys(s).length > 0, { message: msg('nothingToUpdate') }),
});
export const bulkResult = z.object({
  updated: z.number().int(),
  /** Items the change was refused for, with the reason (002 §8 "batch update partial failure"). */
  failed: z.array(z.object({ id: z.number().int(), message: z.string() })),
});

// ---------- time periods and serial ports ----------

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: msg('time') });
export const timeRange = z
  .strictObject({
    /** Days of the week, 1 Monday … 7 Sunday. */
    weekdays: z.array(z.number().int().min(1).max(7)).min(1).max(7),
    start: hhmm,
    end: hhmm,
  })
  .refine((r) => r.end >= r.start, { message: msg('endBeforeStart'), path: ['end'] });
export const timePeriodInput = z.strictObject({
  name: requiredText(64, 'periodName'),
  ranges: z
    .array(timeRange)
    .min(1, { message: msg('ranges') })
    .max(50),
});
export const timePeriodRow = z.object({
  id: z.number().int(),
  name: z.string(),
  ranges: z.array(z.object({ weekdays: z.array(z.number().int()), start: z.string(), end: z.string() })),
});

export const serialPortRow = serialSettings.extend({ present: z.boolean() });
export const serialPortInput = serialSettings.extend({ name: requiredText(100, 'serialName') });
