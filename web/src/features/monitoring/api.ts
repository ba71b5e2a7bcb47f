import type { RouteBody, RouteQuery } from '@sitewatch/contract';
import type { LiveDevice } from '@sitewatch/contract/monitoring';
import { monitoringRoutes as r } from '@sitewatch/contract/monitoring';
import { notifyRoutes } from '@sitewatch/contract/notify';
import { seriesRoutes } from '@sitewatch/contract/series';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { livePatch, liveRefetch, patchItemRows } from '../../api/live.ts';

/** Live values come by push; only while the push channel is down are they polled this often (ms). */
export const liveRefreshMs = 5000;

export const siteMenuQuery = queryOptions({
  queryKey: ['monitoring', 'site-menu'],
  queryFn: () => api.call(r.siteMenu),
});
export const categoriesQuery = queryOptions({
  queryKey: ['monitoring', 'categories'],
  queryFn: () => api.call(r.listCategories),
});
export const templatesQuery = queryOptions({
  queryKey: ['monitoring', 'templates'],
  queryFn: () => api.call(r.listTemplates, { query: { page: 1, limit: 1000 } }),
});
/** Contact groups by name, for the item editor's notification target. */
export const contactGroupsQuery = queryOptions({
  queryKey: ['monitoring', 'contact-groups'],
  queryFn: () => api.call(notifyRoutes.contactGroups.list, { query: { page: 1, limit: 1000 } }),
});
export const periodsQuery = queryOptions({
  queryKey: ['monitoring', 'periods'],
  queryFn: () => api.call(r.listTimePeriods, { query: { page: 1, limit: 1000 } }),
});
export const serialPortsQuery = queryOptions({
  queryKey: ['monitoring', 'serial-ports'],
  queryFn: () => api.call(r.listSerialPorts),
});
export const devicesQuery = (query: RouteQuery<typeof r.listDevices>) =>
  queryOptions({ queryKey: ['monitoring', 'devices', query], queryFn: () => api.call(r.listDevices, { query }) });
export const itemsQuery = (query: RouteQuery<typeof r.listItems>) =>
  queryOptions({ queryKey: ['monitoring', 'items', query], queryFn: () => api.call(r.listItems, { query }) });
export const liveDataQuery = (siteId: number) =>
  queryOptions({
    queryKey: ['monitoring', 'live', siteId],
    queryFn: () => api.call(r.deviceData, { query: { device_group_id: siteId } }),
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

export const monitoringApi = {
  createSite: (body: RouteBody<typeof r.createSite>) => api.call(r.createSite, { body }),
  updateSite: (id: number, body: RouteBody<typeof r.updateSite>) => api.call(r.updateSite, { params: { id }, body }),
  deleteSite: (id: number) => api.call(r.deleteSite, { params: { id } }),
  copySite: (id: number, body: RouteBody<typeof r.copySite>) => api.call(r.copySite, { params: { id }, body }),
  createDevice: (body: RouteBody<typeof r.createDevice>) => api.call(r.createDevice, { body }),
  updateDevice: (id: number, body: RouteBody<typeof r.updateDevice>) =>
    api.call(r.updateDevice, { params: { id }, body }),
  deleteDevice: (id: number) => api.call(r.deleteDevice, { params: { id } }),
  copyDevice: (id: number, body: RouteBody<typeof r.copyDevice>) => api.call(r.copyDevice, { params: { id }, body }),
  bulkDevices: (body: RouteBody<typeof r.bulkUpdateDevices>) => api.call(r.bulkUpdateDevices, { body }),
  createItem: (body: RouteBody<typeof r.createItem>) => api.call(r.createItem, { body }),
  updateItem: (id: number, body: RouteBody<typeof r.updateItem>) => api.call(r.updateItem, { params: { id }, body }),
  deleteItem: (id: number) => api.call(r.deleteItem, { params: { id } }),
  bulkItems: (body: RouteBody<typeof r.bulkUpdateItems>) => api.call(r.bulkUpdateItems, { body }),
  writeItem: (body: RouteBody<typeof r.writeItem>) => api.call(r.writeItem, { body }),
};
