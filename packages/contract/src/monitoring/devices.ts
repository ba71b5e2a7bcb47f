import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { deviceNamePattern, driverName, msg, nonNegativeInt, optionalText, requiredText, stateCode } from './fields.ts';

// ---------- devices ----------

export const serialSettings = z.strictObject({
  /** Port name, e.g. /dev/ttyS0 or /dev/ttyUSB0. */
  name: optionalText(100).default('').describe('Serial port name, e.g. /dev/ttyS0 or /dev/ttyUSB0 (modbus-rtu).'),
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
    .default(9600)
    .describe('Baud rate of the serial line.'),
  data_bit: z
    .union([z.literal(5), z.literal(6), z.literal(7), z.literal(8)])
    .default(8)
    .describe('Data bits per character (5–8).'),
  stop_bit: z
    .union([z.literal(1), z.literal(2)])
    .default(1)
    .describe('Stop bits (1 or 2).'),
  parity: z.enum(['none', 'even', 'odd']).default('none').describe('Parity: none, even or odd.'),
  /** Listening TCP port for a serial server that connects to us (0: none). */
  listen_port: z
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(0)
    .describe('TCP port on which a serial server connects to us (0: none).'),
  passive: z
    .boolean()
    .default(false)
    .describe('Whether we wait for the serial server to connect instead of connecting to it.'),
  register_package: optionalText(100)
    .default('')
    .describe('Registration packet a serial server sends first to identify itself (empty: none).'),
});
export type SerialSettings = z.infer<typeof serialSettings>;

/** Driver-specific options: SNMP community or v3 user, MQTT client options. */
export const deviceOptions = z.strictObject({
  community: optionalText(64)
    .default('public')
    .describe(
      "SNMP v1/v2c community (omitted on a new device: public). Write-only: answered as '' with community_set; '' on a change keeps the stored one.",
    ),
  v3_user: optionalText(64).default('').describe('SNMPv3 user name (required for v3).'),
  v3_level: z.enum(['noAuthNoPriv', 'authNoPriv', 'authPriv']).default('authPriv').describe('SNMPv3 security level.'),
  v3_auth_protocol: z.enum(['md5', 'sha', 'sha256']).default('sha').describe('SNMPv3 authentication protocol.'),
  v3_auth_key: optionalText(128)
    .default('')
    .describe("SNMPv3 authentication key. Write-only: answered as '' with v3_auth_key_set."),
  v3_priv_protocol: z.enum(['des', 'aes']).default('aes').describe('SNMPv3 privacy (encryption) protocol.'),
  v3_priv_key: optionalText(128)
    .default('')
    .describe("SNMPv3 privacy key. Write-only: answered as '' with v3_priv_key_set."),
  mqtt_username: optionalText(128).default('').describe('MQTT broker user name (empty: anonymous).'),
  mqtt_password: optionalText(128)
    .default('')
    .describe("MQTT broker password. Write-only: answered as '' with mqtt_password_set."),
  /** Reply timeout of one read, ms. */
  timeout_ms: z
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(3000)
    .describe('Reply timeout of one read, in milliseconds (100–60000).'),
  /** Modbus block reads (docs/monitoring.md "Modbus"): a refused block falls back to smaller reads. */
  modbus_merge: z
    .boolean()
    .default(true)
    .describe('Modbus: read neighbouring points of one table in one request (false: every point alone).'),
  modbus_merge_gap: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .describe('Modbus: unconfigured registers a merged read may span between two points (0–100; 0: adjacent only).'),
  modbus_max_block: z
    .number()
    .int()
    .min(1)
    .max(125)
    .default(64)
    .describe('Modbus: most registers or coils one request reads (1–125).'),
  modbus_address_base: z
    .union([z.literal(0), z.literal(1)])
    .default(0)
    .describe("Modbus: whether the items' register numbers count from 0 (as on the wire) or from 1 (as many manuals)."),
});
export type DeviceOptions = z.infer<typeof deviceOptions>;

