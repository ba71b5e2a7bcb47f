import { z } from 'zod';

/** Shared fields of the monitoring contract: states, ids, text rules (002 §5.1). */

/** Virtual device group id (001 §9, 000 §9): "all sites" in pickers; never stored. */
export const virtualDeviceGroupId = -1;

/**
 * Item and device states (002 §4), as stored numbers.
 * 0 not ready, 1 normal, 2 abnormal, 3 warning (alarm), 4 unknown, 5 serious, 6 jitter.
 */
export const monitorStates = ['not_ready', 'normal', 'abnormal', 'warning', 'unknown', 'serious', 'jitter'] as const;
export type MonitorStateName = (typeof monitorStates)[number];
export const monitorState = {
  notReady: 0,
  normal: 1,
  abnormal: 2,
  warning: 3,
  unknown: 4,
  serious: 5,
  jitter: 6,
} as const;
export const stateCode = z.number().int().min(0).max(6);

/**
 * What an item measures, for views that need one kind of value rather than any value that looks
 * like it (issue 38): the heat map draws room temperatures only, never a UPS's battery temperature
 * or a device's internal one. '' none of these. Set on the item, or on its template's point.
 */
export const itemPurposes = ['', 'room_temperature', 'room_humidity'] as const;
export const itemPurpose = z.enum(itemPurposes);
export type ItemPurpose = z.infer<typeof itemPurpose>;

/** Value types (001 §9): 0 status, 1 numeric. */
export const valueType = z.union([z.literal(0), z.literal(1)]);

export const driverNames = ['simulator', 'modbus-tcp', 'modbus-rtu', 'snmp', 'mqtt', 'snmp-ifmib'] as const;
export const driverName = z.enum(driverNames);
export type DriverName = z.infer<typeof driverName>;

export const msg = (key: string) => `monitoring.validation.${key}`;
export const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const idParams = z.object({ id: id.describe('Id of the record.') });

/** Required non-blank text (002 §5.1 "cannot be empty"). */
export const requiredText = (max: number, key: string) =>
  z
    .string()
    .trim()
    .min(1, { message: msg(key) })
    .max(max, { message: msg('tooLong') });
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: msg('tooLong') });

/** Sort number: a positive integer not starting with 0 (002 §5.1). */
export const weightSchema = z.union([
  z
    .number()
    .int()
    .min(1, { message: msg('weight') })
    .max(999_999),
  z
    .string()
    .regex(/^[1-9]\d{0,5}$/, { message: msg('weight') })
    .transform(Number),
]);

/** Coordinates: integer part 0–180 (longitude) or 0–90 (latitude), at most 6 decimals (002 §5.1). */
export const coordinate = (max: number, key: string) =>
  z
    .number()
    .min(0, { message: msg(key) })
    .max(max, { message: msg(key) })
    .refine((v) => Number.isFinite(v) && Math.abs(Math.round(v * 1e6) - v * 1e6) < 1e-6, { message: msg(key) })
    .nullable();

/** Device name has no special characters (002 §5.1). */
export const deviceNamePattern = /^[\p{L}\p{N} _\-.()#/]+$/u;

export const nonNegativeInt = (key: string) =>
  z
    .number()
    .int({ message: msg(key) })
    .min(0, { message: msg(key) })
    .max(10_000_000, { message: msg(key) });
