import os from 'node:os';
import { type Language, sharedText } from '@sitewatch/contract';
import { levelName } from '@sitewatch/contract/alarms';
import {
  type AlarmCountRow,
  type ServiceState,
  type SiteOverviewRow,
  type SystemInfo,
  stateSeverity,
} from '@sitewatch/contract/dashboard';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { AllowedSites, DashboardRepository } from './repository.ts';
import { type CpuSampler, diskFigures, memoryFigures } from './system-info.ts';

/** Things whose real state the dashboard shows: each is running or not. */
export interface Runnable {
  running(): boolean;
}

export interface LiveItems {
  liveItem(itemId: number): { value: number | null; state: number; last_check: number } | undefined;
  liveDevice(deviceId: number): { state: number } | undefined;
}

export interface DashboardDeps {
  repo: DashboardRepository;
  cpu: CpuSampler;
  dataDir: string;
  alarms: Runnable & { flush(): Promise<void> };
  collector?: (Runnable & LiveItems) | undefined;
  notifier: Runnable;
  /** Whether the HTTP server is listening (the system service). */
  serverListening: () => boolean;
  clock: () => number;
}

/** Items counted abnormal on the dashboard (as overview/statistics counts them). */
const abnormalStates = new Set<number>([
  monitorState.abnormal,
  monitorState.warning,
  monitorState.unknown,
  monitorState.serious,
]);

const state = (on: boolean): ServiceState => (on ? 'running' : 'stopped');

/** The worst of some states by 000/002 severity; 0 (not ready) when there are none. */
export const worstState = (states: Iterable<number>): number => {
  const present = new Set(states);
  return stateSeverity.find((s) => present.has(s)) ?? monitorState.notReady;
};

