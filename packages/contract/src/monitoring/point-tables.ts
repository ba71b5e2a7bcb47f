import { z } from 'zod';
import { tParam } from '../envelope.ts';
import { type DriverName, driverName, itemPurpose, msg, optionalText, requiredText, valueType } from './fields.ts';
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
    name: requiredText(64, 'itemName').describe('Item name, 1–64 characters.'),
    item_cell_name: optionalText(64).default('').describe("The device's own name of the point; '' when none."),
    unit: optionalText(16).default('').describe('Unit shown after the value, e.g. °C, V, kWh.'),
    purpose: itemPurpose
      .default('')
      .describe(
        "What items made from the point measure: room_temperature (the heat map's), room_humidity, or '' none.",
      ),
    value_type: valueType.default(1).describe('1 numeric, 0 status.'),
    threshold_min: nullableNumber
      .default(null)
      .describe('Numeric points: lowest normal value (required unless telemetry_only).'),
    threshold_max: nullableNumber
      .default(null)
      .describe('Numeric points: highest normal value, not below threshold_min.'),
    status_threshold: optionalText(32).default('').describe('Status points: the value that means abnormal.'),
    telemetry_only: z
      .boolean()
      .default(false)
      .describe('Only recorded, no thresholds (items made from the template are telemetry only too).'),
    fault_alarm: z
      .boolean()
      .default(true)
      .describe('Whether items made from the point raise a point-fault alarm when they cannot be read.'),
    source: itemSource.describe("Where the value is read; its kind must match the template's driver."),
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
    name: requiredText(64, 'templateName').describe('Template name, 1–64 characters.'),
    category_code: z
      .string()
      .regex(/^[a-z_]{1,32}$/, { message: msg('category') })
      .describe('Category code of devices made from the template.'),
    driver: driverName.describe('Driver of devices made from the template.'),
    items: z
      .array(templateItemInput)
      .max(2000)
      .describe('The point table: the items each device made from the template gets (at most 2000).'),
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
  device_id: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .describe("The device whose items become the template's point table."),
  name: requiredText(64, 'templateName').describe('Name of the new template.'),
});

export const pointTableFormats = ['xlsx', 'csv'] as const;
export const pointTableQuery = z.object({
  format: z.enum(pointTableFormats).default('xlsx').describe('File format of the point table: xlsx (default) or csv.'),
  t: tParam.describe("Cache buster of the spec's client: accepted and ignored."),
});

/**
 * POST setting/devices/{id}/points: a point table file. `content` is the CSV text for `csv` and the
 * file in base64 for `xlsx`. All or nothing: a file with any bad row changes nothing and the answer
 * (400) names each bad row and column in `data.fields` (path `rows.<row>.<column>`).
 */
export const pointTableImport = z.strictObject({
  format: z.enum(pointTableFormats).describe('Format of content: csv or xlsx.'),
  content: z
    .string()
    .min(1, { message: msg('pointFileEmpty') })
    .max(4_000_000, { message: msg('pointFileTooLarge') })
    .describe('The file: CSV text for csv, the file in base64 for xlsx (at most 4 MB).'),
});
export const pointTableImportResult = z.object({
  created: z.number().int().describe('Items created from the file.'),
  updated: z
    .number()
    .int()
    .describe('Items of the device updated from the file (a row naming an existing item updates it).'),
});

/** GET setting/snmp_json: the SNMP OID tables of the templates, as JSON. */
export const snmpJsonRow = z.object({
  template_id: z.number().int().describe('Template id.'),
  template_name: z.string().describe('Template name.'),
  points: z
    .array(
      z.object({
        name: z.string().describe('Item name.'),
        item_cell_name: z.string().describe("The device's own name of the point."),
        unit: z.string().describe('Unit of the value.'),
        oid: z.string().describe('Numeric OID read with GET.'),
        scale: z.number().describe('Factor the raw value is multiplied by.'),
      }),
    )
    .describe("The template's SNMP points."),
});
