import type { RouteBody } from '@sitewatch/contract';
import { type DeviceLogKind, deviceViewRoutes as r } from '@sitewatch/contract/device-view';
import type { LiveDevice, LiveItem } from '@sitewatch/contract/monitoring';
import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { seriesRoutes } from '@sitewatch/contract/series';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { livePatch, liveRefetch, patchItemRows } from '../../api/live.ts';
import { liveRefreshMs } from '../../api/monitoring.ts';
import { tzOffset } from '../../components/time.ts';

/** The device pages of /station: overview, live items, log and curves of one device. */
export const deviceOverviewQuery = (deviceId: number) =>
  queryOptions({
    queryKey: ['monitoring', 'device', deviceId, 'overview'],
    queryFn: () => api.call(r.overview, { query: { device_id: deviceId } }),
    refetchInterval: liveRefetch(liveRefreshMs),
  });

export const deviceItemsQuery = (deviceId: number) =>
  queryOptions({
    queryKey: ['monitoring', 'device', deviceId, 'items'],
    queryFn: () => api.call(monitoringRoutes.deviceItems, { query: { device_id: deviceId } }),
    refetchInterval: liveRefetch(liveRefreshMs),
  });
livePatch<LiveItem[]>(['monitoring', 'device'], patchItemRows, (query) => query.queryKey[3] === 'items');

export interface DeviceLogFilter {
  kinds: DeviceLogKind[];
  t1?: number | undefined;
  t2?: number | undefined;
  page: number;
  limit: number;
}

export const deviceLogQuery = (deviceId: number, f: DeviceLogFilter) =>
  queryOptions({
    queryKey: ['monitoring', 'device', deviceId, 'log', f],
    queryFn: () =>
      api.call(r.log, {
        query: {
          device_id: deviceId,
          kinds: f.kinds.length ? f.kinds.join(',') : undefined,
          t1: f.t1,
          t2: f.t2,
          page: f.page,
          limit: f.limit,
        },
      }),
    placeholderData: keepPreviousData,
  });

/** Curves of items over [t1, t2] (shifted back by `shift` for the compared period). */
export const curveQuery = (itemIds: number[], t1: number, t2: number, shift = 0) =>
  queryOptions({
    queryKey: ['monitoring', 'curve', itemIds, t1, t2, shift],
    queryFn: () => api.call(r.curve, { query: { item_ids: itemIds.join(','), t1, t2, shift, points: 1000 } }),
    enabled: itemIds.length > 0,
    placeholderData: keepPreviousData,
  });

/** Items of any visible device whose name contains `name` (for comparing with other devices). */
export const itemSearchQuery = (name: string) =>
  queryOptions({
    queryKey: ['monitoring', 'item-search', name],
    queryFn: () => api.call(monitoringRoutes.dataview, { query: { name: name || undefined, page: 1, limit: 30 } }),
    staleTime: 30_000,
  });

/** The curves as an xlsx file (the server builds the sheet from the same points). */
export const exportCurve = async (body: { item_ids: number[]; t1: number; t2: number; shift: number }) => {
  const blob = (await api.send('POST', '/api/v1/device_groups/device/curve/export', {
    body: { ...body, points: 1000, tz_offset: tzOffset() },
    download: true,
  })) as Blob;
  return blob;
};

/** /station: the site menu, the live devices of a site and an item's sparkline. */
export const siteMenuQuery = queryOptions({
  queryKey: ['monitoring', 'site-menu'],
  queryFn: () => api.call(monitoringRoutes.siteMenu),
});
export const liveDataQuery = (siteId: number) =>
  queryOptions({
    queryKey: ['monitoring', 'live', siteId],
    queryFn: () => api.call(monitoringRoutes.deviceData, { query: { device_group_id: siteId } }),
    refetchInterval: liveRefetch(liveRefreshMs),
  });
// The station page's devices take their new states and item values from the push in place.
livePatch<LiveDevice[]>(['monitoring', 'live'], (devices, changes) =>
  devices.map((device) => {
    const d = changes.devices.get(device.id);
    const items = patchItemRows(device.items, changes);
    if (!d && items === device.items) return device;
    return d
      ? { ...device, state: d.state, state_reason: d.state_reason, state_time: d.state_time, items }
      : { ...device, items };
  }),
);
export const itemSeriesQuery = (itemId: number, t1: number, t2: number) =>
  queryOptions({
    queryKey: ['monitoring', 'series', itemId, t1, t2],
    queryFn: () => api.call(seriesRoutes.itemSeries, { params: { id: itemId }, query: { t1, t2, points: 300 } }),
  });

/** A control command to an item (the details tab's write button). */
export const writeItem = (body: RouteBody<typeof monitoringRoutes.writeItem>) =>
  api.call(monitoringRoutes.writeItem, { body });
