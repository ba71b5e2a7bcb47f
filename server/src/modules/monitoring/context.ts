import { randomBytes } from 'node:crypto';
import {
  type DeviceOptions,
  type DeviceOptionsRow,
  type DeviceRow,
  type DeviceValues,
  type DriverName,
  defaultMaxAge,
  deviceOptions,
  deviceSecretFields,
  type ItemRow,
  type ItemSource,
  type ItemValues,
  itemPurpose,
  itemSource,
  type LiveItem,
  monitorState,
  type SerialSettings,
  serialSettings,
} from '@sitewatch/contract/monitoring';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { ItemsTable } from '../../db/schema-monitoring.ts';
import { notFound } from '../../http/errors.ts';
import { createSecretBox, mapJsonFields, type SecretBox } from '../../secrets/index.ts';
import type { AllowedSites, MonitoringQueries, MonitoringRepository } from './repository.ts';

/** What the service needs of the collector (absent when no collector runs, as in most tests). */
export interface LiveSource {
  liveItem(
    itemId: number,
  ): { value: number | null; state: number; last_check: number; info: string; alarm?: boolean } | undefined;
  liveDevice(deviceId: number): { state: number; reason: string; time: number } | undefined;
  write(itemId: number, value: number): Promise<void>;
  /** The items whose live state may not be in their row yet: [item id, live state]. */
  unsavedStates?(): Array<[itemId: number, live: number]>;
}

export interface MonitoringDeps {
  repo: MonitoringRepository;
  clock?: () => number;
  live?: LiveSource | undefined;
  /** Serial ports present on this host (e.g. /dev/ttyS0). */
  listHostSerialPorts?: () => Promise<string[]>;
  /** Encrypts device secrets at rest; the demo seeding writes none and may leave it out. */
  secrets?: SecretBox | undefined;
}

export type Page = { page: number; limit: number };
/** The largest setpoint a driver can carry (a 32-bit float's maximum). */
export const SETPOINT_MAX = 3.4e38;

export const offsetOf = (p: Page) => ({ offset: (p.page - 1) * p.limit, limit: p.limit });

export const parse = <T>(text: string, schema: z.ZodType<T>, fallback: T): T => {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    return fallback;
  }
};

/** The item source kind a driver reads. */
export const sourceKindOf = (driver: DriverName): ItemSource['kind'] =>
  driver === 'modbus-tcp' || driver === 'modbus-rtu' ? 'modbus' : driver;

export const abnormalStates = new Set<number>([
  monitorState.abnormal,
  monitorState.warning,
  monitorState.unknown,
  monitorState.serious,
]);
export const alarmStates = new Set<number>([monitorState.abnormal, monitorState.warning, monitorState.serious]);

/** The stored columns of a new item (not ready, no value yet). */
export const itemValues = (input: ItemValues, deviceId: number): Omit<Selectable<ItemsTable>, 'id'> => ({
  device_id: deviceId,
  name: input.name,
  item_cell_name: input.item_cell_name,
  unit: input.unit,
  purpose: input.purpose ?? '',
  decimals: input.decimals,
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
  confirm_action_id: input.confirm_action_id,
  check_interval: input.check_interval,
  repetitions: input.repetitions,
  notification_interval: input.notification_interval,
  check_period_id: input.check_period_id,
  notification_period_id: input.notification_period_id,
  alarm_period_id: input.alarm_period_id,
  source: JSON.stringify(input.source),
  telemetry_only: input.telemetry_only ? 1 : 0,
  max_age: input.max_age ?? defaultMaxAge(input.source.kind),
  fault_alarm: input.fault_alarm ? 1 : 0,
  enable: input.enable ? 1 : 0,
  state: monitorState.notReady,
  value: null,
  last_check: 0,
  info: '',
});

/** Items as the API answers them, with the collector's live value over the stored one. */
const itemReader = (deps: MonitoringDeps) => {
  const { repo } = deps;
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
      purpose: itemPurpose.catch('').parse(row.purpose),
      decimals: row.decimals,
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
      confirm_action_id: row.confirm_action_id,
      check_interval: row.check_interval,
      repetitions: row.repetitions,
      notification_interval: row.notification_interval,
      check_period_id: row.check_period_id,
      notification_period_id: row.notification_period_id,
      alarm_period_id: row.alarm_period_id,
      source: parse(row.source, itemSource, { kind: 'mqtt', topic: '-', json_path: '', scale: 1, command_topic: '' }),
      telemetry_only: row.telemetry_only === 1,
      max_age: row.max_age,
      fault_alarm: row.fault_alarm === 1,
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

  /** An item as the live lists show it. */
  const toLiveItem = (item: ItemRow): LiveItem => ({
    id: item.id,
    name: item.name,
    item_cell_name: item.item_cell_name,
    unit: item.unit,
    decimals: item.decimals,
    value_type: item.value_type,
    value: item.value,
    state: item.state,
    last_check: item.last_check,
    info: item.info,
    alarm_color: item.alarm_color,
    // The engine's flag (a point fault while unknown counts); stored rows know only the state.
    alarm: deps.live?.liveItem(item.id)?.alarm ?? alarmStates.has(item.state),
  });
  return { toItem, getItem, toLiveItem };
};

/** What the sub-services share: the repository, the clock, secrets and the row mappers. */
export const createMonitoringContext = (deps: MonitoringDeps) => {
  const { repo } = deps;
  const secrets = deps.secrets ?? createSecretBox(randomBytes(32));
  const now = () => Math.floor((deps.clock?.() ?? Date.now()) / 1000);
  const defaultSerial = serialSettings.parse({});
  const defaultOptions = deviceOptions.parse({});

  // ---------- devices and items ----------
  /** Secrets are answered as '' plus a "set" flag (issue 11, finding 7); the collector reads the row itself. */
  const openOptions = (text: string) =>
    parse(mapJsonFields(text, deviceSecretFields, secrets.decrypt), deviceOptions, defaultOptions);
  const answerOptions = (text: string): DeviceOptionsRow => {
    const o = openOptions(text);
    return {
      ...o,
      community: '',
      mqtt_password: '',
      v3_auth_key: '',
      v3_priv_key: '',
      community_set: o.community !== '',
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

  /**
   * The locations an item of a device in `siteId` may have (issue 38): none (0), the device's site,
   * or a site under it; a site that does not exist, or any other site, is refused.
   */
  const locationsFor = async (siteId: number) => {
    const parents = new Map((await repo.listSites({}, null)).map((s) => [s.id, s.parent_id]));
    return (locationId: number) => {
      if (locationId === 0) return true;
      if (!parents.has(locationId)) return false;
      let cursor: number | undefined = locationId;
      for (let hops = 0; cursor && hops < 1000; hops++) {
        if (cursor === siteId) return true;
        cursor = parents.get(cursor);
      }
      return false;
    };
  };
  const { toItem, getItem, toLiveItem } = itemReader(deps);

  return {
    deps,
    repo,
    now,
    defaultSerial,
    keepSecrets,
    toDevice,
    getDevice,
    toItem,
    getItem,
    toLiveItem,
    itemValues,
    deviceValues,
    copyDeviceInto,
    copyName,
    locationsFor,
  };
};

export type MonitoringContext = ReturnType<typeof createMonitoringContext>;