/** Device secrets never leave the server: answered as '' with a flag saying whether one is kept. */
export const deviceSecretFields = ['community', 'mqtt_password', 'v3_auth_key', 'v3_priv_key'] as const;
export const deviceOptionsRow = deviceOptions.extend({
  community_set: z
    .boolean()
    .describe('Whether an SNMP v1/v2c community is kept (the community itself is never answered).'),
  mqtt_password_set: z.boolean().describe('Whether an MQTT password is kept (the password itself is never answered).'),
  v3_auth_key_set: z.boolean().describe('Whether an SNMPv3 authentication key is kept.'),
  v3_priv_key_set: z.boolean().describe('Whether an SNMPv3 privacy key is kept.'),
});
export type DeviceOptionsRow = z.infer<typeof deviceOptionsRow>;

const port = z
  .number()
  .int({ message: msg('port') })
  .min(1, { message: msg('port') })
  .max(65535, { message: msg('port') });

export const deviceInput = z
  .strictObject({
    name: requiredText(64, 'deviceName')
      .refine((v) => deviceNamePattern.test(v), { message: msg('deviceNameChars') })
      .describe('Device name, 1–64 characters: letters, digits, space and _ - . ( ) # / only.'),
    device_group_id: z
      .number()
      .int()
      .min(1, { message: msg('site') })
      .max(2_147_483_647)
      .describe('Id of the site the device belongs to.'),
    driver: driverName.describe(
      'How the device is read: simulator, modbus-tcp, modbus-rtu, snmp, mqtt, or snmp-ifmib (ports of a switch or router).',
    ),
    /** Category code (002 §3: "code for category"). */
    code: z.string().trim().min(1).max(32).describe('Category code of the device (see GET setting/device_categories).'),
    template_id: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .nullable()
      .default(null)
      .describe('Device template the device was made from (its point table), or null.'),
    ip: optionalText(253)
      .default('')
      .describe('Host name or IP address of the device or MQTT broker (required for modbus-tcp, snmp and mqtt).'),
    port: port
      .nullable()
      .default(null)
      .describe('TCP/UDP port, 1–65535 (Modbus TCP 502, SNMP 161, MQTT 1883); required with ip.'),
    protocol_id: z
      .number()
      .int({ message: msg('protocolId') })
      .min(1, { message: msg('protocolId') })
      .max(255, { message: msg('protocolId') })
      .default(1)
      .describe('Modbus unit (slave) id, 1–255.'),
    classification_id: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .default(0)
      .describe('Free classification id for grouping devices (0: none).'),
    device_count: z
      .number()
      .int()
      .min(1, { message: msg('deviceCount') })
      .max(10_000)
      .default(1)
      .describe('Number of physical devices this entry stands for (1–10000).'),
    serial: serialSettings.default(serialSettings.parse({})).describe('Serial line settings (modbus-rtu).'),
    zigbee_enable: z.boolean().default(false).describe('Whether the device is reached through a Zigbee gateway.'),
    /** 64-bit physical address, 16 hex digits. */
    zigbee_address: z
      .string()
      .regex(/^([0-9A-Fa-f]{16})?$/, { message: msg('zigbeeAddress') })
      .default('')
      .describe('Zigbee 64-bit physical address, 16 hex digits (required when zigbee_enable).'),
    /** SNMP: v1, v2c or v3; Modbus and MQTT: free text. */
    protocol_version: optionalText(16)
      .default('')
      .describe('SNMP version v1, v2c or v3 (required for snmp); free text for other drivers.'),
    options: deviceOptions
      .default(deviceOptions.parse({}))
      .describe('Driver options: SNMP community or v3 user and keys, MQTT credentials, read timeout.'),
    check_interval: nonNegativeInt('checkInterval')
      .default(10)
      .describe("Seconds between two polls of the device (0: the collector's default)."),
    enable: z.boolean().default(true).describe('Whether the device is polled.'),
  })
  .superRefine((d, ctx) => {
    const snmpLike = d.driver === 'snmp' || d.driver === 'snmp-ifmib';
    const needsAddress = d.driver === 'modbus-tcp' || snmpLike || d.driver === 'mqtt';
    if (needsAddress && !d.ip) ctx.addIssue({ code: 'custom', path: ['ip'], message: msg('ip') });
    if (d.ip && !/^[A-Za-z0-9.\-:]+$/.test(d.ip)) ctx.addIssue({ code: 'custom', path: ['ip'], message: msg('ip') });
    if (needsAddress && d.port === null) ctx.addIssue({ code: 'custom', path: ['port'], message: msg('port') });
    if (d.driver === 'modbus-rtu' && !d.serial.name) {
      ctx.addIssue({ code: 'custom', path: ['serial', 'name'], message: msg('serialName') });
    }
    if (snmpLike && !['v1', 'v2c', 'v3'].includes(d.protocol_version)) {
      ctx.addIssue({ code: 'custom', path: ['protocol_version'], message: msg('snmpVersion') });
    }
    if (snmpLike && d.protocol_version === 'v3' && !d.options.v3_user) {
      ctx.addIssue({ code: 'custom', path: ['options', 'v3_user'], message: msg('v3User') });
    }
    if (d.zigbee_enable && !d.zigbee_address) {
      ctx.addIssue({ code: 'custom', path: ['zigbee_address'], message: msg('zigbeeAddress') });
    }
  });
