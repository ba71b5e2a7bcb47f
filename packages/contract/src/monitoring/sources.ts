import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { driverName, itemPurpose, msg, requiredText, valueType, weightSchema } from './fields.ts';
import { ifMibSource } from './if-mib.ts';

// ---------- categories and templates ----------

export const categoryRow = z.object({
  id: z.number().int().describe('Category id.'),
  code: z.string().describe('Category code (devices name their category by it).'),
  name: z.string().describe('Category name.'),
  enable: z.boolean().describe('Whether the category is offered.'),
  weight: z.number().int().describe('Sort number.'),
});
export const categoryUpdate = z.strictObject({
  name: requiredText(64, 'name').describe('Category name.'),
  enable: z.boolean().describe('Whether the category is offered.'),
  weight: weightSchema.describe('Sort number: a positive integer not starting with 0.'),
});

/**
 * Modbus data types (docs/monitoring.md "Modbus"): `bit` is a coil or discrete input, or a bit of
 * a register; the others span 1, 2 or 4 registers. Migration 0011 renamed the old `bool` to `bit`
 * and `*_le` (word-swapped) to the plain type with byte order CDAB.
 */
export const modbusDataTypes = [
  'bit',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'float32',
  'float64',
] as const;
export type ModbusDataType = (typeof modbusDataTypes)[number];

/**
 * Byte order of a multi-byte value, A being its most significant byte: ABCD big-endian, CDAB
 * word-swapped, BADC byte-swapped within each register, DCBA little-endian. 64-bit values extend
 * the same swaps to four registers; 16-bit values are AB (ABCD, CDAB) or BA (BADC, DCBA).
 */
export const modbusByteOrders = ['ABCD', 'CDAB', 'BADC', 'DCBA'] as const;
export type ModbusByteOrder = (typeof modbusByteOrders)[number];

/** Registers a value of `dataType` spans (coils and bits: 1). */
export const modbusRegisterCount = (dataType: ModbusDataType): number =>
  dataType === 'bit' || dataType === 'int16' || dataType === 'uint16'
    ? 1
    : dataType === 'int64' || dataType === 'uint64' || dataType === 'float64'
      ? 4
      : 2;

/** A scale of 0 is refused: every value would read 0, and a write would divide by it. */
const nonZeroScale = z
  .number()
  .finite()
  .refine((s) => s !== 0, { message: msg('scale') });

/** The payload an MQTT write publishes unless the item says otherwise (docs/monitoring.md "MQTT"). */
export const defaultCommandPayload = '{"value":{value}}';

/**
 * Whether `filter` is a valid MQTT subscription: `+` only as a whole level, `#` only as the whole
 * last level (MQTT 3.1.1 §4.7). `{device_id}` is replaced before subscribing.
 */
