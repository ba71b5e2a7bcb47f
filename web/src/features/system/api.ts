import { dashboardRoutes } from '@sitewatch/contract/dashboard';
import { systemRoutes as r } from '@sitewatch/contract/system';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const systemKeys = {
  information: ['system', 'information'],
  host: ['system', 'host'],
  tools: ['system', 'tools'],
  debugLog: ['system', 'debug-log'],
  sm4: ['system', 'sm4'],
} as const;

export const informationQuery = queryOptions({
  queryKey: systemKeys.information,
  queryFn: () => api.call(r.sysInformation),
  refetchInterval: 30_000,
});
/** The host's figures: the home page's `get_system_info` (the host details for administrators only). */
export const hostQuery = queryOptions({
  queryKey: systemKeys.host,
  queryFn: () => api.call(dashboardRoutes.systemInfo),
  refetchInterval: 3000,
});
export const toolsQuery = queryOptions({ queryKey: systemKeys.tools, queryFn: () => api.call(r.toolsState) });
export const debugLogStateQuery = queryOptions({
  queryKey: systemKeys.debugLog,
  queryFn: () => api.call(r.debugLogState),
});
export const sm4Query = queryOptions({ queryKey: systemKeys.sm4, queryFn: () => api.call(r.sm4) });
