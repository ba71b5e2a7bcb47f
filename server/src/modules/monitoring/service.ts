import { randomBytes } from 'node:crypto';
import { type Language, sharedText } from '@sitewatch/contract';
import {
  checkItemRules,
  type DeviceOptions,
  type DeviceOptionsRow,
  type DeviceRow,
  type DeviceTemplateRow,
  type DeviceValues,
  type DriverName,
  type deviceBulkUpdate,
  deviceOptions,
  deviceSecretFields,
  deviceTemplateRow,
  type ItemRow,
  type ItemSource,
  type ItemValues,
  type itemBulkUpdate,
  itemSource,
  type LiveDevice,
  type LiveItem,
  monitorState,
  type SerialSettings,
  type SiteRow,
  type SiteTreeNode,
  serialSettings,
  type siteInput,
  templateItem,
  timePeriodInput,
} from '@sitewatch/contract/monitoring';
import { z } from 'zod';
import type { EventBus } from '../../bus/bus.ts';
import type { ItemsTable } from '../../db/schema-monitoring.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { createSecretBox, mapJsonFields, type SecretBox } from '../../secrets/index.ts';
import type { SiteScope } from '../access/index.ts';
import type { AllowedSites, MonitoringQueries, MonitoringRepository } from './repository.ts';

/** What the service needs of the collector (absent when no collector runs, as in most tests). */
export interface LiveSource {
  liveItem(itemId: number): { value: number | null; state: number; last_check: number; info: string } | undefined;
  liveDevice(deviceId: number): { state: number; reason: string; time: number } | undefined;
  write(itemId: number, value: number): Promise<void>;
}

export interface MonitoringDeps {
  repo: MonitoringRepository;
  /** Told of every change to devices and items (`config.changed`), so the collector and alarm engine re-read them. */
  bus?: Pick<EventBus, 'publish'> | undefined;
  clock?: () => number;
  live?: LiveSource | undefined;
  /** Serial ports present on this host (e.g. /dev/ttyS0). */
  listHostSerialPorts?: () => Promise<string[]>;
  /** Encrypts device secrets at rest; the demo seeding writes none and may leave it out. */
  secrets?: SecretBox | undefined;
}

type Page = { page: number; limit: number };
/** The largest setpoint a driver can carry (a 32-bit float's maximum). */
const SETPOINT_MAX = 3.4e38;

const offsetOf = (p: Page) => ({ offset: (p.page - 1) * p.limit, limit: p.limit });

const parse = <T>(text: string, schema: z.ZodType<T>, fallback: T): T => {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    return fallback;
  }
};

/** The item source kind a driver reads. */
export const sourceKindOf = (driver: DriverName): ItemSource['kind'] =>
  driver === 'modbus-tcp' || driver === 'modbus-rtu' ? 'modbus' : driver;

const abnormalStates = new Set<number>([
  monitorState.abnormal,
  monitorState.warning,
  monitorState.unknown,
  monitorState.serious,
]);
const alarmStates = new Set<number>([monitorState.abnormal, monitorState.warning, monitorState.serious]);