export const isTopicFilter = (filter: string): boolean =>
  !filter.includes('\u0000') &&
  filter
    .split('/')
    .every((level, i, all) => (level === '#' ? i === all.length - 1 : level === '+' || !/[+#]/.test(level)));

/** How an item is read, by driver (the point table of a template). */
export const itemSource = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('simulator').describe('simulator: a made-up value, for demonstrations and tests.'),
    /**
     * analog: base ± spread over a daily-like cycle, with noise and a slow drift; counter: grows by
     * `base` per hour (energy); status: 0 normally, 1 for a while with probability `fault_rate`.
     */
    model: z
      .enum(['analog', 'counter', 'status'])
      .describe(
        'analog: base ± spread over a daily-like cycle with noise and drift; counter: grows by base per hour; status: 0, or 1 for a while with probability fault_rate.',
      ),
    base: z.number().finite().min(-1e9).max(1e9).describe('Middle value (analog), growth per hour (counter).'),
    spread: z.number().finite().min(0).max(1e9).default(0).describe('Half the daily swing around base (analog).'),
    noise: z.number().finite().min(0).max(1e9).default(0).describe('Random noise added to each value.'),
    period_s: z
      .number()
      .int()
      .min(10)
      .max(10_000_000)
      .default(86_400)
      .describe('Length of one cycle in seconds (default one day).'),
    fault_rate: z
      .number()
      .min(0)
      .max(1)
      .default(0)
      .describe('Status model: probability (0–1) of turning 1 at a check.'),
    decimals: z.number().int().min(0).max(6).default(1).describe('Decimals the value is rounded to (0–6).'),
    /**
     * Analog: items of one device with the same group share their cycle and drift (the three phases
     * of a meter move together, so their imbalance is their bases' difference, not chance).
     */
    group: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('Analog: items of one device with the same group move together (the phases of a meter).'),
    /**
     * Counter: the load profile of the power it integrates (docs/energy.md "Demo meters"): IT load
     * (weekdays above weekends, a few % growth a year), cooling (seasonal) or an incoming feed (both).
     * Analog: the value is `base` times the profile's power at the instant, plus noise (no cycle or
     * drift): a meter's power and current, which its counter of the same profile integrates.
     */
    profile: z
      .enum(['it', 'cooling', 'incoming'])
      .optional()
      .describe(
        "Load profile (it, cooling, incoming). Counter: the power it integrates; without it a flat mean with a daily swing. Analog: base times the profile's power at the instant, plus noise.",
      ),
  }),
  z.strictObject({
    kind: z.literal('modbus').describe('modbus: a register or bit of a Modbus TCP or RTU device.'),
    /** 1 coils, 2 discrete inputs, 3 holding registers, 4 input registers. */
    function: z
      .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
      .describe('Modbus table: 1 coils, 2 discrete inputs, 3 holding registers, 4 input registers.'),
    register: z
      .number()
      .int()
      .min(0)
      .max(65536)
      .describe(
        "Register (or coil) address as the device's manual writes it: 0-based (0–65535) or 1-based (1–65536) by the device's options.modbus_address_base.",
      ),
    data_type: z
      .enum(modbusDataTypes)
      .describe(
        'How the registers are decoded: bit, int16, uint16 (1 register), int32, uint32, float32 (2), int64, uint64, float64 (4).',
      ),
    byte_order: z
      .enum(modbusByteOrders)
      .default('ABCD')
      .describe(
        'Byte order, A the most significant byte: ABCD big-endian, CDAB word-swapped, BADC byte-swapped, DCBA little-endian.',
      ),
    /** `bit` of a register: which bit (0 least significant); null: the register is 1 when not 0. */
    bit: z
      .number()
      .int()
      .min(0)
      .max(15)
      .nullable()
      .default(null)
      .describe(
        'For data_type bit of a register: the bit, 0 (least significant) to 15; null: 1 when the register is not 0.',
      ),
    scale: nonZeroScale.default(1).describe('Factor the raw value is multiplied by (stored value = raw × scale).'),
  }),
  z.strictObject({
    kind: z.literal('snmp').describe('snmp: one OID read with GET.'),
    oid: z
      .string()
      .regex(/^\.?\d+(\.\d+){1,127}$/, { message: msg('oid') })
      .max(400)
      .describe('Numeric OID, e.g. 1.3.6.1.2.1.1.3.0 (a leading dot is allowed).'),
    scale: nonZeroScale.default(1).describe('Factor the raw value is multiplied by.'),
  }),
  z.strictObject({
    kind: z.literal('mqtt').describe('mqtt: a value from messages on a topic.'),
    topic: z
      .string()
      .min(1)
      .max(300)
      .refine(isTopicFilter, { message: msg('topicFilter') })
      .describe(
        'Topic (filter) the value is published on: {device_id} stands for the device id; + matches one whole level and # the rest (last level only), e.g. sensors/+/state.',
      ),
    /** Dotted path into the JSON payload, e.g. `data.temp`; empty when the payload is the number. */
    json_path: z
      .string()
      .max(200)
      .default('')
      .describe('Dotted path into the JSON payload, e.g. data.temp; empty when the payload is the number itself.'),
    scale: nonZeroScale.default(1).describe('Factor the parsed value is multiplied by.'),
    /** Where writes to this item are published (empty: not writable). */
    command_topic: z
      .string()
      .max(300)
      .refine((t) => !/[+#]/.test(t), { message: msg('topic') })
      .default('')
      .describe('Topic writes to this item are published on, without wildcards (empty: not writable).'),
    /** What a write publishes: `{value}` becomes the number, `{device_id}` and `{item_id}` the ids. */
    command_payload: z
      .string()
      .min(1)
      .max(1000)
      .refine((t) => t.includes('{value}'), { message: msg('commandPayload') })
      .optional()
      .describe(
        'Payload a write publishes: {value} becomes the number written, {device_id} and {item_id} the ids (omitted: {"value":{value}}).',
      ),
  }),
  ifMibSource,
]);
export type ItemSource = z.infer<typeof itemSource>;

export const templateItem = z.object({
  name: z.string().describe('Item name.'),
  item_cell_name: z.string().describe("The device's own name of the point."),
  unit: z.string().describe('Unit of the value.'),
  /** Absent in rows written before migration 0031: none. */
  purpose: itemPurpose
    .default('')
    .describe("What items made from the point measure: room_temperature, room_humidity, or '' none."),
  value_type: valueType.describe('1 numeric, 0 status.'),
  threshold_min: z.number().nullable().describe('Lowest normal value, or null.'),
  threshold_max: z.number().nullable().describe('Highest normal value, or null.'),
  status_threshold: z.string().describe('Status items: the value that means abnormal.'),
  source: itemSource.describe('Where the value is read.'),
  /** Only recorded, no thresholds (items made from the template are telemetry only too). */
  telemetry_only: z
    .boolean()
    .default(false)
    .describe('Only recorded, no thresholds (items made from the template are telemetry only too).'),
  /** Items made from the point raise a point-fault alarm when they cannot be read (absent in old rows: on). */
  fault_alarm: z
    .boolean()
    .default(true)
    .describe('Whether items made from the point raise a point-fault alarm when they cannot be read.'),
});
export type TemplateItem = z.infer<typeof templateItem>;

export const deviceTemplateRow = z.object({
  id: z.number().int().describe('Template id.'),
  name: z.string().describe('Template name.'),
  category_code: z.string().describe('Category code of devices made from it.'),
  driver: driverName.describe('Driver of devices made from it.'),
  items: z.array(templateItem).describe('The point table: the items a device made from the template gets.'),
  /** Shipped with the product (its texts follow the reader's language until it is renamed or edited). */
  builtin: z.boolean().describe('Shipped with the product.'),
  /** Devices made from it: a template in use cannot be deleted. */
  device_count: z.number().int().describe('Devices made from it (a template in use cannot be deleted).'),
});
export type DeviceTemplateRow = z.infer<typeof deviceTemplateRow>;

export const templateListQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Rows per page (1–1000, default 100).'),
  driver: driverName.optional().describe('Only templates of this driver.'),
  category_code: z.string().max(32).optional().describe('Only templates of this category code.'),
});
