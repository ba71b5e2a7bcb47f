import {
  type MeterMapping,
  type MeterPoints,
  type MeterRole,
  meterPoints,
  meterRoles,
  type SafetyLimits,
  type SwitchRow,
  switchPoint,
} from '@sitewatch/contract/electrical-safety';
import { itemSource } from '@sitewatch/contract/monitoring';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { autoMapping, emptyPoints, figuresOf, hasPoints, issuesOf, switchStateOf } from './figures.ts';
import type { DeviceRow, ItemRow, StoredSettings } from './repository.ts';
import type { ElectricalSafetyDeps } from './service.ts';

const storedSwitches = z.array(switchPoint);
type SiteRow = { id: number; parent_id: number; name: string };

export interface Meter {
  device: DeviceRow;
  items: ItemRow[];
  source: 'stored' | 'auto';
  points: MeterPoints;
  switches: Array<{ item_id: number; name: string }>;
}

const parseJson = <T>(text: string, schema: z.ZodType<T>, fallback: T): T => {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
};

/** Whether the driver can write the item (a coil or holding register, an SNMP SET, an MQTT command…). */
export const writable = (source: string) => {
  let raw: unknown;
  try {
    raw = JSON.parse(source);
  } catch {
    return false;
  }
  const parsed = itemSource.safeParse(raw);
  if (!parsed.success) return false;
  const s = parsed.data;
  if (s.kind === 'modbus') return s.function === 1 || s.function === 3;
  if (s.kind === 'mqtt') return s.command_topic !== '';
  // Port metrics of network devices are read only (as device-view judges writable items).
  return s.kind !== 'snmp-ifmib';
};

export const round = (v: number, digits = 3) => Number(v.toFixed(digits));

/**
 * The meters of the caller's sites as the service reads them: each mapped device (stored mapping,
 * or one guessed from its items' cell names) with its live readings, figures, issues and switches.
 */
export const createMeterReader = (deps: ElectricalSafetyDeps) => {
  const { repo, formulas } = deps;

  const settings = (): Promise<StoredSettings> => repo.settings.get('power_safety');

  /** Granted sites, narrowed to one site and its sub-sites when asked. */
  const siteFilter = async (allowed: number[] | null, siteId?: number): Promise<number[] | null> => {
    if (siteId === undefined) return allowed;
    const sites = (await repo.sites()) as SiteRow[];
    if (!sites.some((s) => s.id === siteId) || (allowed && !allowed.includes(siteId)))
      throw notFound('electricalSafety.errors.siteNotFound');
    const tree = new Set([siteId]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const s of sites)
        if (tree.has(s.parent_id) && !tree.has(s.id)) {
          tree.add(s.id);
          grew = true;
        }
    }
    return [...tree].filter((id) => !allowed || allowed.includes(id));
  };

  const loadMeters = async (sites: number[] | null, deviceId?: number): Promise<Meter[]> => {
    const devices = await repo.candidateDevices(sites, deviceId);
    const ids = devices.map((d) => d.id);
    const [items, stored] = await Promise.all([repo.items(ids), repo.mappings(ids)]);
    const byDevice = new Map<number, ItemRow[]>();
    for (const item of items) byDevice.set(item.device_id, [...(byDevice.get(item.device_id) ?? []), item]);
    const storedOf = new Map(stored.map((s) => [s.device_id, s]));
    const meters: Meter[] = [];
    for (const device of devices) {
      const own = byDevice.get(device.id) ?? [];
      const row = storedOf.get(device.id);
      if (row) {
        // Items deleted since the mapping was stored are dropped, not shown as broken roles.
        const present = new Set(own.map((i) => i.id));
        const points = parseJson(row.points, meterPoints, emptyPoints());
        for (const role of meterRoles) if (points[role] !== null && !present.has(points[role]!)) points[role] = null;
        const switches = parseJson(row.switches, storedSwitches, []).filter((s) => present.has(s.item_id));
        meters.push({ device, items: own, source: 'stored', points, switches });
      } else {
        const auto = autoMapping(own);
        if (hasPoints(auto.points) || auto.switches.length > 0)
          meters.push({ device, items: own, source: 'auto', ...auto });
      }
    }
    return meters;
  };

  const toMapping = (m: Meter): MeterMapping => ({
    device_id: m.device.id,
    device_name: m.device.name,
    device_group_id: m.device.device_group_id,
    device_group_name: m.device.device_group_name,
    code: m.device.code,
    source: m.source,
    points: { ...m.points },
    switches: m.switches,
    items: m.items.map((i) => ({ id: i.id, name: i.name, item_cell_name: i.item_cell_name, unit: i.unit })),
  });

  const liveOf = (item: ItemRow) => {
    const live = deps.live?.liveItem(item.id);
    return live ? { value: live.value, state: live.state, last_check: live.last_check } : item;
  };

  /** Latest value per mapped role, units, and the newest reading time. */
  const readingsOf = (m: Meter) => {
    const byId = new Map(m.items.map((i) => [i.id, i]));
    const readings: Partial<Record<MeterRole, number | null>> = {};
    const units: Record<string, string> = {};
    let lastCheck = 0;
    for (const role of meterRoles) {
      const item = m.points[role] === null ? undefined : byId.get(m.points[role]!);
      if (!item) continue;
      const live = liveOf(item);
      // An unknown item (4) has no usable value.
      readings[role] = live.state === 4 || live.value === null || !Number.isFinite(live.value) ? null : live.value;
      units[role] = item.unit;
      lastCheck = Math.max(lastCheck, live.last_check);
    }
    return { readings, units, lastCheck };
  };

  const switchRows = (m: Meter): SwitchRow[] => {
    const byId = new Map(m.items.map((i) => [i.id, i]));
    return m.switches.flatMap((s) => {
      const item = byId.get(s.item_id);
      if (!item) return [];
      const live = liveOf(item);
      const value = live.value !== null && Number.isFinite(live.value) ? live.value : null;
      return [
        {
          item_id: item.id,
          name: s.name || item.name,
          item_name: item.name,
          value,
          switch_state: switchStateOf(value, live.state),
          item_state: live.state,
          writable: writable(item.source),
          last_check: live.last_check,
        },
      ];
    });
  };

  const judged = (m: Meter, limits: SafetyLimits) => {
    const { readings, units, lastCheck } = readingsOf(m);
    const figures = figuresOf(readings, limits, formulas);
    return { readings, units, lastCheck, figures, issues: issuesOf(figures, limits) };
  };

  return { settings, siteFilter, loadMeters, toMapping, switchRows, judged };
};

export type MeterReader = ReturnType<typeof createMeterReader>;
