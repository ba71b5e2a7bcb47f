import { z } from 'zod';
import { tParam } from '../envelope.ts';
import { type DriverName, driverName, msg, optionalText, requiredText, valueType } from './fields.ts';
import { checkItemRules } from './items.ts';
import { type ItemSource, itemSource } from './sources.ts';

// ---------- editable device templates and point tables (issue 13, Build 5; docs/point-tables.md) ----------

/** The item source kind a driver reads (both Modbus drivers read `modbus` points). */
export const driverSourceKind = (driver: DriverName): ItemSource['kind'] =>
  driver === 'modbus-tcp' || driver === 'modbus-rtu' ? 'modbus' : driver;

const nullableNumber = z.number().finite().nullable();

/** One point of a template's point table, as written. */
export const templateItemInput = z
  .strictObject({
    name: requiredText(64, 'itemName'),
    item_cell_name: optionalText(64).default(''),
    unit: optionalText(16).default(''),
    value_type: valueType.default(1),
    threshold_min: nullableNumber.default(null),
    threshold_max: nullableNumber.default(null),
    status_threshold: optionalText(32).default(''),
    telemetry_only: z.boolean().default(false),
    source: itemSource,
  })
  .superRefine((item, ctx) =>
    // The item rules, as a device made from the template would meet them (recovery and overrun 0).
    checkItemRules(
      {
        ...item,
        recovery_point: item.telemetry_only || item.value_type === 0 ? null : 0,
        overrun_point: item.telemetry_only || item.value_type === 0 ? null : 0,
        overrun_action_id: 0,
        recovery_action_id: 0,
      },
      ctx,
    ),
  );

/** POST and PUT setting/device_templates: a name, a category, a driver and the point table. */
export const templateInput = z
  .strictObject({
    name: requiredText(64, 'templateName'),
    category_code: z.string().regex(/^[a-z_]{1,32}$/, { message: msg('category') }),
    driver: driverName,
    items: z.array(templateItemInput).max(2000),
  })
  .superRefine((t, ctx) => {
    const kind = driverSourceKind(t.driver);
    t.items.forEach((item, i) => {
      if (item.source.kind !== kind) {
        ctx.addIssue({ code: 'custom', path: ['items', i, 'source', 'kind'], message: msg('templateSourceKind') });
      }
    });
  });
export type TemplateInput = z.input<typeof templateInput>;

/** POST setting/device_templates/from_device: the device's items become the template's point table. */
export const templateFromDevice = z.strictObject({
  device_id: z.number().int().min(1).max(2_147_483_647),
  name: requiredText(64, 'templateName'),
});

export const pointTableFormats = ['xlsx', 'csv'] as const;
export const pointTableQuery = z.object({ format: z.enum(pointTableFormats).default('xlsx'), t: tParam });

/**
 * POST setting/devices/{id}/points: a point table file. `content` is the CSV text for `csv` and the
 * file in base64 for `xlsx`. All or nothing: a file with any bad row changes nothing and the answer
 * (400) names each bad row and column in `data.fields` (path `rows.<row>.<column>`).
 */
export const pointTableImport = z.strictObject({
  format: z.enum(pointTableFormats),
  content: z
    .string()
    .min(1, { message: msg('pointFileEmpty') })
    .max(4_000_000, { message: msg('pointFileTooLarge') }),
});
export const pointTableImportResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
});

/** GET setting/snmp_json: the SNMP OID tables of the templates, as JSON. */
export const snmpJsonRow = z.object({
  template_id: z.number().int(),
  template_name: z.string(),
  points: z.array(
    z.object({
      name: z.string(),
      item_cell_name: z.string(),
      unit: z.string(),
      oid: z.string(),
      scale: z.number(),
    }),
  ),
});
