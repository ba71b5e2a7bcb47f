import { z } from 'zod';
import { pageOf, pageQuery } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Sites (device groups), device categories and templates, devices, monitored items, time periods
 * and serial ports (002 §2.3, §3, §4, §5.1, §7.1, §7.3; 001 §3, §9). Validation messages are keys
 * of the shared locale files (`monitoring.validation.*`).
 */

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

/** Value types (001 §9): 0 status, 1 numeric. */
export const valueType = z.union([z.literal(0), z.literal(1)]);

export const driverNames = ['simulator', 'modbus-tcp', 'modbus-rtu', 'snmp', 'mqtt'] as const;
export const driverName = z.enum(driverNames);
export type DriverName = z.infer<typeof driverName>;

const msg = (key: string) => `monitoring.validation.${key}`;
const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const idParams = z.object({ id });

/** Required non-blank text (002 §5.1 "cannot be empty"). */
const requiredText = (max: number, key: string) =>
  z
    .string()
    .trim()
    .min(1, { message: msg(key) })
    .max(max, { message: msg('tooLong') });
const optionalText = (max: number) =>
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
const coordinate = (max: number, key: string) =>
  z
    .number()
    .min(0, { message: msg(key) })
    .max(max, { message: msg(key) })
    .refine((v) => Number.isFinite(v) && Math.abs(Math.round(v * 1e6) - v * 1e6) < 1e-6, { message: msg(key) })
    .nullable();

/** Device name has no special characters (002 §5.1). */
export const deviceNamePattern = /^[\p{L}\p{N} _\-.()#/]+$/u;

const nonNegativeInt = (key: string) =>
  z
    .number()
    .int({ message: msg(key) })
    .min(0, { message: msg(key) })
    .max(10_000_000, { message: msg(key) });

// ---------- sites ----------

export const siteInput = z.strictObject({
  name: requiredText(64, 'siteName'),
  parent_id: z.number().int().min(0).max(2_147_483_647).default(0),
  weight: weightSchema,
  has_device: z.boolean().default(true),
  longitude: coordinate(180, 'longitude').default(null),
  latitude: coordinate(90, 'latitude').default(null),
  background: optionalText(300).default(''),
  scene: optionalText(200).default(''),
  /** JSON text with map styles (001 §3 Site group `extend`). */
  extend: optionalText(20_000).default(''),
});
export type SiteInput = z.input<typeof siteInput>;

export const siteRow = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int(),
  weight: z.number().int(),
  has_device: z.boolean(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  background: z.string(),
  scene: z.string(),
  extend: z.string(),
  devices: z.array(z.object({ id: z.number().int(), category_id: z.number().int() })),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type SiteRow = z.infer<typeof siteRow>;

export const siteListQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  name: z.string().max(64).optional(),
  parent_id: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
});

export const copyInput = z.strictObject({
  /** How many copies (batch copy); each is named "<name>-<n>". */
  count: z
    .number()
    .int()
    .min(1, { message: msg('count') })
    .max(50, { message: msg('count') })
    .default(1),
  /** Sites: copy their devices and items too. */
  with_devices: z.boolean().default(true),
  /** Devices: the site the copies go to (default: the same site). */
  device_group_id: z.number().int().min(1).max(2_147_483_647).optional(),
});

export const idsQuery = z.object({
  ids: z
    .string()
    .max(2000)
    .regex(/^\d{1,10}(,\d{1,10})*$/, { message: msg('ids') })
    // Ids are 32-bit integers in both databases; a larger number would be a database error.
    .refine((s) => s.split(',').every((n) => Number(n) >= 1 && Number(n) <= 2_147_483_647), { message: msg('ids') })
    .transform((s) => s.split(',').map(Number)),
});

