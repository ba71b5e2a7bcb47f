import { checkWrite, type LiveDevice, monitorState } from '@sitewatch/contract/monitoring';
import { badRequest, conflict } from '../../http/errors.ts';
import { abnormalStates, type MonitoringContext, offsetOf, type Page, SETPOINT_MAX } from './context.ts';
import type { AllowedSites } from './repository.ts';

/** Past this many items whose live state is not in their row, statistics reads every row instead. */
const maxUnsavedCorrected = 2000;

/** Live views, setpoint writes, the data list and statistics (002 §7.3, 000 §3). */
export const createViewService = (ctx: MonitoringContext) => {
  const { deps, repo, toDevice, getDevice, toItem, getItem, toLiveItem } = ctx;

  /** Items per state, each counted in its live state: every row read (the slow way). */
  const liveStateCounts = async (allowed: AllowedSites) => {
    const counts = new Map<number, number>();
    for (const row of await repo.itemStates(allowed)) {
      const state = deps.live?.liveItem(row.id)?.state ?? row.state;
      counts.set(state, (counts.get(state) ?? 0) + 1);
    }
    return counts;
  };
  /** The same, from the rows counted by state and the items whose live state is not in their row yet. */
  const correctedStateCounts = async (allowed: AllowedSites, unsaved: Array<[number, number]>) => {
    const live = new Map(unsaved);
    const { byState: counts, states } = await repo.itemStateCounts(allowed, [...live.keys()]);
    // Only the rows the count saw (the caller's sites, not deleted since): each moves to its live state.
    for (const [id, stored] of states) {
      const state = live.get(id)!;
      counts.set(stored, counts.get(stored)! - 1);
      counts.set(state, (counts.get(state) ?? 0) + 1);
    }
    return counts;
  };

  return {
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
      // The register type and scale bound what the device can hold: refused, never wrapped or rounded away.
      const fits = checkWrite(item.source, value);
      if (!fits.ok) {
        throw fits.binary
          ? badRequest('monitoring.errors.writeBinary')
          : badRequest('monitoring.errors.writeRange', { type: fits.type, min: fits.min, max: fits.max });
      }
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
    /**
     * 000 §3 dashboard statistics over the caller's sites (null: all). Item states are the live ones:
     * the stored rows lag up to the collector's write interval behind an alarm. The rows are counted
     * by state, then the few items whose live state is not in their row yet are moved to it; only
     * while the collector has not written most rows (its first seconds) is every row read.
     */
    async statistics(allowed: AllowedSites = null) {
      const unsaved = deps.live?.unsavedStates?.() ?? [];
      const [sites, devices, counts] = await Promise.all([
        repo.countSites(allowed),
        repo.countDevices({}, allowed),
        unsaved.length > maxUnsavedCorrected ? liveStateCounts(allowed) : correctedStateCounts(allowed, unsaved),
      ]);
      let items = 0;
      let normal = 0;
      let abnormal = 0;
      for (const [state, n] of counts) {
        items += n;
        if (state === monitorState.normal) normal += n;
        else if (abnormalStates.has(state)) abnormal += n;
      }
      return { device_groups: sites, devices, items, item_normal: normal, item_abnormal: abnormal };
    },
  };
};
