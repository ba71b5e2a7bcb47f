import { formatLocalTime, type Language, sharedText } from '@sitewatch/contract';
import {
  type CurveSeries,
  type DeviceLogEntry,
  type DeviceLogKind,
  type DeviceOverview,
  deviceLogKinds,
} from '@sitewatch/contract/device-view';
import { type DriverName, itemSource, monitorState } from '@sitewatch/contract/monitoring';
import { readJsonObject } from '../../db/json.ts';
import { notFound } from '../../http/errors.ts';
import { sheetWorkbook } from '../../http/xlsx.ts';
import type { SeriesStore } from '../../series/store.ts';
import { type DeviceViewRepository, deviceModules, type LogRow } from './repository.ts';

/** What the device pages need of the collector: the live state of devices and items. */
export interface DeviceLiveSource {
  liveItem(itemId: number): { state: number; last_check: number } | undefined;
  liveDevice(deviceId: number): { state: number; reason: string; time: number } | undefined;
}

export interface DeviceViewDeps {
  repo: DeviceViewRepository;
  store: Pick<SeriesStore, 'read'>;
  live?: DeviceLiveSource | undefined;
}

type Allowed = number[] | null;

/** Where a device is reached, as an operator reads it. */
const addressOf = (d: {
  driver: string;
  ip: string;
  port: number | null;
  serial: string;
  zigbee_enable: number;
  zigbee_address: string;
}) => {
  const parts: string[] = [];
  if (d.ip) parts.push(d.port ? `${d.ip}:${d.port}` : d.ip);
  else {
    const serial = readJsonObject(d.serial);
    if (typeof serial.name === 'string' && serial.name) {
      parts.push(typeof serial.baud_rate === 'number' ? `${serial.name} @ ${serial.baud_rate}` : serial.name);
    }
  }
  if (d.zigbee_enable === 1 && d.zigbee_address) parts.push(`zigbee ${d.zigbee_address}`);
  return parts.join(' · ');
};

/** Whether a setpoint can be written to an item through its device's driver. */
const writable = (source: string) => {
  const parsed = itemSource.safeParse(readJsonObject(source));
  if (!parsed.success) return false;
  const s = parsed.data;
  if (s.kind === 'modbus') return s.function === 1 || s.function === 3;
  if (s.kind === 'mqtt') return s.command_topic !== '';
  // Port metrics of network devices are read only.
  if (s.kind === 'snmp-ifmib') return false;
  return true;
};

