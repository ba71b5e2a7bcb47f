import type { RouteQuery } from '@sitewatch/contract';
import { monitoringRoutes as r } from '@sitewatch/contract/monitoring';
import { queryOptions } from '@tanstack/react-query';
import { api } from './client.ts';

// What several features read of the monitoring area: the device and item lists (settings pages,
// reports, device view) and how often live answers are polled.

/** Live values come by push; only while the push channel is down are they polled this often (ms). */
export const liveRefreshMs = 5000;

export const devicesQuery = (query: RouteQuery<typeof r.listDevices>) =>
  queryOptions({ queryKey: ['monitoring', 'devices', query], queryFn: () => api.call(r.listDevices, { query }) });
export const itemsQuery = (query: RouteQuery<typeof r.listItems>) =>
  queryOptions({ queryKey: ['monitoring', 'items', query], queryFn: () => api.call(r.listItems, { query }) });
