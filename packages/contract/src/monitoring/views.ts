import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { storedNumber } from '../stored-number.ts';
import { driverName, stateCode, valueType } from './fields.ts';

// ---------- monitoring views (002 §7.3) ----------

export const liveItem = z.object({
  id: z.number().int().describe('Item id.'),
  name: z.string().describe('Item name.'),
  item_cell_name: z.string().describe("The device's own name of the point."),
  unit: z.string().describe('Unit of the value.'),
  /** Display decimals of the item (null: as read); the value itself is never rounded. */
  decimals: z.number().int().nullable().describe('Decimals the value is shown with, or null: as read.'),
  value_type: valueType.describe('1 numeric, 0 status.'),
  value: storedNumber.describe('Current value, or null when unknown.'),
  state: stateCode.describe(
    'Item state: 0 not ready, 1 normal, 2 abnormal, 3 warning, 4 unknown, 5 serious, 6 jitter.',
  ),
  last_check: z.number().int().describe('Time of the last check (epoch seconds).'),
  info: z.string().describe("Why the item is in its state, or ''."),
  alarm_color: z.string().describe("Colour in alarm, or ''."),
  /** Whether the item is in alarm (001 §3 "items carry info and an alarm flag"). */
  alarm: z.boolean().describe('Whether the item is in alarm.'),
});
export type LiveItem = z.infer<typeof liveItem>;

export const liveDevice = z.object({
  id: z.number().int().describe('Device id.'),
  name: z.string().describe('Device name.'),
  driver: driverName.describe('How the device is read.'),
  code: z.string().describe('Category code.'),
  device_group_id: z.number().int().describe('Id of its site.'),
  state: stateCode.describe('Device state (0–6, as items).'),
  state_reason: z.string().describe("Why the device is in that state, or ''."),
  state_time: z.number().int().describe('When the state began (epoch seconds).'),
  items: z.array(liveItem).describe('Live values of its items.'),
});
export type LiveDevice = z.infer<typeof liveDevice>;

export const dataQuery = z.object({
  device_group_id: z.coerce
    .number()
    .int()
    .min(-1)
    .max(2_147_483_647)
    .describe('Site whose devices are answered (-1: all sites granted to the caller).'),
  t: z
    .union([z.coerce.number(), z.string()])
    .optional()
    .describe("Cache buster of the spec's client: accepted and ignored."),
});
export const deviceItemQuery = z.object({
  device_id: z.coerce.number().int().min(1).max(2_147_483_647).describe('Device id.'),
  /** Comma-separated item_cell_names to keep (001 §7 "station items per device"). */
  cell_names: z.string().max(2000).optional().describe('Comma-separated item_cell_names to keep (default: all items).'),
  t: z
    .union([z.coerce.number(), z.string()])
    .optional()
    .describe("Cache buster of the spec's client: accepted and ignored."),
});
/** PUT device_groups/device/item: write a setpoint or command to a device through its driver. */
export const itemCommand = z.strictObject({
  item_id: z.number().int().min(1).max(2_147_483_647).describe('Item to write (its source must be writable).'),
  value: z
    .number()
    .finite()
    .describe("Value to write, in the item's unit (before scale); checked against the item's data type."),
});

export const dataviewQuery = pageQuery.extend({
  device_group_id: z.coerce
    .number()
    .int()
    .min(-1)
    .max(2_147_483_647)
    .optional()
    .describe('Only items of this site (-1: all sites).'),
  device_id: z.coerce.number().int().min(1).max(2_147_483_647).optional().describe('Only items of this device.'),
  name: z.string().max(64).optional().describe('Only items whose name contains this text.'),
  state: z.coerce.number().int().min(0).max(6).optional().describe('Only items in this state (0–6).'),
});
export const dataviewRow = liveItem.extend({
  device_id: z.number().int().describe("Id of the item's device."),
  device_name: z.string().describe("Name of the item's device."),
  site: z.string().describe("Name of the device's site."),
});

export const statisticsRow = z.object({
  device_groups: z.number().int().describe('Number of sites.'),
  devices: z.number().int().describe('Number of devices.'),
  items: z.number().int().describe('Number of items.'),
  item_normal: z.number().int().describe('Items in the normal state.'),
  item_abnormal: z.number().int().describe('Items not normal.'),
});
