import {
  type AnalysisAnswer,
  type DistributionAnswer,
  defaultSafetyLimits,
  type ElectricalSafetyOverview,
  type MeterMapping,
  type MeterMappingInput,
  type MeterPoints,
  type MeterRole,
  type MonitorRow,
  meterPoints,
  meterRoles,
  type PowerSafetySettings,
  type QualityFigures,
  type QualityIssue,
  type SafetyLimits,
  type SwitchRow,
  safetyLimits,
  switchPoint,
} from '@sitewatch/contract/electrical-safety';
import { itemSource } from '@sitewatch/contract/monitoring';
import { z } from 'zod';
import { badRequest, notFound } from '../../http/errors.ts';
import {
  autoMapping,
  emptyPoints,
  figuresOf,
  hasPoints,
  issuesOf,
  type QualityFormulas,
  switchStateOf,
} from './figures.ts';
import type { DeviceRow, ElectricalSafetyRepository, ItemRow, StoredSettings } from './repository.ts';

export type { StoredSettings } from './repository.ts';

/** What the service reads of the collector: the live value of an item (absent: the stored one). */
export interface LiveValues {
  liveItem(itemId: number): { value: number | null; state: number; last_check: number } | undefined;
}

export interface RollupRow {
  item_id: number;
  ts: number;
  sum: number;
  count: number;
}

export interface ElectricalSafetyDeps {
  repo: ElectricalSafetyRepository;
  formulas: QualityFormulas;
  live?: LiveValues | undefined;
  /** The series store's roll-ups (after a flush). */
  rollups(itemIds: number[], table: 'minute' | 'hour', t1: number, t2: number): Promise<RollupRow[]>;
  clock?: () => number;
}

const storedSwitches = z.array(switchPoint);
type SiteRow = { id: number; parent_id: number; name: string };