export type DeviceInput = z.input<typeof deviceInput>;
export type DeviceValues = z.output<typeof deviceInput>;

export const deviceRow = z.object({
  id: z.number().int().describe('Device id.'),
  name: z.string().describe('Device name.'),
  device_group_id: z.number().int().describe('Id of the site the device belongs to.'),
  device_group_name: z.string().describe('Name of that site.'),
  driver: driverName.describe('How the device is read.'),
  code: z.string().describe('Category code.'),
  category_id: z.number().int().describe('Id of the category of that code.'),
  template_id: z.number().int().nullable().describe('Device template it was made from, or null.'),
  ip: z.string().describe('Host name or IP address.'),
  port: z.number().int().nullable().describe('TCP/UDP port, or null.'),
  protocol_id: z.number().int().describe('Modbus unit (slave) id.'),
  classification_id: z.number().int().describe('Classification id (0: none).'),
  device_count: z.number().int().describe('Number of physical devices this entry stands for.'),
  serial: serialSettings.describe('Serial line settings.'),
  zigbee_enable: z.boolean().describe('Whether reached through a Zigbee gateway.'),
  zigbee_address: z.string().describe('Zigbee physical address.'),
  protocol_version: z.string().describe('SNMP version or free text.'),
  options: deviceOptionsRow.describe("Driver options; secrets are answered as '' with a *_set flag."),
  check_interval: z.number().int().describe('Seconds between two polls.'),
  enable: z.boolean().describe('Whether the device is polled.'),
  state: stateCode.describe(
    'Device state: 0 not ready, 1 normal, 2 abnormal, 3 warning, 4 unknown, 5 serious, 6 jitter.',
  ),
  state_reason: z.string().describe("Why the device is in that state (e.g. the communication error), or ''."),
  state_time: z.number().int().describe('When the state began (epoch seconds).'),
  item_count: z.number().int().describe('Number of monitored items of the device.'),
  created_at: z.number().int().describe('Creation time (epoch seconds).'),
  updated_at: z.number().int().describe('Last change (epoch seconds).'),
});
export type DeviceRow = z.infer<typeof deviceRow>;

export const deviceListQuery = pageQuery.extend({
  device_group_id: z.coerce
    .number()
    .int()
    .min(-1)
    .max(2_147_483_647)
    .optional()
    .describe('Only devices of this site (-1: all sites).'),
  name: z.string().max(64).optional().describe('Only devices whose name contains this text.'),
  driver: driverName.optional().describe('Only devices of this driver.'),
  code: z.string().max(32).optional().describe('Only devices of this category code.'),
  /** 000 §7: the dashboard asks for environment devices with category id 2. */
  device_template_category_id: z.coerce
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .describe('Only devices of this category id.'),
  state: z.coerce.number().int().min(0).max(6).optional().describe('Only devices in this state (0–6).'),
});

/** PUT setting/devices/bulk: the same change to many devices. */
export const deviceBulkUpdate = z.strictObject({
  ids: z
    .array(z.number().int().min(1).max(2_147_483_647))
    .min(1, { message: msg('ids') })
    .max(1000)
    .describe('Ids of the devices to change (1–1000).'),
  device_group_id: z.number().int().min(1).max(2_147_483_647).optional().describe('Move them to this site.'),
  check_interval: nonNegativeInt('checkInterval').optional().describe('Set this poll interval (seconds).'),
  enable: z.boolean().optional().describe('Enable or disable polling.'),
  classification_id: z.number().int().min(0).max(2_147_483_647).optional().describe('Set this classification id.'),
});