/** The site tree for the station page and pickers (002 §7.3 device_groups/menu). */
export interface SiteTreeNode {
  id: number;
  name: string;
  parent_id: number;
  weight: number;
  has_device: boolean;
  device_count: number;
  /** Devices in an abnormal, warning, serious or unknown state, this site only. */
  abnormal_count: number;
  children: SiteTreeNode[];
}
export const siteTreeNode: z.ZodType<SiteTreeNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    parent_id: z.number().int(),
    weight: z.number().int(),
    has_device: z.boolean(),
    device_count: z.number().int(),
    abnormal_count: z.number().int(),
    children: z.array(siteTreeNode),
  }),
);

// ---------- categories and templates ----------

export const categoryRow = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  enable: z.boolean(),
  weight: z.number().int(),
});
export const categoryUpdate = z.strictObject({
  name: requiredText(64, 'name'),
  enable: z.boolean(),
  weight: weightSchema,
});

/** Modbus data types; 32-bit types read two registers, big-endian words unless `_le` (word-swapped). */
export const modbusDataTypes = [
  'bool',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'float32',
  'int32_le',
  'uint32_le',
  'float32_le',
] as const;

/** How an item is read, by driver (the point table of a template). */
export const itemSource = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('simulator'),
    /**
     * analog: base ± spread over a daily-like cycle, with noise and a slow drift; counter: grows by
     * `base` per hour (energy); status: 0 normally, 1 for a while with probability `fault_rate`.
     */
    model: z.enum(['analog', 'counter', 'status']),
    base: z.number().finite().min(-1e9).max(1e9),
    spread: z.number().finite().min(0).max(1e9).default(0),
    noise: z.number().finite().min(0).max(1e9).default(0),
    period_s: z.number().int().min(10).max(10_000_000).default(86_400),
    fault_rate: z.number().min(0).max(1).default(0),
    decimals: z.number().int().min(0).max(6).default(1),
  }),
  z.strictObject({
    kind: z.literal('modbus'),
    /** 1 coils, 2 discrete inputs, 3 holding registers, 4 input registers. */
    function: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
    register: z.number().int().min(0).max(65535),
    data_type: z.enum(modbusDataTypes),
    scale: z.number().finite().default(1),
  }),
  z.strictObject({
    kind: z.literal('snmp'),
    oid: z
      .string()
      .regex(/^\.?\d+(\.\d+){1,127}$/, { message: msg('oid') })
      .max(400),
    scale: z.number().finite().default(1),
  }),
  z.strictObject({
    kind: z.literal('mqtt'),
    topic: z
      .string()
      .min(1)
      .max(300)
      .refine((t) => !/[+#]/.test(t), { message: msg('topic') }),
    /** Dotted path into the JSON payload, e.g. `data.temp`; empty when the payload is the number. */
    json_path: z.string().max(200).default(''),
    scale: z.number().finite().default(1),
    /** Where writes to this item are published (empty: not writable). */
    command_topic: z.string().max(300).default(''),
  }),
]);
export type ItemSource = z.infer<typeof itemSource>;

export const templateItem = z.object({
  name: z.string(),
  item_cell_name: z.string(),
  unit: z.string(),
  value_type: valueType,
  threshold_min: z.number().nullable(),
  threshold_max: z.number().nullable(),
  status_threshold: z.string(),
  source: itemSource,
});
export type TemplateItem = z.infer<typeof templateItem>;

export const deviceTemplateRow = z.object({
  id: z.number().int(),
  name: z.string(),
  category_code: z.string(),
  driver: driverName,
  items: z.array(templateItem),
});
export type DeviceTemplateRow = z.infer<typeof deviceTemplateRow>;

export const templateListQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  driver: driverName.optional(),
  category_code: z.string().max(32).optional(),
});

// ---------- devices ----------

