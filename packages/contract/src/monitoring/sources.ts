import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { driverName, msg, requiredText, valueType, weightSchema } from './fields.ts';

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