/** The device pages: overview, log and curves of one device, each limited to the caller's sites. */
export const createDeviceViewService = (deps: DeviceViewDeps) => {
  const { repo } = deps;

  /** The device if the caller may see it; a device of another site is as unknown as a missing one. */
  const visibleDevice = async (id: number, allowed: Allowed) => {
    const device = await repo.device(id);
    if (!device || (allowed !== null && !allowed.includes(device.device_group_id))) throw notFound();
    return device;
  };

  const sitePath = async (siteId: number) => {
    const sites = new Map((await repo.sites()).map((s) => [s.id, s]));
    const path: string[] = [];
    let cursor = sites.get(siteId);
    for (let hops = 0; cursor && hops < 100; hops++) {
      path.unshift(cursor.name);
      cursor = cursor.parent_id ? sites.get(cursor.parent_id) : undefined;
    }
    return path;
  };

  const readCurves = async (
    q: { item_ids: number[]; t1: number; t2: number; shift: number; points: number },
    allowed: Allowed,
  ): Promise<CurveSeries[]> => {
    const rows = await repo.curveItems(q.item_ids, allowed);
    // Any item the caller cannot see (or that does not exist) makes the whole read unknown.
    if (rows.length !== q.item_ids.length) throw notFound();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const t1 = Math.max(0, q.t1 - q.shift);
    const t2 = Math.max(0, q.t2 - q.shift);
    return Promise.all(
      q.item_ids.map(async (id) => {
        const r = byId.get(id)!;
        const read = await deps.store.read(id, t1, t2, q.points);
        return {
          item_id: id,
          item_name: r.name,
          device_id: r.device_id,
          device_name: r.device_name,
          unit: r.unit,
          resolution: read.resolution,
          points: read.points,
        };
      }),
    );
  };

  return {
    async overview(deviceId: number, allowed: Allowed, lang: Language): Promise<DeviceOverview> {
      const d = await visibleDevice(deviceId, allowed);
      const [path, items, alarms] = await Promise.all([
        sitePath(d.device_group_id),
        repo.items(deviceId),
        repo.openAlarms(deviceId),
      ]);
      const liveDevice = deps.live?.liveDevice(deviceId);
      let normal = 0;
      let notReady = 0;
      let lastUpdate = 0;
      for (const item of items) {
        const live = deps.live?.liveItem(item.id);
        const state = live?.state ?? item.state;
        if (state === monitorState.normal) normal += 1;
        else if (state === monitorState.notReady) notReady += 1;
        lastUpdate = Math.max(lastUpdate, live?.last_check ?? item.last_check);
      }
      const alarming = new Set(alarms.filter((a) => a.item_id !== 0).map((a) => a.item_id)).size;
      return {
        id: d.id,
        name: d.name,
        device_group_id: d.device_group_id,
        site_path: path,
        driver: d.driver as DriverName,
        code: d.code,
        category_name: d.category_name || (d.category_key ? sharedText(lang, d.category_key) : d.code),
        template_id: d.template_id,
        template_name: d.template_name || (d.template_key ? sharedText(lang, d.template_key) : ''),
        address: addressOf(d),
        protocol_id: d.protocol_id,
        protocol_version: d.protocol_version,
        check_interval: d.check_interval,
        enable: d.enable === 1,
        state: liveDevice?.state ?? d.state,
        state_reason: liveDevice?.reason ?? d.state_reason,
        state_time: liveDevice?.time ?? d.state_time,
        counts: { total: items.length, normal, abnormal: items.length - normal - notReady, alarming },
        alarms: alarms.map((a) => ({
          id: a.id,
          item_id: a.item_id,
          item_name: a.item_name,
          kind: a.kind,
          status: a.status,
          level: a.level,
          color: a.color,
          info: a.info,
          value: a.value,
          start_time: Number(a.start_time),
          handling: a.handling,
          confirmed_by: a.confirmed_by,
        })),
        writable_item_ids: items.filter((i) => writable(i.source)).map((i) => i.id),
        last_update: lastUpdate,
      };
    },

    async log(
      q: { device_id: number; kinds?: string | undefined; t1?: number | undefined; t2?: number | undefined },
      page: { page: number; limit: number },
      allowed: Allowed,
    ): Promise<{ total: number; data: DeviceLogEntry[] }> {
      await visibleDevice(q.device_id, allowed);
      const items = await repo.items(q.device_id);
      const names = new Map(items.map((i) => [i.id, i.name]));
      const kinds = (q.kinds ? q.kinds.split(',') : [...deviceLogKinds]) as DeviceLogKind[];
      const { total, rows } = await repo.log(
        { deviceId: q.device_id, itemIds: items.map((i) => i.id), kinds, t1: q.t1, t2: q.t2 },
        page.page,
        page.limit,
      );
      const toEntry = (r: LogRow): DeviceLogEntry => {
        if (r.kind !== 'operation') {
          return {
            key: `${r.kind}:${r.id}`,
            kind: r.kind,
            time: r.time,
            event: r.kind === 'state' ? 'state' : r.action,
            action: r.action,
            state: r.state,
            prev_state: r.prev_state,
            item_id: r.item_id,
            item_name: r.item_name,
            user_name: r.user_name,
            detail: r.detail,
            result: r.result,
          };
        }
        const onDevice = deviceModules.includes(r.module);
        const itemId = onDevice ? 0 : Number(r.target);
        return {
          key: `operation:${r.id}`,
          kind: 'operation',
          time: r.time,
          event: onDevice ? 'device' : r.module === 'device_groups/device/item' ? 'setpoint' : 'item',
          action: r.action,
          state: -1,
          prev_state: -1,
          item_id: itemId,
          item_name: itemId ? (names.get(itemId) ?? '') : '',
          user_name: r.user_name,
          detail: r.detail,
          result: r.result,
        };
      };
      return { total, data: rows.map(toEntry) };
    },

    curves: readCurves,

    async curveWorkbook(
      q: { item_ids: number[]; t1: number; t2: number; shift: number; points: number; tz_offset: number },
      allowed: Allowed,
      lang: Language,
    ): Promise<Buffer> {
      const current = await readCurves({ ...q, shift: 0 }, allowed);
      const previous = q.shift > 0 ? await readCurves(q, allowed) : [];
      const h = (key: string) => sharedText(lang, `deviceView.curve.${key}`);
      const rows = [
        ...current.map((s) => [s, h('current')] as const),
        ...previous.map((s) => [s, h('previous')] as const),
      ].flatMap(([s, period]) =>
        s.points.map((p) => [s.device_name, s.item_name, period, formatLocalTime(p.ts, q.tz_offset), p.value, s.unit]),
      );
      return sheetWorkbook(
        h('sheet'),
        [
          { header: h('device'), width: 18 },
          { header: h('item'), width: 24 },
          { header: h('period'), width: 12 },
          { header: h('time'), width: 20 },
          { header: h('value'), width: 12 },
          { header: h('unit'), width: 8 },
        ],
        rows,
      );
    },
  };
};