interface Meter {
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
const writable = (source: string) => {
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

const round = (v: number, digits = 3) => Number(v.toFixed(digits));

export const createElectricalSafetyService = (deps: ElectricalSafetyDeps) => {
  const { repo, formulas } = deps;
  const now = () => Math.floor((deps.clock ?? Date.now)() / 1000);

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

  return {
    settings,

    async meters(
      q: { device_group_id?: number | undefined; device_id?: number | undefined },
      allowed: number[] | null,
    ) {
      const sites = await siteFilter(allowed, q.device_group_id);
      return (await loadMeters(sites, q.device_id)).map(toMapping);
    },

    async setMeter(deviceId: number, input: MeterMappingInput, allowed: number[] | null): Promise<MeterMapping> {
      const device = await repo.device(deviceId);
      if (!device || (allowed && !allowed.includes(device.device_group_id)))
        throw notFound('electricalSafety.errors.deviceNotFound');
      const own = new Set((await repo.items([deviceId])).map((i) => i.id));
      const used = new Set<number>();
      const claim = (itemId: number) => {
        if (!own.has(itemId)) throw badRequest('electricalSafety.errors.itemNotOfDevice');
        if (used.has(itemId)) throw badRequest('electricalSafety.errors.itemTwice');
        used.add(itemId);
      };
      for (const role of meterRoles) if (input.points[role] !== null) claim(input.points[role]!);
      for (const s of input.switches) claim(s.item_id);
      const points = Object.fromEntries(meterRoles.map((r) => [r, input.points[r]]));
      await repo.saveMapping(deviceId, JSON.stringify(points), JSON.stringify(input.switches), now());
      const [meter] = await loadMeters(null, deviceId);
      return toMapping(meter!);
    },

    async resetMeter(deviceId: number, allowed: number[] | null): Promise<MeterMapping> {
      const device = await repo.device(deviceId);
      if (!device || (allowed && !allowed.includes(device.device_group_id)))
        throw notFound('electricalSafety.errors.deviceNotFound');
      await repo.removeMapping(deviceId);
      const [meter] = await loadMeters(null, deviceId);
      const items = await repo.items([deviceId]);
      // A device whose cell names say nothing electrical answers with an empty mapping.
      return meter
        ? toMapping(meter)
        : toMapping({ device, items, source: 'auto', points: emptyPoints(), switches: [] });
    },

    async monitor(
      q: { device_group_id?: number | undefined; device_id?: number | undefined },
      allowed: number[] | null,
    ) {
      const sites = await siteFilter(allowed, q.device_group_id);
      const { limits } = await settings();
      const meters = (await loadMeters(sites, q.device_id)).filter((m) => hasPoints(m.points));
      const data: MonitorRow[] = meters.map((m) => {
        const j = judged(m, limits);
        return {
          device_id: m.device.id,
          device_name: m.device.name,
          device_group_id: m.device.device_group_id,
          device_group_name: m.device.device_group_name,
          state: m.device.state,
          source: m.source,
          readings: j.readings,
          units: j.units,
          figures: j.figures,
          issues: j.issues.map((i) => i.issue),
          last_check: j.lastCheck,
        };
      });
      return { limits, data };
    },

    async analysis(
      q: { device_id: number; t1: number; t2: number },
      allowed: number[] | null,
    ): Promise<AnalysisAnswer> {
      const [meter] = (await loadMeters(allowed, q.device_id)).filter((m) => hasPoints(m.points));
      if (!meter) throw notFound('electricalSafety.errors.meterNotFound');
      const { limits } = await settings();
      // Minute buckets up to two days (2 880 points), hourly up to 62 days (1 488), then local days
      // folded from the hourly roll-ups (366 for a year: a year of hours answered in about a second).
      const span = q.t2 - q.t1;
      const resolution = span <= 2 * 86_400 ? 'minute' : span <= 62 * 86_400 ? 'hour' : 'day';
      const roleOf = new Map<number, MeterRole>();
      for (const role of meterRoles) if (meter.points[role] !== null) roleOf.set(meter.points[role]!, role);
      const rows = await deps.rollups([...roleOf.keys()], resolution === 'minute' ? 'minute' : 'hour', q.t1, q.t2);
      const bucketOf = (ts: number) => {
        if (resolution !== 'day') return ts;
        const d = new Date(ts * 1000);
        return Math.floor(new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() / 1000);
      };
      // Sums and counts per bucket and role, so a day's mean weighs every sample alike.
      const sums = new Map<number, Map<MeterRole, { sum: number; count: number }>>();
      for (const r of rows) {
        const role = roleOf.get(r.item_id);
        if (!role || r.count <= 0) continue;
        const key = bucketOf(r.ts);
        const b = sums.get(key) ?? new Map<MeterRole, { sum: number; count: number }>();
        const acc = b.get(role) ?? { sum: 0, count: 0 };
        acc.sum += r.sum;
        acc.count += r.count;
        b.set(role, acc);
        sums.set(key, b);
      }
      const buckets = new Map<number, Partial<Record<MeterRole, number | null>>>();
      for (const [ts, b] of sums)
        buckets.set(ts, Object.fromEntries([...b].map(([role, acc]) => [role, acc.sum / acc.count])));
      const points = [...buckets.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([ts, means]) => ({
          ts,
          ...figuresOf(means, limits, formulas),
          phases: Object.fromEntries(
            Object.entries(means).map(([k, v]) => [k, v === null || v === undefined ? null : round(v)]),
          ),
        }));
      const limitOf: Partial<Record<keyof QualityFigures, number>> = {
        voltage_unbalance: limits.voltage_unbalance_max,
        vuf: limits.voltage_unbalance_max,
        current_unbalance: limits.current_unbalance_max,
        thd_u: limits.thd_u_max,
        thd_i: limits.thd_i_max,
        pf: limits.pf_min,
        frequency_deviation: limits.frequency_band,
        voltage_deviation: limits.voltage_deviation_max,
      };
      const summary: AnalysisAnswer['summary'] = {};
      for (const key of Object.keys(limitOf) as Array<keyof typeof limitOf>) {
        const values = points.map((p) => p[key]).filter((v): v is number => typeof v === 'number');
        const limit = limitOf[key]!;
        const beyond = (v: number) =>
          key === 'pf' ? Math.abs(v) < limit : key === 'frequency_deviation' ? Math.abs(v) > limit + 1e-9 : v > limit;
        summary[key] = values.length
          ? {
              avg: round(values.reduce((s, v) => s + v, 0) / values.length),
              min: Math.min(...values),
              max: Math.max(...values),
              over_pct: round((values.filter(beyond).length / values.length) * 100, 2),
              limit,
            }
          : { avg: null, min: null, max: null, over_pct: null, limit };
      }
      return {
        device_id: meter.device.id,
        device_name: meter.device.name,
        resolution,
        limits,
        points,
        summary,
      };
    },

    async publicSettings(): Promise<PowerSafetySettings> {
      const s = await settings();
      return {
        control_enabled: s.control_enabled,
        password_set: s.password_hash !== '',
        password_updated_at: s.password_updated_at,
        limits: s.limits,
      };
    },

    async saveSettings(next: StoredSettings) {
      await repo.settings.set('power_safety', next);
    },

    async distribution(q: { device_group_id?: number | undefined }, allowed: number[] | null) {
      const sites = await siteFilter(allowed, q.device_group_id);
      const s = await settings();
      const meters = await loadMeters(sites);
      const bySite = new Map<number, DistributionAnswer['data'][number]>();
      for (const m of meters) {
        const j = judged(m, s.limits);
        const site = bySite.get(m.device.device_group_id) ?? {
          device_group_id: m.device.device_group_id,
          device_group_name: m.device.device_group_name,
          devices: [],
        };
        site.devices.push({
          device_id: m.device.id,
          device_name: m.device.name,
          state: m.device.state,
          readings: j.readings,
          units: j.units,
          issues: j.issues.map((i) => i.issue),
          switches: switchRows(m),
        });
        bySite.set(m.device.device_group_id, site);
      }
      return {
        control_enabled: s.control_enabled,
        password_set: s.password_hash !== '',
        data: [...bySite.values()],
      };
    },

    /** The switch an operation names: a switch of a mapped device in the caller's sites, else 404. */
    async switchTarget(itemId: number, allowed: number[] | null) {
      const item = await repo.item(itemId);
      if (!item) throw notFound('electricalSafety.errors.switchNotFound');
      const [meter] = await loadMeters(allowed, item.device_id);
      const entry = meter?.switches.find((s) => s.item_id === itemId);
      if (!meter || !entry) throw notFound('electricalSafety.errors.switchNotFound');
      return { item, meter, name: entry.name || item.name, writable: writable(item.source) };
    },

    async switchLog(
      q: { page: number; limit: number; device_group_id?: number | undefined },
      allowed: number[] | null,
    ) {
      const sites = await siteFilter(allowed, q.device_group_id);
      const meters = await loadMeters(sites);
      const names = new Map<number, { switch_name: string; device_name: string; device_group_name: string }>();
      for (const m of meters)
        for (const s of m.switches) {
          const item = m.items.find((i) => i.id === s.item_id);
          names.set(s.item_id, {
            switch_name: s.name || item?.name || '',
            device_name: m.device.name,
            device_group_name: m.device.device_group_name,
          });
        }
      const { total, rows } = await repo.switchLog([...names.keys()], (q.page - 1) * q.limit, q.limit);
      return {
        total,
        data: rows.map((r) => {
          const itemId = Number(r.target);
          const value = Number.parseFloat(r.detail);
          return {
            id: r.id,
            time: Number(r.time),
            user_name: r.user_name,
            item_id: itemId,
            ...(names.get(itemId) ?? { switch_name: '', device_name: '', device_group_name: '' }),
            value: Number.isFinite(value) ? value : null,
            result: r.result,
            detail: r.detail,
          };
        }),
      };
    },

    async overview(allowed: number[] | null): Promise<ElectricalSafetyOverview> {
      const { limits } = await settings();
      const meters = await loadMeters(allowed);
      const alarms = await repo.openAlarms(meters.map((m) => m.device.id));
      type Site = ElectricalSafetyOverview['sites'][number];
      const sites = new Map<number, Site>();
      const issues: ElectricalSafetyOverview['issues'] = [];
      const worst: ElectricalSafetyOverview['worst'] = {
        voltage_unbalance: null,
        current_unbalance: null,
        thd_u: null,
        pf: null,
        frequency_deviation: null,
      };
      const higher = (a: number | null, b: number | null) => (b === null ? a : a === null ? b : Math.max(a, b));
      for (const m of meters) {
        const site = sites.get(m.device.device_group_id) ?? {
          device_group_id: m.device.device_group_id,
          device_group_name: m.device.device_group_name,
          meters: 0,
          meters_with_issues: 0,
          switches: 0,
          switches_on: 0,
          switches_off: 0,
          switches_unknown: 0,
          active_alarms: 0,
          power_kw: null,
        };
        site.active_alarms += alarms.get(m.device.id) ?? 0;
        if (hasPoints(m.points)) {
          const j = judged(m, limits);
          site.meters += 1;
          if (j.issues.length) site.meters_with_issues += 1;
          const p = j.readings.p;
          if (typeof p === 'number') site.power_kw = round((site.power_kw ?? 0) + p, 2);
          const f = j.figures;
          worst.voltage_unbalance = higher(worst.voltage_unbalance, f.vuf ?? f.voltage_unbalance);
          worst.current_unbalance = higher(worst.current_unbalance, f.current_unbalance);
          worst.thd_u = higher(worst.thd_u, f.thd_u);
          if (f.pf !== null)
            worst.pf = worst.pf === null ? f.pf : Math.abs(f.pf) < Math.abs(worst.pf) ? f.pf : worst.pf;
          if (f.frequency_deviation !== null)
            worst.frequency_deviation =
              worst.frequency_deviation === null ||
              Math.abs(f.frequency_deviation) > Math.abs(worst.frequency_deviation)
                ? f.frequency_deviation
                : worst.frequency_deviation;
          for (const i of j.issues)
            issues.push({
              device_id: m.device.id,
              device_name: m.device.name,
              device_group_name: m.device.device_group_name,
              ...i,
            });
        }
        for (const s of switchRows(m)) {
          site.switches += 1;
          if (s.switch_state === 'on') site.switches_on += 1;
          else if (s.switch_state === 'off') site.switches_off += 1;
          else site.switches_unknown += 1;
        }
        sites.set(m.device.device_group_id, site);
      }
      const list = [...sites.values()];
      const sum = (
        key:
          | 'meters'
          | 'meters_with_issues'
          | 'switches'
          | 'switches_on'
          | 'switches_off'
          | 'switches_unknown'
          | 'active_alarms',
      ) => list.reduce((s, r) => s + r[key], 0);
      const powered = list.filter((s) => s.power_kw !== null);
      const order: QualityIssue[] = [
        'voltage',
        'voltage_unbalance',
        'current_unbalance',
        'thd_u',
        'thd_i',
        'pf',
        'frequency',
      ];
      issues.sort((a, b) => order.indexOf(a.issue) - order.indexOf(b.issue) || a.device_id - b.device_id);
      return {
        meters: sum('meters'),
        meters_with_issues: sum('meters_with_issues'),
        switches: sum('switches'),
        switches_on: sum('switches_on'),
        switches_off: sum('switches_off'),
        switches_unknown: sum('switches_unknown'),
        active_alarms: sum('active_alarms'),
        power_kw: powered.length
          ? round(
              powered.reduce((s, r) => s + (r.power_kw ?? 0), 0),
              2,
            )
          : null,
        worst,
        limits,
        sites: list,
        issues: issues.slice(0, 50),
      };
    },
  };
};
export type ElectricalSafetyService = ReturnType<typeof createElectricalSafetyService>;
