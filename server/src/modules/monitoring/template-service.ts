import { type Language, sharedText } from '@sitewatch/contract';
import {
  type DeviceTemplateRow,
  type DriverName,
  deviceTemplateRow,
  driverSourceKind,
  type ItemValues,
  itemInput,
  type TemplateItem,
  templateInput,
  templateItem,
} from '@sitewatch/contract/monitoring';
import { z } from 'zod';
import type { DeviceTemplatesTable } from '../../db/schema-monitoring.ts';
import { badRequest, conflict, type FieldError, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import { type MonitoringContext, parse } from './context.ts';
import {
  type ParsedPoint,
  parsePointRows,
  pointColumns,
  pointRow,
  pointTableFile,
  readPointFile,
} from './point-tables.ts';

type TemplateValues = z.output<typeof templateInput>;
type StoredTemplate = Pick<DeviceTemplatesTable, 'name_key' | 'category_code' | 'driver' | 'items'> & {
  id: number;
  name: string;
};

const itemFields = Object.keys(itemInput.shape) as Array<keyof ItemValues>;

/**
 * Device templates as users edit them (create, rename, change the point table, delete while
 * unused, make one from a device), point tables of devices and templates as xlsx or CSV files, and
 * their import into a device (issue 13, Build 5; docs/point-tables.md).
 */
export const createTemplateService = (ctx: MonitoringContext) => {
  const { repo, toItem, itemValues } = ctx;

  /** Built-in texts are locale keys and follow the reader's language; a user's texts are kept as written. */
  const toTemplate = (t: StoredTemplate, used: Map<number, number>, lang: Language): DeviceTemplateRow =>
    deviceTemplateRow.parse({
      id: t.id,
      name: t.name || sharedText(lang, t.name_key),
      category_code: t.category_code,
      driver: t.driver,
      items: parse(t.items, z.array(templateItem), []).map((i) => ({ ...i, name: sharedText(lang, i.name) })),
      builtin: t.name_key !== '',
      device_count: used.get(t.id) ?? 0,
    });

  const getTemplate = async (id: number, lang: Language) => {
    const row = await repo.getTemplate(id);
    if (!row) throw notFound();
    return toTemplate(row, await repo.templateUsage(), lang);
  };

  const checkCategory = async (code: string) => {
    if (!(await repo.getCategory(code))) throw badRequest('monitoring.errors.categoryMissing');
  };

  /**
   * What is stored of an edited template: a name or item name that is the caller's translation of
   * the built-in key it replaces stays that key, so an unrenamed built-in keeps following the language.
   */
  const storedItems = (items: TemplateValues['items'], previous: string, lang: Language): TemplateItem[] => {
    const keys = new Map(
      parse(previous, z.array(templateItem), [])
        .filter((i) => i.name.startsWith('monitoring.'))
        .map((i) => [sharedText(lang, i.name), i.name]),
    );
    return items.map((i) => ({ ...i, name: keys.get(i.name) ?? i.name }));
  };

  /** A device's items as stored values of the item contract (what an import row starts from). */
  const deviceItemValues = async (deviceId: number) =>
    (await repo.listItems({ device_id: deviceId }, null)).map((row) => {
      const item = toItem(row) as unknown as Record<string, unknown>;
      const values = Object.fromEntries(itemFields.map((f) => [f, item[f]])) as unknown as ItemValues;
      return { id: row.id, values };
    });

  const deviceOf = async (id: number, scope: SiteScope) => {
    const [device] = await repo.listDevices({ ids: [id] }, scope.sites);
    if (!device) throw notFound();
    return device;
  };

  return {
    async listTemplates(
      query: { page: number; limit: number; driver?: string | undefined; category_code?: string | undefined },
      lang: Language,
    ) {
      const [rows, used] = await Promise.all([repo.listTemplates(query), repo.templateUsage()]);
      const data = rows.map((t) => toTemplate(t, used, lang));
      return { total: data.length, data: data.slice((query.page - 1) * query.limit, query.page * query.limit) };
    },
    getTemplate,
    async createTemplate(input: TemplateValues, lang: Language) {
      await checkCategory(input.category_code);
      const id = await repo.insertTemplate({
        name_key: '',
        name: input.name,
        category_code: input.category_code,
        driver: input.driver,
        items: JSON.stringify(input.items),
      });
      return getTemplate(id, lang);
    },
    async updateTemplate(id: number, input: TemplateValues, lang: Language) {
      const current = await repo.getTemplate(id);
      if (!current) throw notFound();
      await checkCategory(input.category_code);
      const unrenamed = current.name_key !== '' && input.name === sharedText(lang, current.name_key);
      // Devices already made keep their items: a template is where a device starts, not a link.
      await repo.updateTemplate(id, {
        name: unrenamed ? current.name : input.name,
        category_code: input.category_code,
        driver: input.driver,
        items: JSON.stringify(storedItems(input.items, current.items, lang)),
      });
      return getTemplate(id, lang);
    },
    async deleteTemplate(id: number) {
      if (!(await repo.getTemplate(id))) throw notFound();
      const used = (await repo.templateUsage()).get(id) ?? 0;
      if (used > 0) throw conflict('monitoring.errors.templateInUse', { count: used });
      await repo.deleteTemplate(id);
      return null;
    },
    /** The device's items become the point table of a new template (its MQTT topics name `{device_id}` again). */
    async createTemplateFromDevice(input: { device_id: number; name: string }, lang: Language, scope: SiteScope) {
      const device = await deviceOf(input.device_id, scope);
      const mine = `sitewatch/${device.id}/`;
      const items = (await deviceItemValues(device.id)).map(({ values: v }) => ({
        name: v.name,
        item_cell_name: v.item_cell_name,
        unit: v.unit,
        purpose: v.purpose ?? '',
        value_type: v.value_type,
        threshold_min: v.threshold_min,
        threshold_max: v.threshold_max,
        status_threshold: v.status_threshold,
        telemetry_only: v.telemetry_only,
        fault_alarm: v.fault_alarm,
        source:
          v.source.kind === 'mqtt'
            ? { ...v.source, topic: v.source.topic.replaceAll(mine, 'sitewatch/{device_id}/') }
            : v.source,
      }));
      const checked = templateInput.safeParse({
        name: input.name,
        category_code: device.code,
        driver: device.driver,
        items,
      });
      if (!checked.success) {
        const fields: FieldError[] = checked.error.issues.map((i) => ({
          path: i.path.map(String).join('.'),
          message: i.message,
        }));
        throw badRequest('monitoring.errors.templateFromDevice', {}, fields);
      }
      const id = await repo.insertTemplate({
        name_key: '',
        name: checked.data.name,
        category_code: checked.data.category_code,
        driver: checked.data.driver,
        items: JSON.stringify(checked.data.items),
      });
      return getTemplate(id, lang);
    },

    // ---------- point table files ----------
    async templatePointFile(id: number, format: 'xlsx' | 'csv', lang: Language) {
      const t = await getTemplate(id, lang);
      const columns = pointColumns(driverSourceKind(t.driver));
      // A device made from the template starts with recovery and overrun 0 on judged numeric points.
      const judged = (i: TemplateItem) => (i.value_type === 1 && !i.telemetry_only ? 0 : null);
      const rows = t.items.map((i) => pointRow({ ...i, recovery_point: judged(i), overrun_point: judged(i) }, columns));
      return { name: `template_${t.id}_points`, buffer: await pointTableFile(format, t.name, columns, rows) };
    },
    async devicePointFile(id: number, format: 'xlsx' | 'csv', scope: SiteScope) {
      const device = await deviceOf(id, scope);
      const columns = pointColumns(driverSourceKind(device.driver as DriverName));
      const rows = (await deviceItemValues(id)).map((i) => pointRow(i.values, columns));
      return { name: `device_${id}_points`, buffer: await pointTableFile(format, device.name, columns, rows) };
    },
    /** All or nothing: every row is checked first; one transaction writes them. */
    async importDevicePoints(
      id: number,
      input: { format: 'xlsx' | 'csv'; content: string },
      lang: Language,
      scope: SiteScope,
    ) {
      const device = await deviceOf(id, scope);
      const rows = await readPointFile(input.format, input.content);
      const points: ParsedPoint[] = parsePointRows(
        rows,
        driverSourceKind(device.driver as DriverName),
        id,
        await deviceItemValues(id),
        lang,
        await ctx.locationsFor(device.device_group_id),
      );
      const created = points.filter((p) => p.itemId === null);
      await repo.transaction(async (r) => {
        for (const p of points) {
          if (p.itemId === null) continue;
          const { state: _s, value: _v, last_check: _l, info: _i, ...values } = itemValues(p.values, id);
          await r.updateItem(p.itemId, values);
        }
        await r.insertItems(created.map((p) => itemValues(p.values, id)));
      });
      return { created: created.length, updated: points.length - created.length };
    },
    /** GET setting/snmp_json: each template's SNMP points. */
    async snmpJson(lang: Language) {
      const [rows, used] = await Promise.all([repo.listTemplates({}), repo.templateUsage()]);
      return rows
        .map((r) => toTemplate(r, used, lang))
        .map((t) => ({
          template_id: t.id,
          template_name: t.name,
          points: t.items.flatMap((i) =>
            i.source.kind === 'snmp'
              ? [
                  {
                    name: i.name,
                    item_cell_name: i.item_cell_name,
                    unit: i.unit,
                    oid: i.source.oid,
                    scale: i.source.scale,
                  },
                ]
              : [],
          ),
        }))
        .filter((t) => t.points.length > 0);
    },
  };
};
