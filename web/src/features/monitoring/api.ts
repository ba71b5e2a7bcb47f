import type { RouteBody } from '@sitewatch/contract';
import { monitoringRoutes as r } from '@sitewatch/contract/monitoring';
import { notifyRoutes } from '@sitewatch/contract/notify';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export { devicesQuery, itemsQuery } from '../../api/monitoring.ts';
export { periodsQuery } from '../../components/period-select.tsx';

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
export const serialPortsQuery = queryOptions({
  queryKey: ['monitoring', 'serial-ports'],
  queryFn: () => api.call(r.listSerialPorts),
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
};