export const serialSettings = z.strictObject({
  /** Port name, e.g. /dev/ttyS0 or /dev/ttyUSB0. */
  name: optionalText(100).default(''),
  baud_rate: z
    .union([
      z.literal(1200),
      z.literal(2400),
      z.literal(4800),
      z.literal(9600),
      z.literal(19200),
      z.literal(38400),
      z.literal(57600),
      z.literal(115200),
    ])
    .default(9600),
  data_bit: z.union([z.literal(5), z.literal(6), z.literal(7), z.literal(8)]).default(8),
  stop_bit: z.union([z.literal(1), z.literal(2)]).default(1),
  parity: z.enum(['none', 'even', 'odd']).default('none'),
  /** Listening TCP port for a serial server that connects to us (0: none). */
  listen_port: z.number().int().min(0).max(65535).default(0),
  passive: z.boolean().default(false),
  register_package: optionalText(100).default(''),
});
export type SerialSettings = z.infer<typeof serialSettings>;

/** Driver-specific options: SNMP community or v3 user, MQTT client options. */
export const deviceOptions = z.strictObject({
  community: optionalText(64).default('public'),
  v3_user: optionalText(64).default(''),
  v3_level: z.enum(['noAuthNoPriv', 'authNoPriv', 'authPriv']).default('authPriv'),
  v3_auth_protocol: z.enum(['md5', 'sha', 'sha256']).default('sha'),
  v3_auth_key: optionalText(128).default(''),
  v3_priv_protocol: z.enum(['des', 'aes']).default('aes'),
  v3_priv_key: optionalText(128).default(''),
  mqtt_username: optionalText(128).default(''),
  mqtt_password: optionalText(128).default(''),
  /** Reply timeout of one read, ms. */
  timeout_ms: z.number().int().min(100).max(60_000).default(3000),
});
export type DeviceOptions = z.infer<typeof deviceOptions>;

/** Device secrets never leave the server: answered as '' with a flag saying whether one is kept. */
export const deviceSecretFields = ['mqtt_password', 'v3_auth_key', 'v3_priv_key'] as const;
export const deviceOptionsRow = deviceOptions.extend({
  mqtt_password_set: z.boolean(),
  v3_auth_key_set: z.boolean(),
  v3_priv_key_set: z.boolean(),
});
export type DeviceOptionsRow = z.infer<typeof deviceOptionsRow>;

const port = z
  .number()
  .int({ message: msg('port') })
  .min(1, { message: msg('port') })
  .max(65535, { message: msg('port') });

export const deviceInput = z
  .strictObject({
    name: requiredText(64, 'deviceName').refine((v) => deviceNamePattern.test(v), { message: msg('deviceNameChars') }),
    device_group_id: z
      .number()
      .int()
      .min(1, { message: msg('site') })
      .max(2_147_483_647),
    driver: driverName,
    /** Category code (002 §3: "code for category"). */
    code: z.string().trim().min(1).max(32),
    template_id: z.number().int().min(1).max(2_147_483_647).nullable().default(null),
    ip: optionalText(253).default(''),
    port: port.nullable().default(null),
    protocol_id: z
      .number()
      .int({ message: msg('protocolId') })
      .min(1, { message: msg('protocolId') })
      .max(255, { message: msg('protocolId') })
      .default(1),
    classification_id: z.number().int().min(0).max(2_147_483_647).default(0),
    device_count: z
      .number()
      .int()
      .min(1, { message: msg('deviceCount') })
      .max(10_000)
      .default(1),
    serial: serialSettings.default(serialSettings.parse({})),
    zigbee_enable: z.boolean().default(false),
    /** 64-bit physical address, 16 hex digits. */
    zigbee_address: z
      .string()
      .regex(/^([0-9A-Fa-f]{16})?$/, { message: msg('zigbeeAddress') })
      .default(''),
    /** SNMP: v1, v2c or v3; Modbus and MQTT: free text. */
    protocol_version: optionalText(16).default(''),
    options: deviceOptions.default(deviceOptions.parse({})),
    check_interval: nonNegativeInt('checkInterval').default(10),
    enable: z.boolean().default(true),
  })
  .superRefine((d, ctx) => {
    const needsAddress = d.driver === 'modbus-tcp' || d.driver === 'snmp' || d.driver === 'mqtt';
    if (needsAddress && !d.ip) ctx.addIssue({ code: 'custom', path: ['ip'], message: msg('ip') });
    if (d.ip && !/^[A-Za-z0-9.\-:]+$/.test(d.ip)) ctx.addIssue({ code: 'custom', path: ['ip'], message: msg('ip') });
    if (needsAddress && d.port === null) ctx.addIssue({ code: 'custom', path: ['port'], message: msg('port') });
    if (d.driver === 'modbus-rtu' && !d.serial.name) {
      ctx.addIssue({ code: 'custom', path: ['serial', 'name'], message: msg('serialName') });
    }
    if (d.driver === 'snmp' && !['v1', 'v2c', 'v3'].includes(d.protocol_version)) {
      ctx.addIssue({ code: 'custom', path: ['protocol_version'], message: msg('snmpVersion') });
    }
    if (d.driver === 'snmp' && d.protocol_version === 'v3' && !d.options.v3_user) {
      ctx.addIssue({ code: 'custom', path: ['options', 'v3_user'], message: msg('v3User') });
    }
    if (d.zigbee_enable && !d.zigbee_address) {
      ctx.addIssue({ code: 'custom', path: ['zigbee_address'], message: msg('zigbeeAddress') });
    }
  });