export const createMonitoringService = (deps: MonitoringDeps) => {
  const { repo } = deps;
  const secrets = deps.secrets ?? createSecretBox(randomBytes(32));
  const now = () => Math.floor((deps.clock?.() ?? Date.now()) / 1000);
  const defaultSerial = serialSettings.parse({});
  const defaultOptions = deviceOptions.parse({});
  /** A device (or, without an id, any number of them) changed: whoever keeps devices or items in memory re-reads. */
  const reload = async (deviceId?: number) => {
    deps.bus?.publish('config.changed', { area: 'devices', ids: deviceId === undefined ? null : [deviceId] });
  };

  // ---------- sites ----------
  const toSite = (
    row: Awaited<ReturnType<MonitoringRepository['getSite']>> & object,
    devices: Array<{ id: number; category_id: number | null }>,
  ): SiteRow => ({
    id: row.id,
    name: row.name,
    parent_id: row.parent_id,
    weight: row.weight,
    has_device: row.has_device === 1,
    longitude: row.longitude,
    latitude: row.latitude,
    background: row.background,
    scene: row.scene,
    extend: row.extend,
    devices: devices.map((d) => ({ id: d.id, category_id: d.category_id ?? 0 })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  });

  const siteWithDevices = async (id: number) => {
    const row = await repo.getSite(id);
    if (!row) throw notFound();
    return toSite(row, await repo.siteDevices([id]));
  };

  const checkParent = async (id: number | null, parentId: number) => {
    if (parentId === 0) return;
    if (id !== null && parentId === id) throw badRequest('monitoring.errors.parentInvalid');
    const all = await repo.listSites({}, null);
    const byId = new Map(all.map((s) => [s.id, s]));
    if (!byId.has(parentId)) throw badRequest('monitoring.errors.parentInvalid');
    // The new parent may not be the site itself or one of its descendants.
    let cursor: number | undefined = parentId;
    for (let hops = 0; cursor && hops < 1000; hops++) {
      if (cursor === id) throw badRequest('monitoring.errors.parentInvalid');
      cursor = byId.get(cursor)?.parent_id;
    }
  };

  const siteValues = (input: z.output<typeof siteInput>) => ({
    name: input.name,
    parent_id: input.parent_id,
    weight: input.weight,
    has_device: input.has_device ? 1 : 0,
    longitude: input.longitude,
    latitude: input.latitude,
    background: input.background,
    scene: input.scene,
    extend: input.extend,
  });

  // ---------- devices and items ----------
  /** Secrets are answered as '' plus a "set" flag (issue 11, finding 7); the collector reads the row itself. */
  const openOptions = (text: string) =>
    parse(mapJsonFields(text, deviceSecretFields, secrets.decrypt), deviceOptions, defaultOptions);
  const answerOptions = (text: string): DeviceOptionsRow => {
    const o = openOptions(text);
    return {
      ...o,
      mqtt_password: '',
      v3_auth_key: '',
      v3_priv_key: '',
      mqtt_password_set: o.mqtt_password !== '',
      v3_auth_key_set: o.v3_auth_key !== '',
      v3_priv_key_set: o.v3_priv_key !== '',
    };
  };
  /** A write that leaves a secret empty keeps the stored one (the form cannot show it to retype). */
  const keepSecrets = (input: DeviceOptions, storedText: string): DeviceOptions => {
    const stored = openOptions(storedText);
    const out = { ...input };
    for (const f of deviceSecretFields) if (out[f] === '') out[f] = stored[f];
    return out;
  };

  const toDevice = (
    row: Awaited<ReturnType<MonitoringRepository['listDevices']>>[number],
    categories: Map<string, number>,
  ): DeviceRow => {
    const live = deps.live?.liveDevice(row.id);
    return {
      id: row.id,
      name: row.name,
      device_group_id: row.device_group_id,
      device_group_name: row.device_group_name,
      driver: row.driver as DriverName,
      code: row.code,
      category_id: categories.get(row.code) ?? 0,
      template_id: row.template_id,
      ip: row.ip,
      port: row.port,
      protocol_id: row.protocol_id,
      classification_id: row.classification_id,
      device_count: row.device_count,
      serial: parse<SerialSettings>(row.serial, serialSettings, defaultSerial),
      zigbee_enable: row.zigbee_enable === 1,
      zigbee_address: row.zigbee_address,
      protocol_version: row.protocol_version,
      options: answerOptions(row.options),
      check_interval: row.check_interval,
      enable: row.enable === 1,
      state: live?.state ?? row.state,
      state_reason: live?.reason ?? row.state_reason,
      state_time: live?.time ?? row.state_time,
      item_count: Number(row.item_count ?? 0),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  };

  const getDevice = async (id: number, allowed: AllowedSites) => {
    const [row] = await repo.listDevices({ ids: [id] }, allowed);
    if (!row) throw notFound();
    return toDevice(row, await repo.categoryIds());
  };

  const toItem = (row: Awaited<ReturnType<MonitoringRepository['listItems']>>[number]): ItemRow => {
    const live = deps.live?.liveItem(row.id);
    return {
      id: row.id,
      device_id: row.device_id,
      device_name: row.device_name,
      device_group_id: row.device_group_id,
      name: row.name,
      item_cell_name: row.item_cell_name,
      unit: row.unit,
      location_id: row.location_id,
      value_type: row.value_type === 0 ? 0 : 1,
      threshold_min: row.threshold_min,
      threshold_max: row.threshold_max,
      status_threshold: row.status_threshold,
      recovery_point: row.recovery_point,
      overrun_point: row.overrun_point,
      alarm_level: row.alarm_level,
      alarm_color: row.alarm_color,
      contact_group_id: row.contact_group_id,
      working_period_id: row.working_period_id,
      overrun_action_id: row.overrun_action_id,
      recovery_action_id: row.recovery_action_id,
      check_interval: row.check_interval,
      repetitions: row.repetitions,
      notification_interval: row.notification_interval,
      check_period_id: row.check_period_id,
      notification_period_id: row.notification_period_id,
      alarm_period_id: row.alarm_period_id,
      source: parse(row.source, itemSource, { kind: 'mqtt', topic: '-', json_path: '', scale: 1, command_topic: '' }),
      enable: row.enable === 1,
      state: live?.state ?? row.state,
      value: live ? live.value : row.value,
      last_check: live?.last_check ?? row.last_check,
      info: live?.info ?? row.info,
    };
  };

  const getItem = async (id: number, allowed: AllowedSites) => {
    const [row] = await repo.listItems({ ids: [id] }, allowed);
    if (!row) throw notFound();
    return toItem(row);
  };

  const toLiveItem = (item: ItemRow): LiveItem => ({
    id: item.id,
    name: item.name,
    item_cell_name: item.item_cell_name,
    unit: item.unit,
    value_type: item.value_type,
    value: item.value,
    state: item.state,
    last_check: item.last_check,
    info: item.info,
    alarm_color: item.alarm_color,
    alarm: alarmStates.has(item.state),
  });

  const itemValues = (input: ItemValues, deviceId: number): Omit<ItemsTable, 'id'> => ({
    device_id: deviceId,
    name: input.name,
    item_cell_name: input.item_cell_name,
    unit: input.unit,
    location_id: input.location_id,
    value_type: input.value_type,
    threshold_min: input.threshold_min,
    threshold_max: input.threshold_max,
    status_threshold: input.status_threshold,
    recovery_point: input.recovery_point,
    overrun_point: input.overrun_point,
    alarm_level: input.alarm_level,
    alarm_color: input.alarm_color,
    contact_group_id: input.contact_group_id,
    working_period_id: input.working_period_id,
    overrun_action_id: input.overrun_action_id,
    recovery_action_id: input.recovery_action_id,
    check_interval: input.check_interval,
    repetitions: input.repetitions,
    notification_interval: input.notification_interval,
    check_period_id: input.check_period_id,
    notification_period_id: input.notification_period_id,
    alarm_period_id: input.alarm_period_id,
    source: JSON.stringify(input.source),
    enable: input.enable ? 1 : 0,
    state: monitorState.notReady,
    value: null,
    last_check: 0,
    info: '',
  });

  const deviceValues = (input: DeviceValues) => ({
    name: input.name,
    device_group_id: input.device_group_id,
    driver: input.driver,
    code: input.code,
    template_id: input.template_id,
    ip: input.ip,
    port: input.port,
    protocol_id: input.protocol_id,
    classification_id: input.classification_id,
    device_count: input.device_count,
    serial: JSON.stringify(input.serial),
    zigbee_enable: input.zigbee_enable ? 1 : 0,
    zigbee_address: input.zigbee_address,
    protocol_version: input.protocol_version,
    // Encrypted at rest; the collector decrypts when it loads the device.
    options: mapJsonFields(JSON.stringify(input.options), deviceSecretFields, secrets.encrypt),
    check_interval: input.check_interval,
    enable: input.enable ? 1 : 0,
  });

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
          location_id: 0,
          value_type: t.value_type,
          threshold_min: t.threshold_min,
          threshold_max: t.threshold_max,
          status_threshold: t.status_threshold,
          recovery_point: t.value_type === 1 ? 0 : null,
          overrun_point: t.value_type === 1 ? 0 : null,
          alarm_level: 1,
          alarm_color: '',
          contact_group_id: 0,
          working_period_id: 0,
          overrun_action_id: 0,
          recovery_action_id: 0,
          check_interval: 10,
          repetitions: 1,
          notification_interval: 300,
          check_period_id: 0,
          notification_period_id: 0,
          alarm_period_id: 0,
          source,
          enable: true,
        },
        deviceId,
      );
    });
  };

  const copyDeviceInto = async (r: MonitoringQueries, deviceId: number, siteId: number, name: string) => {
    const [src] = await r.listDevices({ ids: [deviceId] }, null);
    if (!src) throw notFound();
    const t = now();
    const newId = await r.insertDevice({
      name: name.slice(0, 64),
      device_group_id: siteId,
      driver: src.driver,
      code: src.code,
      template_id: src.template_id,
      ip: src.ip,
      port: src.port,
      protocol_id: src.protocol_id,
      classification_id: src.classification_id,
      device_count: src.device_count,
      serial: src.serial,
      zigbee_enable: src.zigbee_enable,
      zigbee_address: src.zigbee_address,
      protocol_version: src.protocol_version,
      options: src.options,
      check_interval: src.check_interval,
      enable: src.enable,
      state: monitorState.notReady,
      state_reason: '',
      state_time: 0,
      created_at: t,
      updated_at: t,
    });
    const items = await r.listItems({ device_id: deviceId }, null);
    await r.insertItems(
      items.map(({ id: _id, device_name: _n, device_group_id: _g, site: _s, ...rest }) => ({
        ...rest,
        device_id: newId,
        source: rest.source.replaceAll(`sitewatch/${deviceId}/`, `sitewatch/${newId}/`),
        state: monitorState.notReady,
        value: null,
        last_check: 0,
        info: '',
      })),
    );
    return newId;
  };

  const copyName = (name: string, n: number) => `${name.slice(0, 58)}-${n}`;

  return {
    // ---------- sites ----------
    async listSites(
      query: { page: number; limit: number; name?: string | undefined; parent_id?: number | undefined },
      allowed: AllowedSites,
    ) {
      const rows = await repo.listSites(query, allowed);
      const pageRows = rows.slice((query.page - 1) * query.limit, query.page * query.limit);
      const devices = await repo.siteDevices(pageRows.map((r) => r.id));
      return {
        total: rows.length,
        data: pageRows.map((r) =>
          toSite(
            r,
            devices.filter((d) => d.device_group_id === r.id),
          ),
        ),
      };
    },
    async getSite(id: number, allowed: AllowedSites) {
      if (allowed && !allowed.includes(id)) throw notFound();
      return siteWithDevices(id);
    },
    async createSite(input: z.output<typeof siteInput>, scope: SiteScope) {
      // A top-level site belongs to no grant: only a user who reaches every site adds one.
      if (input.parent_id === 0) scope.requireAll();
      else scope.requireSites([input.parent_id]);
      await checkParent(null, input.parent_id);
      const t = now();
      const id = await repo.insertSite({ ...siteValues(input), created_at: t, updated_at: t });
      return siteWithDevices(id);
    },
    async updateSite(id: number, input: z.output<typeof siteInput>, scope: SiteScope) {
      const current = scope.has(id) ? await repo.getSite(id) : undefined;
      if (!current) throw notFound();
      if (current.parent_id !== input.parent_id) {
        if (input.parent_id === 0) scope.requireAll();
        else scope.requireSites([input.parent_id]);
      }
      await checkParent(id, input.parent_id);
      if (!input.has_device && (await repo.siteDevices([id])).length > 0) {
        throw conflict('monitoring.errors.siteHasDevices');
      }
      await repo.updateSite(id, { ...siteValues(input), updated_at: now() });
      return siteWithDevices(id);
    },
    /** Deletes sites, all or none: refused while any has devices or sub-sites (002 §8). */
    async deleteSites(ids: number[], scope: SiteScope) {
      const unique = [...new Set(ids)];
      return repo.transaction(async (r) => {
        for (const id of unique) if (!scope.has(id) || !(await r.getSite(id))) throw notFound();
        if ((await r.siteDevices(unique)).length > 0) throw conflict('monitoring.errors.siteHasDevices');
        if ((await r.childSites(unique)).some((c) => !unique.includes(c.id))) {
          throw conflict('monitoring.errors.siteHasChildren');
        }
        return r.deleteSites(unique);
      });
    },
    async copySite(id: number, input: { count: number; with_devices: boolean }, scope: SiteScope) {
      const created = await repo.transaction(async (r) => {
        const src = scope.has(id) ? await r.getSite(id) : undefined;
        if (!src) throw notFound();
        // Copies stand beside the original: under its parent, or at the top for a top-level site.
        if (src.parent_id === 0) scope.requireAll();
        else scope.requireSites([src.parent_id]);
        const ids: number[] = [];
        const devices = input.with_devices ? await r.siteDevices([id]) : [];
        const deviceRows = devices.length ? await r.listDevices({ ids: devices.map((d) => d.id) }, null) : [];
        for (let n = 1; n <= input.count; n++) {
          const t = now();
          const { id: _id, ...rest } = src;
          const newId = await r.insertSite({ ...rest, name: copyName(src.name, n), created_at: t, updated_at: t });
          for (const d of deviceRows) await copyDeviceInto(r, d.id, newId, d.name);
          ids.push(newId);
        }
        return ids;
      });
      await reload();
      return Promise.all(created.map(siteWithDevices));
    },
    async siteMenu(allowed: AllowedSites): Promise<SiteTreeNode[]> {
      const sites = await repo.listSites({}, allowed);
      const devices = await repo.siteDevices(sites.map((s) => s.id));
      const nodes = new Map<number, SiteTreeNode>();
      for (const s of sites) {
        const own = devices.filter((d) => d.device_group_id === s.id);
        nodes.set(s.id, {
          id: s.id,
          name: s.name,
          parent_id: s.parent_id,
          weight: s.weight,
          has_device: s.has_device === 1,
          device_count: own.length,
          abnormal_count: own.filter((d) => abnormalStates.has(deps.live?.liveDevice(d.id)?.state ?? d.state)).length,
          children: [],
        });
      }
      const roots: SiteTreeNode[] = [];
      for (const node of nodes.values()) {
        const parent = nodes.get(node.parent_id);
        if (parent && parent !== node) parent.children.push(node);
        else roots.push(node);
      }
      return roots;
    },

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
    async listTemplates(
      query: { page: number; limit: number; driver?: string | undefined; category_code?: string | undefined },
      lang: Language,
    ) {
      const rows = await repo.listTemplates(query);
      const data: DeviceTemplateRow[] = rows.map((t) =>
        deviceTemplateRow.parse({
          id: t.id,
          name: sharedText(lang, t.name_key),
          category_code: t.category_code,
          driver: t.driver,
          items: parse(t.items, z.array(templateItem), []).map((i) => ({ ...i, name: sharedText(lang, i.name) })),
        }),
      );
      return { total: data.length, data: data.slice((query.page - 1) * query.limit, query.page * query.limit) };
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
      await reload(id);
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
      await reload(id);
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
      await reload();
      return { updated, failed };
    },
    async deleteDevice(id: number, scope: SiteScope) {
      if ((await repo.listDevices({ ids: [id] }, scope.sites)).length === 0) throw notFound();
      const n = await repo.transaction((r) => r.deleteDevice(id));
      if (n === 0) throw notFound();
      await reload(id);
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
      for (const newId of ids) await reload(newId);
      const categories = await repo.categoryIds();
      return (await repo.listDevices({ ids }, scope.sites)).map((r) => toDevice(r, categories));
    },

    // ---------- items ----------
    async listItems(
      query: Page & {
        device_id?: number | undefined;
        device_group_id?: number | undefined;
        name?: string | undefined;
        state?: number | undefined;
      },
      allowed: AllowedSites,
    ) {
      const [total, rows] = await Promise.all([
        repo.countItems(query, allowed),
        repo.listItems(query, allowed, offsetOf(query)),
      ]);
      return { total, data: rows.map(toItem) };
    },
    getItem,
    async createItem(input: ItemValues, scope: SiteScope) {
      const [device] = await repo.listDevices({ ids: [input.device_id] }, scope.sites);
      if (!device) throw badRequest('monitoring.errors.deviceMissing');
      if (sourceKindOf(device.driver as DriverName) !== input.source.kind)
        throw badRequest('monitoring.errors.sourceKind');
      const [id] = await repo.insertItems([itemValues(input, input.device_id)]);
      await reload(input.device_id);
      return getItem(id!, scope.sites);
    },
    async updateItem(id: number, input: ItemValues, scope: SiteScope) {
      const [current] = await repo.listItems({ ids: [id] }, scope.sites);
      if (!current) throw notFound();
      const [device] = await repo.listDevices({ ids: [input.device_id] }, scope.sites);
      if (!device) throw badRequest('monitoring.errors.deviceMissing');
      if (sourceKindOf(device.driver as DriverName) !== input.source.kind)
        throw badRequest('monitoring.errors.sourceKind');
      const { state: _s, value: _v, last_check: _l, info: _i, ...values } = itemValues(input, input.device_id);
      await repo.updateItem(id, values);
      await reload(current.device_id);
      if (current.device_id !== input.device_id) await reload(input.device_id);
      return getItem(id, scope.sites);
    },
    /** The same settings for many items; an item the change would make invalid is listed and kept as it was. */
    async bulkUpdateItems(input: z.output<typeof itemBulkUpdate>, lang: Language, scope: SiteScope) {
      // All or nothing as to grants: one item of a site outside the grant refuses the whole request (404).
      const rows = await repo.listItems({ ids: input.ids }, null);
      if (rows.some((r) => !scope.has(r.device_group_id))) throw notFound();
      const found = new Map(rows.map((r) => [r.id, r]));
      const failed: Array<{ id: number; message: string }> = [];
      const set = { ...input.set, ...(input.set.enable !== undefined ? { enable: input.set.enable ? 1 : 0 } : {}) };
      const devices = new Set<number>();
      let updated = 0;
      await repo.transaction(async (r) => {
        for (const id of input.ids) {
          const row = found.get(id);
          if (!row) {
            failed.push({ id, message: sharedText(lang, 'errors.notFound') });
            continue;
          }
          const merged = { ...row, ...input.set, value_type: row.value_type === 0 ? (0 as const) : (1 as const) };
          const problems: string[] = [];
          const ctx = {
            addIssue: (issue: { message?: string }) =>
              problems.push(sharedText(lang, issue.message ?? 'errors.badRequest')),
          } as unknown as z.RefinementCtx;
          checkItemRules(merged, ctx);
          if (problems.length) {
            failed.push({ id, message: problems.join(' ') });
            continue;
          }
          await r.updateItem(id, set as never);
          devices.add(row.device_id);
          updated += 1;
        }
      });
      for (const d of devices) await reload(d);
      return { updated, failed };
    },
    async deleteItem(id: number, scope: SiteScope) {
      const [row] = await repo.listItems({ ids: [id] }, scope.sites);
      if (!row) throw notFound();
      await repo.deleteItem(id);
      await reload(row.device_id);
      return null;
    },

    // ---------- time periods and serial ports ----------
    async listPeriods(query: Page) {
      const rows = await repo.listPeriods();
      return {
        total: rows.length,
        data: rows
          .slice((query.page - 1) * query.limit, query.page * query.limit)
          .map((p) => ({ id: p.id, name: p.name, ranges: parse(p.ranges, timePeriodInput.shape.ranges, []) })),
      };
    },
    async createPeriod(input: z.output<typeof timePeriodInput>) {
      const id = await repo.insertPeriod({ name: input.name, ranges: JSON.stringify(input.ranges) });
      return { id, ...input };
    },
    async updatePeriod(id: number, input: z.output<typeof timePeriodInput>) {
      if (!(await repo.getPeriod(id))) throw notFound();
      await repo.updatePeriod(id, { name: input.name, ranges: JSON.stringify(input.ranges) });
      return { id, ...input };
    },
    async deletePeriod(id: number) {
      if (!(await repo.getPeriod(id))) throw notFound();
      if ((await repo.itemsUsingPeriod(id)) > 0) throw conflict('monitoring.errors.periodInUse');
      await repo.deletePeriod(id);
      return null;
    },
    async listSerialPorts() {
      const host = new Set((await deps.listHostSerialPorts?.()) ?? []);
      const saved = await repo.listSerialPorts();
      const out = new Map<string, SerialSettings & { present: boolean }>();
      for (const s of saved) {
        out.set(s.name, {
          ...parse(s.settings, serialSettings, defaultSerial),
          name: s.name,
          present: host.has(s.name),
        });
      }
      for (const name of host) if (!out.has(name)) out.set(name, { ...defaultSerial, name, present: true });
      return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    async saveSerialPort(input: SerialSettings) {
      await repo.saveSerialPort(input.name, JSON.stringify(input));
      const host = new Set((await deps.listHostSerialPorts?.()) ?? []);
      return { ...input, present: host.has(input.name) };
    },

    // ---------- live views ----------
    async deviceData(siteId: number, allowed: AllowedSites): Promise<LiveDevice[]> {
      const devices = await repo.listDevices({ device_group_id: siteId }, allowed);
      if (devices.length === 0) return [];
      const items = await repo.listItems({ device_group_id: siteId }, allowed);
      const categories = await repo.categoryIds();
      return devices.map((d) => {
        const device = toDevice(d, categories);
        return {
          id: device.id,
          name: device.name,
          driver: device.driver,
          code: device.code,
          device_group_id: device.device_group_id,
          state: device.state,
          state_reason: device.state_reason,
          state_time: device.state_time,
          items: items.filter((i) => i.device_id === d.id).map((i) => toLiveItem(toItem(i))),
        };
      });
    },
    async deviceItems(deviceId: number, cellNames: string | undefined, allowed: AllowedSites) {
      await getDevice(deviceId, allowed);
      const wanted = cellNames ? new Set(cellNames.split(',').map((s) => s.trim())) : null;
      const rows = await repo.listItems({ device_id: deviceId }, allowed);
      return rows.filter((r) => !wanted || wanted.has(r.item_cell_name)).map((r) => toLiveItem(toItem(r)));
    },
    async writeItem(itemId: number, value: number, allowed: AllowedSites) {
      // Drivers carry at most a 32-bit float: anything beyond it (or not finite) is refused, not truncated.
      if (!Number.isFinite(value) || Math.abs(value) > SETPOINT_MAX)
        throw badRequest('monitoring.errors.setpointRange');
      const item = await getItem(itemId, allowed);
      if (!deps.live) throw conflict('monitoring.errors.collectorOff');
      try {
        await deps.live.write(item.id, value);
      } catch (err) {
        throw conflict('monitoring.errors.writeFailed', {
          reason: err instanceof Error ? err.message.slice(0, 200) : '',
        });
      }
      return { item_id: item.id, value };
    },
    async dataview(
      query: Page & {
        device_group_id?: number | undefined;
        device_id?: number | undefined;
        name?: string | undefined;
        state?: number | undefined;
      },
      allowed: AllowedSites,
    ) {
      const [total, rows] = await Promise.all([
        repo.countItems(query, allowed),
        repo.listItems(query, allowed, offsetOf(query)),
      ]);
      return {
        total,
        data: rows.map((r) => ({
          ...toLiveItem(toItem(r)),
          device_id: r.device_id,
          device_name: r.device_name,
          site: r.site,
        })),
      };
    },
    /** 000 §3 dashboard statistics over the caller's sites (null: all). */
    async statistics(allowed: AllowedSites = null) {
      const [sites, devices, counts] = await Promise.all([
        repo.countSites(allowed),
        repo.countDevices({}, allowed),
        repo.itemStateCounts(allowed),
      ]);
      let items = 0;
      let normal = 0;
      let abnormal = 0;
      for (const c of counts) {
        const n = Number(c.n);
        items += n;
        if (c.state === monitorState.normal) normal += n;
        else if (abnormalStates.has(c.state)) abnormal += n;
      }
      return { device_groups: sites, devices, items, item_normal: normal, item_abnormal: abnormal };
    },
  };
};

export type MonitoringService = ReturnType<typeof createMonitoringService>;