export const createDashboardService = (deps: DashboardDeps) => {
  const { repo } = deps;
  const started = deps.clock();

  /** The site and its parents, top first (cycle-safe). */
  const siteChain = (sites: Map<number, { name: string; parent_id: number }>, id: number) => {
    const chain: Array<{ name: string }> = [];
    const seen = new Set<number>();
    let at = sites.get(id);
    let cur = id;
    while (at && !seen.has(cur)) {
      seen.add(cur);
      chain.unshift({ name: at.name });
      cur = at.parent_id;
      at = sites.get(cur);
    }
    return chain;
  };

  return {
    /** The figures the home page shows; with `host`, the machine's own details too (administrators). */
    async systemInfo(host: boolean): Promise<SystemInfo> {
      const { path, ...disk } = await diskFigures(deps.dataDir);
      const shown: SystemInfo = {
        cpu: { percent: deps.cpu.percent(), interval_ms: deps.cpu.intervalMs },
        memory: memoryFigures(),
        disk,
        alert_service: state(deps.alarms.running()),
        collection_service: state(deps.collector?.running() ?? false),
        system_serice: state(deps.serverListening()),
        notification_service: state(deps.notifier.running()),
        signal: null,
      };
      if (!host) return shown;
      const cpus = os.cpus();
      return {
        ...shown,
        cpu: { ...shown.cpu, cores: cpus.length, model: cpus[0]?.model.trim() ?? '' },
        disk: { ...disk, path },
        uptime: Math.floor(os.uptime()),
        server_uptime: Math.floor((deps.clock() - started) / 1000),
        hostname: os.hostname(),
        platform: `${os.type()} ${os.release()} ${os.arch()}`,
        server_time: Math.floor(deps.clock() / 1000),
      };
    },

    async alarmCount(q: { page: number; limit: number }, allowed: AllowedSites) {
      await deps.alarms.flush();
      const mark = await repo.clearMark();
      const { total, rows } = await repo.alarmRanking(mark.after_id, allowed, q.page, q.limit);
      const [items, fallbacks, sites] = await Promise.all([
        repo.itemsWithDevices(rows.map((r) => r.item_id)),
        repo.alarmsById(rows.map((r) => r.last_id)),
        repo.allSites(),
      ]);
      const siteMap = new Map(sites.map((s) => [s.id, s]));
      const byItem = new Map(items.map((i) => [i.id, i]));
      const byAlarm = new Map(fallbacks.map((a) => [a.id, a]));
      const data: AlarmCountRow[] = rows.map((r) => {
        const item = byItem.get(r.item_id);
        const alarm = byAlarm.get(r.last_id);
        const siteId = item?.device_group_id ?? alarm?.device_group_id ?? 0;
        const chain = siteChain(siteMap, siteId);
        return {
          id: r.item_id,
          name: item?.name ?? alarm?.item_name ?? '',
          alarm_count: r.n,
          device: {
            name: item?.device_name ?? alarm?.device_name ?? '',
            DeviceGroups: chain.length ? chain : alarm ? [{ name: alarm.device_group_name }] : [],
          },
        };
      });
      return { total, data, since: mark.since };
    },

    /** Restarts the ranking: alarms raised from now on are counted. */
    async clearAlarmCount() {
      await deps.alarms.flush();
      const since = Math.floor(deps.clock() / 1000);
      await repo.setClearMark(since);
      return { since };
    },

    async alarmLevelCount(allowed: AllowedSites, lang: Language) {
      await deps.alarms.flush();
      const [counts, levels] = await Promise.all([repo.openAlarmsByLevel(allowed), repo.levels()]);
      const data = [1, 2, 3, 4, 5].map((level) => {
        const def = levels.find((l) => l.level === level);
        return {
          level,
          name: def ? levelName(def.name, level, (key) => sharedText(lang, key)) : '',
          color: def?.color ?? '',
          count: counts.filter((c) => c.level === level).reduce((sum, c) => sum + c.n, 0),
        };
      });
      // Levels outside 1–5 are clamped by the engine; count every open alarm in the total.
      return { total: counts.reduce((sum, c) => sum + c.n, 0), data };
    },

    async environment(allowed: AllowedSites) {
      const rows = await repo.environment(allowed);
      const devices = new Map<number, ReturnType<typeof toDevice>>();
      const toDevice = (r: (typeof rows)[number]) => ({
        id: r.device_id,
        name: r.device_name,
        driver: r.driver,
        device_name: `${r.driver}_${r.device_id}`,
        device_group_id: r.device_group_id,
        device_group: r.device_group,
        state: deps.collector?.liveDevice(r.device_id)?.state ?? r.device_state,
        items: [] as Array<{
          id: number;
          name: string;
          item_cell_name: string;
          unit: string;
          value: number | null;
          state: number;
          last_check: number;
        }>,
      });
      for (const r of rows) {
        let d = devices.get(r.device_id);
        if (!d) {
          d = toDevice(r);
          devices.set(r.device_id, d);
        }
        const live = deps.collector?.liveItem(r.id);
        d.items.push({
          id: r.id,
          name: r.name,
          item_cell_name: r.item_cell_name,
          unit: r.unit,
          value: live ? live.value : r.value,
          state: live?.state ?? r.state,
          last_check: live?.last_check ?? r.last_check,
        });
      }
      const data = [...devices.values()];
      return { total: data.length, data };
    },

    async sites(allowed: AllowedSites) {
      await deps.alarms.flush();
      const f = await repo.siteFigures(allowed);
      const data: SiteOverviewRow[] = f.sites.map((s) => {
        const devs = f.devices.filter((d) => d.device_group_id === s.id);
        const items = f.items.filter((i) => i.device_group_id === s.id);
        return {
          id: s.id,
          name: s.name,
          parent_id: s.parent_id,
          devices: devs.reduce((sum, d) => sum + d.n, 0),
          items: items.reduce((sum, i) => sum + i.n, 0),
          item_abnormal: items.filter((i) => abnormalStates.has(i.state)).reduce((sum, i) => sum + i.n, 0),
          worst_state: worstState([...devs.map((d) => d.state), ...items.map((i) => i.state)]),
          active_alarms: f.alarms.find((a) => a.device_group_id === s.id)?.n ?? 0,
        };
      });
      return { total: data.length, data };
    },
  };
};
export type DashboardService = ReturnType<typeof createDashboardService>;
