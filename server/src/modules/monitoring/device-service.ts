import { type Language, sharedText } from '@sitewatch/contract';
import {
  type DeviceValues,
  type deviceBulkUpdate,
  itemSource,
  monitorState,
  templateItem,
} from '@sitewatch/contract/monitoring';
import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import { type MonitoringContext, offsetOf, type Page, parse, sourceKindOf } from './context.ts';
import type { AllowedSites, MonitoringQueries } from './repository.ts';

/** Device categories, templates and devices (002 §7.1). */
export const createDeviceService = (ctx: MonitoringContext) => {
  const { copyDeviceInto, copyName, repo, now, keepSecrets, toDevice, getDevice, itemValues, deviceValues } = ctx;

  // Inside a transaction the checks must use its queries: SQLite has one connection.
  const checkDeviceRefs = async (input: DeviceValues, r: MonitoringQueries = repo) => {
    const site = await r.getSite(input.device_group_id);
    if (!site) throw badRequest('monitoring.errors.siteMissing');
    if (site.has_device !== 1) throw badRequest('monitoring.errors.siteNoDevices');
    if (!(await r.getCategory(input.code))) throw badRequest('monitoring.errors.categoryMissing');
    if (input.template_id !== null) {
      const template = await r.getTemplate(input.template_id);
      if (!template) throw badRequest('monitoring.errors.templateMissing');
      if (template.driver !== input.driver) throw badRequest('monitoring.errors.templateDriver');
      return template;
    }
    return null;
  };

  /** Items of a new device, from its template, named in the caller's language. */
  const templateItems = (templateText: string, deviceId: number, lang: Language) => {
    const items = parse(templateText, z.array(templateItem), []);
    const seen = new Map<string, number>();
    for (const t of items) seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
    // Three-phase points share a name in the template; their cell names end in the phase.
    const nameOf = (t: (typeof items)[number]) => {
      const name = sharedText(lang, t.name);
      const phase = /[abc]$/.exec(t.item_cell_name)?.[0];
      return (seen.get(t.name) ?? 0) > 1 && phase
        ? sharedText(lang, 'monitoring.items.phased', { phase: phase.toUpperCase(), name })
        : name;
    };
    return items.map((t) => {
      const source =
        t.source.kind === 'mqtt'
          ? { ...t.source, topic: t.source.topic.replaceAll('{device_id}', String(deviceId)) }
          : t.source;
      return itemValues(
        {
          device_id: deviceId,
          name: nameOf(t),
          item_cell_name: t.item_cell_name,
          unit: t.unit,
          purpose: t.purpose,
          decimals: null,
          location_id: 0,
          value_type: t.value_type,
          threshold_min: t.threshold_min,
          threshold_max: t.threshold_max,
          status_threshold: t.status_threshold,
          recovery_point: t.value_type === 1 && !t.telemetry_only ? 0 : null,
          overrun_point: t.value_type === 1 && !t.telemetry_only ? 0 : null,
          alarm_level: 1,
          alarm_color: '',
          contact_group_id: 0,
          working_period_id: 0,
          overrun_action_id: 0,
          recovery_action_id: 0,
          confirm_action_id: 0,
          check_interval: 0,
          repetitions: 1,
          notification_interval: 300,
          check_period_id: 0,
          notification_period_id: 0,
          alarm_period_id: 0,
          source,
          telemetry_only: t.telemetry_only,
          fault_alarm: t.fault_alarm,
          enable: true,
        },
        deviceId,
      );
    });
  };

  return {
    // ---------- categories and templates ----------
    async listCategories(lang: Language) {
      const rows = await repo.listCategories();
      return {
        total: rows.length,
        data: rows.map((c) => ({
          id: c.id,
          code: c.code,
          name: c.name || sharedText(lang, c.name_key),
          enable: c.enable === 1,
          weight: c.weight,
        })),
      };
    },
    async updateCategory(code: string, input: { name: string; enable: boolean; weight: number }, lang: Language) {
      const row = await repo.getCategory(code);
      if (!row) throw notFound();
      await repo.updateCategory(code, { name: input.name, enable: input.enable ? 1 : 0, weight: input.weight });
      return {
        id: row.id,
        code,
        name: input.name || sharedText(lang, row.name_key),
        enable: input.enable,
        weight: input.weight,
      };
    },
    // ---------- devices ----------
    async listDevices(
      query: Page & {
        device_group_id?: number | undefined;
        name?: string | undefined;
        driver?: string | undefined;
        code?: string | undefined;
        device_template_category_id?: number | undefined;
        state?: number | undefined;
      },
      allowed: AllowedSites,
    ) {
      const filter = { ...query, category_id: query.device_template_category_id };
      const [total, rows, categories] = await Promise.all([
        repo.countDevices(filter, allowed),
        repo.listDevices(filter, allowed, offsetOf(query)),
        repo.categoryIds(),
      ]);
      return { total, data: rows.map((r) => toDevice(r, categories)) };
    },
    getDevice,
    async createDevice(input: DeviceValues, lang: Language, scope: SiteScope) {
      scope.requireSites([input.device_group_id]);
      const id = await repo.transaction(async (r) => {
        const template = await checkDeviceRefs(input, r);
        const t = now();
        const newId = await r.insertDevice({
          ...deviceValues(input),
          state: monitorState.notReady,
          state_reason: '',
          state_time: 0,
          created_at: t,
          updated_at: t,
        });
        if (template) await r.insertItems(templateItems(template.items, newId, lang));
        return newId;
      });
      return getDevice(id, scope.sites);
    },
    async updateDevice(id: number, input: DeviceValues, scope: SiteScope) {
      const [current] = await repo.listDevices({ ids: [id] }, scope.sites);
      if (!current) throw notFound();
      // Moving a device into (or out to) a site outside the grant is refused.
      scope.requireSites([input.device_group_id]);
      await checkDeviceRefs(input);
      if (current.driver !== input.driver && Number(current.item_count ?? 0) > 0) {
        const items = await repo.listItems({ device_id: id }, null);
        const kind = sourceKindOf(input.driver);
        if (items.some((i) => parse(i.source, itemSource, null as never)?.kind !== kind)) {
          throw badRequest('monitoring.errors.driverItems');
        }
      }
      const values = { ...input, options: keepSecrets(input.options, current.options) };
      await repo.updateDevice(id, { ...deviceValues(values), updated_at: now() });
      return getDevice(id, scope.sites);
    },
    /** All or nothing as to grants: one device of a site outside the grant refuses the whole request (404). */
    async bulkUpdateDevices(input: z.output<typeof deviceBulkUpdate>, scope: SiteScope) {
      const { ids, ...set } = input;
      if (set.device_group_id !== undefined) scope.requireSites([set.device_group_id]);
      const existing = await repo.listDevices({ ids }, null);
      if (existing.some((d) => !scope.has(d.device_group_id))) throw notFound();
      const found = new Set(existing.map((d) => d.id));
      const failed = ids.filter((i) => !found.has(i)).map((i) => ({ id: i, message: 'not found' }));
      if (set.device_group_id !== undefined) {
        const site = await repo.getSite(set.device_group_id);
        if (!site) throw badRequest('monitoring.errors.siteMissing');
        if (site.has_device !== 1) throw badRequest('monitoring.errors.siteNoDevices');
      }
      const row = {
        ...(set.device_group_id !== undefined ? { device_group_id: set.device_group_id } : {}),
        ...(set.check_interval !== undefined ? { check_interval: set.check_interval } : {}),
        ...(set.enable !== undefined ? { enable: set.enable ? 1 : 0 } : {}),
        ...(set.classification_id !== undefined ? { classification_id: set.classification_id } : {}),
      };
      if (Object.keys(row).length === 0) throw badRequest('monitoring.validation.nothingToUpdate');
      const updated = found.size ? await repo.updateDevices([...found], { ...row, updated_at: now() }) : 0;
      return { updated, failed };
    },
    async deleteDevice(id: number, scope: SiteScope) {
      if ((await repo.listDevices({ ids: [id] }, scope.sites)).length === 0) throw notFound();
      const n = await repo.transaction((r) => r.deleteDevice(id));
      if (n === 0) throw notFound();
      return null;
    },
    async copyDevice(id: number, input: { count: number; device_group_id?: number | undefined }, scope: SiteScope) {
      const ids = await repo.transaction(async (r) => {
        const [src] = await r.listDevices({ ids: [id] }, scope.sites);
        if (!src) throw notFound();
        const siteId = input.device_group_id ?? src.device_group_id;
        scope.requireSites([siteId]);
        const site = await r.getSite(siteId);
        if (!site) throw badRequest('monitoring.errors.siteMissing');
        if (site.has_device !== 1) throw badRequest('monitoring.errors.siteNoDevices');
        const out: number[] = [];
        for (let n = 1; n <= input.count; n++) out.push(await copyDeviceInto(r, id, siteId, copyName(src.name, n)));
        return out;
      });
      const categories = await repo.categoryIds();
      return (await repo.listDevices({ ids }, scope.sites)).map((r) => toDevice(r, categories));
    },
  };
};
