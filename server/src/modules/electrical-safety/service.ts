import {
  type AnalysisAnswer,
  type DistributionAnswer,
  type ElectricalSafetyOverview,
  type MeterMapping,
  type MeterMappingInput,
  type MonitorRow,
  meterRoles,
  type PowerSafetySettings,
} from '@sitewatch/contract/electrical-safety';
import { decodeOperationLogDetail } from '@sitewatch/contract/operation-log';
import { badRequest, notFound } from '../../http/errors.ts';
import { emptyPoints, hasPoints, type QualityFormulas } from './figures.ts';
import { createMeterReader, writable } from './meters.ts';
import { analysisOf, overviewOf } from './quality.ts';
import type { ElectricalSafetyRepository, StoredSettings } from './repository.ts';

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
  /** Devices that measure only parts of their sites (energy's site-total rule), left out of power totals. */
  partDevices?: (() => Promise<Set<number>>) | undefined;
  live?: LiveValues | undefined;
  /** The series store's roll-ups (after a flush). */
  rollups(itemIds: number[], table: 'minute' | 'hour', t1: number, t2: number): Promise<RollupRow[]>;
  clock?: () => number;
}

export const createElectricalSafetyService = (deps: ElectricalSafetyDeps) => {
  const { repo } = deps;
  const now = () => Math.floor((deps.clock ?? Date.now)() / 1000);

  const { settings, siteFilter, loadMeters, toMapping, switchRows, judged } = createMeterReader(deps);

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
      return analysisOf(meter, (await settings()).limits, q, deps);
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
          // A refused switch keeps its value in the coded detail's parameters.
          const coded = decodeOperationLogDetail(r.detail);
          const value = Number.parseFloat(coded ? String(coded.params.value ?? '') : r.detail);
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
      const parts = (await deps.partDevices?.()) ?? new Set<number>();
      return overviewOf(meters, alarms, limits, { judged, switchRows }, parts);
    },
  };
};
export type ElectricalSafetyService = ReturnType<typeof createElectricalSafetyService>;
