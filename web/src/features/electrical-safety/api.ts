import { electricalSafetyRoutes as r } from '@sitewatch/contract/electrical-safety';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

/** Live pages read again every 5 s, so a switch operated shows its new state after the next poll. */
export const liveRefreshMs = 5_000;

export const electricalKeys = {
  all: ['electrical-safety'] as const,
  settings: ['electrical-safety', 'settings'] as const,
};

export const settingsQuery = queryOptions({
  queryKey: electricalKeys.settings,
  queryFn: () => api.call(r.settings),
});

export const metersQuery = (site: number | null) =>
  queryOptions({
    queryKey: [...electricalKeys.all, 'meters', site],
    queryFn: () => api.call(r.meters, { query: site ? { device_group_id: site } : {} }),
  });

export const monitorQuery = (site: number | null) =>
  queryOptions({
    queryKey: [...electricalKeys.all, 'monitor', site],
    queryFn: () => api.call(r.monitor, { query: site ? { device_group_id: site } : {} }),
    refetchInterval: liveRefreshMs,
  });

export const distributionQuery = (site: number | null) =>
  queryOptions({
    queryKey: [...electricalKeys.all, 'distribution', site],
    queryFn: () => api.call(r.distribution, { query: site ? { device_group_id: site } : {} }),
    refetchInterval: liveRefreshMs,
  });

export const overviewQuery = queryOptions({
  queryKey: [...electricalKeys.all, 'overview'],
  queryFn: () => api.call(r.overview),
  refetchInterval: liveRefreshMs,
});
