import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { deviceNamePattern, driverName, msg, nonNegativeInt, optionalText, requiredText, stateCode } from './fields.ts';

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
