import { checkWrite, type LiveDevice, monitorState } from '@sitewatch/contract/monitoring';
import { badRequest, conflict } from '../../http/errors.ts';
import { abnormalStates, type MonitoringContext, offsetOf, type Page, SETPOINT_MAX } from './context.ts';
import type { AllowedSites } from './repository.ts';

/** Live views, setpoint writes, the data list and statistics (002 §7.3, 000 §3). */
export const createViewService = (ctx: MonitoringContext) => {
  const { deps, repo, toDevice, getDevice, toItem, getItem, toLiveItem } = ctx;

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
     * the stored rows lag up to the collector's write interval behind an alarm.
     */
    async statistics(allowed: AllowedSites = null) {
      const [sites, devices, states] = await Promise.all([
        repo.countSites(allowed),
        repo.countDevices({}, allowed),
        repo.itemStates(allowed),
      ]);
      let normal = 0;
      let abnormal = 0;
      for (const row of states) {
        const state = deps.live?.liveItem(row.id)?.state ?? row.state;
        if (state === monitorState.normal) normal += 1;
        else if (abnormalStates.has(state)) abnormal += 1;
      }
      return { device_groups: sites, devices, items: states.length, item_normal: normal, item_abnormal: abnormal };
    },
  };
};
