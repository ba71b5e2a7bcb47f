import { alarmRoutes } from '@sitewatch/contract/alarms';
import { dashboardRoutes as d } from '@sitewatch/contract/dashboard';
import { electricalSafetyRoutes } from '@sitewatch/contract/electrical-safety';
import { inspectionRoutes } from '@sitewatch/contract/inspection';
import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { seriesRoutes } from '@sitewatch/contract/series';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { refreshOnAlarm } from '../../api/live.ts';

/** 000 §9: statistics, alarms and system status every 60 s; the curve every 15 s. */
export const dashboardRefreshMs = 60_000;
export const curveRefreshMs = 15_000;

// Fresh for the client's usual 5 s: a read the start of the app asked for (prefetchHomeReads) is
// not asked again when the page mounts; a later visit reads again.
const slow = { refetchInterval: dashboardRefreshMs, retry: 0 } as const;

export const homeKeys = {
  statistics: ['home', 'statistics'],
  levels: ['home', 'levels'],
  ranking: ['home', 'ranking'],
  recent: ['home', 'recent'],
  system: ['home', 'system'],
  environment: ['home', 'environment'],
  sites: ['home', 'sites'],
  inspection: ['home', 'inspection'],
  electrical: ['home', 'electrical'],
} as const;

// Every alarm push refreshes the counters, level counts, ranking and list at once (the statistics
// count live item states on the server, so they are current then).
refreshOnAlarm(homeKeys.statistics, homeKeys.levels, homeKeys.ranking, homeKeys.recent);

export const statisticsQuery = queryOptions({
  queryKey: homeKeys.statistics,
  queryFn: () => api.call(monitoringRoutes.statistics),
  ...slow,
});
export const levelCountQuery = queryOptions({
  queryKey: homeKeys.levels,
  queryFn: () => api.call(d.alarmLevelCount),
  ...slow,
});
/** Top-5 alarm ranking (000 §7: limit 5, page 1). */
export const rankingQuery = queryOptions({
  queryKey: homeKeys.ranking,
  queryFn: () => api.call(d.alarmCount, { query: { limit: 5, page: 1 } }),
  ...slow,
});
/** Recent alarms (000 §7: review, limit 10, page 1). */
export const recentAlarmsQuery = queryOptions({
  queryKey: homeKeys.recent,
  queryFn: () => api.call(alarmRoutes.review, { query: { limit: 10, page: 1, scope: 'all' } }),
  ...slow,
});
export const systemInfoQuery = queryOptions({
  queryKey: homeKeys.system,
  queryFn: () => api.call(d.systemInfo),
  ...slow,
});
export const environmentQuery = queryOptions({
  queryKey: homeKeys.environment,
  queryFn: () => api.call(d.environment),
  ...slow,
});
/** The electrical-safety panel (002 §7.3 overview/electrical_safety): meters beyond limits, switches, load. */
export const electricalQuery = queryOptions({
  queryKey: homeKeys.electrical,
  queryFn: () => api.call(electricalSafetyRoutes.overview),
  ...slow,
});
export const sitesOverviewQuery = queryOptions({
  queryKey: homeKeys.sites,
  queryFn: () => api.call(d.sites),
  refetchInterval: dashboardRefreshMs,
});

export interface TrendPoint {
  ts: number;
  value: number;
}

/** One trend read (000 §7): a failed request draws an empty curve (000 §8). */
export const fetchTrend = async (
  deviceName: string,
  itemName: string,
  t1: number,
  t2: number,
): Promise<TrendPoint[]> => {
  try {
    const answer = await api.call(seriesRoutes.trend, {
      query: { device_name: deviceName, item_name: itemName, t1, t2 },
    });
    return answer.Records.map((r) => ({ ts: r.Timestamp, value: r.Value }));
  } catch {
    return [];
  }
};

/** 000 §2.6, §9: the newest inspection report (time since the last inspection), every 60 s. */
export const lastInspectionQuery = queryOptions({
  queryKey: homeKeys.inspection,
  queryFn: () => api.call(inspectionRoutes.last, { query: {} }),
  ...slow,
});