export type DeviceInput = z.input<typeof deviceInput>;
export type DeviceValues = z.output<typeof deviceInput>;

export const deviceRow = z.object({
  id: z.number().int(),
  name: z.string(),
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  driver: driverName,
  code: z.string(),
  category_id: z.number().int(),
  template_id: z.number().int().nullable(),
  ip: z.string(),
  port: z.number().int().nullable(),
  protocol_id: z.number().int(),
  classification_id: z.number().int(),
  device_count: z.number().int(),
  serial: serialSettings,
  zigbee_enable: z.boolean(),
  zigbee_address: z.string(),
  protocol_version: z.string(),
  options: deviceOptionsRow,
  check_interval: z.number().int(),
  enable: z.boolean(),
  state: stateCode,
  state_reason: z.string(),
  state_time: z.number().int(),
  item_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type DeviceRow = z.infer<typeof deviceRow>;

export const deviceListQuery = pageQuery.extend({
  device_group_id: z.coerce.number().int().min(-1).max(2_147_483_647).optional(),
  name: z.string().max(64).optional(),
  driver: driverName.optional(),
  code: z.string().max(32).optional(),
  /** 000 §7: the dashboard asks for environment devices with category id 2. */
  device_template_category_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  state: z.coerce.number().int().min(0).max(6).optional(),
});

/** PUT setting/devices/bulk: the same change to many devices. */
export const deviceBulkUpdate = z.strictObject({
  ids: z
    .array(z.number().int().min(1).max(2_147_483_647))
    .min(1, { message: msg('ids') })
    .max(1000),
  device_group_id: z.number().int().min(1).max(2_147_483_647).optional(),
  check_interval: nonNegativeInt('checkInterval').optional(),
  enable: z.boolean().optional(),
  classification_id: z.number().int().min(0).max(2_147_483_647).optional(),
});

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

// ---------- routes ----------

const tags = ['monitoring'];
export const monitoringRoutes = {
  listSites: defineRoute({
    method: 'GET',
    path: 'setting/device_groups',
    summary: 'List sites',
    tags,
    query: siteListQuery,
    response: pageOf(siteRow),
  }),
  getSite: defineRoute({
    method: 'GET',
    path: 'setting/device_groups/:id',
    summary: 'One site',
    tags,
    params: idParams,
    response: siteRow,
  }),
  createSite: defineRoute({
    method: 'POST',
    path: 'setting/device_groups',
    summary: 'Add a site',
    tags,
    body: siteInput,
    response: siteRow,
  }),
  updateSite: defineRoute({
    method: 'PUT',
    path: 'setting/device_groups/:id',
    summary: 'Change a site',
    tags,
    params: idParams,
    body: siteInput,
    response: siteRow,
  }),
  deleteSite: defineRoute({
    method: 'DELETE',
    path: 'setting/device_groups/:id',
    summary: 'Delete a site (refused while it has devices or sub-sites)',
    tags,
    params: idParams,
    response: z.null(),
  }),
  deleteSites: defineRoute({
    method: 'DELETE',
    path: 'setting/device_groups',
    summary: 'Delete several sites (ids=1,2,3); all or none',
    tags,
    query: idsQuery,
    response: z.object({ deleted: z.number().int() }),
  }),
  copySite: defineRoute({
    method: 'POST',
    path: 'setting/device_groups/:id/copy',
    summary: 'Copy a site (count > 1: batch copy), with its devices and items',
    tags,
    params: idParams,
    body: copyInput,
    response: z.array(siteRow),
  }),
  siteMenu: defineRoute({
    method: 'GET',
    path: 'device_groups/menu',
    summary: 'Site tree with device counts',
    tags,
    response: z.array(siteTreeNode),
  }),
  listCategories: defineRoute({
    method: 'GET',
    path: 'setting/categorys',
    summary: 'Device categories',
    tags,
    response: pageOf(categoryRow),
  }),
  updateCategory: defineRoute({
    method: 'PUT',
    path: 'setting/categorys/:code',
    summary: 'Rename, order or disable a category',
    tags,
    params: z.object({ code: z.string().regex(/^[a-z_]{1,32}$/) }),
    body: categoryUpdate,
    response: categoryRow,
  }),
  listTemplates: defineRoute({
    method: 'GET',
    path: 'setting/device_templates',
    summary: 'Device templates and their items',
    tags,
    query: templateListQuery,
    response: pageOf(deviceTemplateRow),
  }),
  listDevices: defineRoute({
    method: 'GET',
    path: 'setting/devices',
    summary: 'List devices',
    tags,
    query: deviceListQuery,
    response: pageOf(deviceRow),
  }),
  getDevice: defineRoute({
    method: 'GET',
    path: 'setting/devices/:id',
    summary: 'One device',
    tags,
    params: idParams,
    response: deviceRow,
  }),
  createDevice: defineRoute({
    method: 'POST',
    path: 'setting/devices',
    summary: 'Add a device (its items come from the template)',
    tags,
    body: deviceInput,
    response: deviceRow,
  }),
  updateDevice: defineRoute({
    method: 'PUT',
    path: 'setting/devices/:id',
    summary: 'Change a device',
    tags,
    params: idParams,
    body: deviceInput,
    response: deviceRow,
  }),
  bulkUpdateDevices: defineRoute({
    method: 'PUT',
    path: 'setting/devices/bulk',
    summary: 'The same change to many devices',
    tags,
    body: deviceBulkUpdate,
    response: bulkResult,
  }),
  deleteDevice: defineRoute({
    method: 'DELETE',
    path: 'setting/devices/:id',
    summary: 'Delete a device and its items',
    tags,
    params: idParams,
    response: z.null(),
  }),
  copyDevice: defineRoute({
    method: 'POST',
    path: 'setting/devices/:id/copy',
    summary: 'Copy a device with its items (count > 1: batch copy)',
    tags,
    params: idParams,
    body: copyInput,
    response: z.array(deviceRow),
  }),
  listItems: defineRoute({
    method: 'GET',
    path: 'setting/items',
    summary: 'List monitored items',
    tags,
    query: itemListQuery,
    response: pageOf(itemRow),
  }),
  getItem: defineRoute({
    method: 'GET',
    path: 'setting/items/:id',
    summary: 'One monitored item',
    tags,
    params: idParams,
    response: itemRow,
  }),
  createItem: defineRoute({
    method: 'POST',
    path: 'setting/items',
    summary: 'Add a monitored item to a device',
    tags,
    body: itemInput,
    response: itemRow,
  }),
  updateItem: defineRoute({
    method: 'PUT',
    path: 'setting/items/:id',
    summary: 'Change a monitored item',
    tags,
    params: idParams,
    body: itemInput,
    response: itemRow,
  }),
  bulkUpdateItems: defineRoute({
    method: 'PUT',
    path: 'setting/items/bulk',
    summary: 'The same settings for many items; items the change would make invalid are listed',
    tags,
    body: itemBulkUpdate,
    response: bulkResult,
  }),
  deleteItem: defineRoute({
    method: 'DELETE',
    path: 'setting/items/:id',
    summary: 'Delete a monitored item',
    tags,
    params: idParams,
    response: z.null(),
  }),
  listTimePeriods: defineRoute({
    method: 'GET',
    path: 'setting/time_periods',
    summary: 'Time periods (check, notification, alarm, working)',
    tags,
    query: pageQuery,
    response: pageOf(timePeriodRow),
  }),
  createTimePeriod: defineRoute({
    method: 'POST',
    path: 'setting/time_periods',
    summary: 'Add a time period',
    tags,
    body: timePeriodInput,
    response: timePeriodRow,
  }),
  updateTimePeriod: defineRoute({
    method: 'PUT',
    path: 'setting/time_periods/:id',
    summary: 'Change a time period',
    tags,
    params: idParams,
    body: timePeriodInput,
    response: timePeriodRow,
  }),
  deleteTimePeriod: defineRoute({
    method: 'DELETE',
    path: 'setting/time_periods/:id',
    summary: 'Delete a time period (refused while items use it)',
    tags,
    params: idParams,
    response: z.null(),
  }),
  listSerialPorts: defineRoute({
    method: 'GET',
    path: 'setting/serial_port',
    summary: 'Serial ports of this host and their saved settings',
    tags,
    response: z.array(serialPortRow),
  }),
  saveSerialPort: defineRoute({
    method: 'POST',
    path: 'setting/serial_port',
    summary: 'Save the settings of one serial port',
    tags,
    body: serialPortInput,
    response: serialPortRow,
  }),
  modbusExcel: defineRoute({
    method: 'GET',
    path: 'setting/modbus_excel',
    summary: 'Download the Modbus point tables of the templates (xlsx)',
    tags,
    response: z.null(),
  }),
  snmpExcel: defineRoute({
    method: 'GET',
    path: 'setting/snmp_excel',
    summary: 'Download the SNMP OID tables of the templates (xlsx)',
    tags,
    response: z.null(),
  }),
  deviceData: defineRoute({
    method: 'GET',
    path: 'device_groups/device/data',
    summary: 'Devices of a site with state and live item values (-1: all sites)',
    tags,
    query: dataQuery,
    response: z.array(liveDevice),
  }),
  deviceItems: defineRoute({
    method: 'GET',
    path: 'device_groups/device/item',
    summary: 'Live items of one device',
    tags,
    query: deviceItemQuery,
    response: z.array(liveItem),
  }),
  writeItem: defineRoute({
    method: 'PUT',
    path: 'device_groups/device/item',
    summary: 'Write a setpoint or command to a device item through its driver',
    tags,
    body: itemCommand,
    response: z.object({ item_id: z.number().int(), value: z.number() }),
  }),
  dataview: defineRoute({
    method: 'GET',
    path: 'dataview',
    summary: 'Live values of items, paged',
    tags,
    query: dataviewQuery,
    response: pageOf(dataviewRow),
  }),
  statistics: defineRoute({
    method: 'GET',
    path: 'overview/statistics',
    summary: 'Counts of sites, devices and items by state (000 §3 statistics)',
    tags,
    response: statisticsRow,
  }),
};
