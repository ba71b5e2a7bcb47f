import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { driverName, stateCode, valueType } from './fields.ts';

// ---------- monitoring views (002 §7.3) ----------

export const liveItem = z.object({
  id: z.number().int(),
  name: z.string(),
  item_cell_name: z.string(),
  unit: z.string(),
  value_type: valueType,
  value: z.number().nullable(),
  state: stateCode,
  last_check: z.number().int(),
  info: z.string(),
  alarm_color: z.string(),
  /** Whether the item is in alarm (001 §3 "items carry info and an alarm flag"). */
  alarm: z.boolean(),
});
export type LiveItem = z.infer<typeof liveItem>;

export const liveDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  driver: driverName,
  code: z.string(),
  device_group_id: z.number().int(),
  state: stateCode,
  state_reason: z.string(),
  state_time: z.number().int(),
  items: z.array(liveItem),
});
export type LiveDevice = z.infer<typeof liveDevice>;

export const dataQuery = z.object({
  device_group_id: z.coerce.number().int().min(-1).max(2_147_483_647),
  t: z.union([z.coerce.number(), z.string()]).optional(),
});
export const deviceItemQuery = z.object({
  device_id: z.coerce.number().int().min(1).max(2_147_483_647),
  /** Comma-separated item_cell_names to keep (001 §7 "station items per device"). */
  cell_names: z.string().max(2000).optional(),
  t: z.union([z.coerce.number(), z.string()]).optional(),
});
/** PUT device_groups/device/item: write a setpoint or command to a device through its driver. */
export const itemCommand = z.strictObject({
  item_id: z.number().int().min(1).max(2_147_483_647),
  value: z.number().finite(),
});

export const dataviewQuery = pageQuery.extend({
  device_group_id: z.coerce.number().int().min(-1).max(2_147_483_647).optional(),
  device_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  name: z.string().max(64).optional(),
  state: z.coerce.number().int().min(0).max(6).optional(),
});
export const dataviewRow = liveItem.extend({ device_id: z.number().int(), device_name: z.string(), site: z.string() });

export const statisticsRow = z.object({
  device_groups: z.number().int(),
  devices: z.number().int(),
  items: z.number().int(),
  item_normal: z.number().int(),
  item_abnormal: z.number().int(),
});
