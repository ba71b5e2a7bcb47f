import { type RouteBody, type RouteQuery, routeUrl } from '@sitewatch/contract';
import type { DataListRow } from '@sitewatch/contract/reports';
import { reportsRoutes } from '@sitewatch/contract/reports';
import { seriesRoutes } from '@sitewatch/contract/series';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { livePatch, liveRefetch, patchItemRows } from '../../api/live.ts';
import { saveBlob } from '../../components/download.ts';

/** Live values come by push; only while the push channel is down is the data list polled this often (ms). */
export const dataListRefreshMs = 5000;

export const dataListQuery = (query: RouteQuery<typeof reportsRoutes.dataList>) =>
  queryOptions({
    queryKey: ['reports', 'data-list', query],
    queryFn: () => api.call(reportsRoutes.dataList, { query }),
    refetchInterval: liveRefetch(dataListRefreshMs),
    placeholderData: keepPreviousData,
  });
livePatch<{ total: number; data: DataListRow[] }>(['reports', 'data-list'], (page, changes) => {
  const data = patchItemRows(page.data, changes);
  return data === page.data ? page : { ...page, data };
});

export const historyTableQuery = (body: RouteBody<typeof seriesRoutes.historyTable>) =>
  queryOptions({
    queryKey: ['reports', 'history-table', body],
    queryFn: () => api.call(seriesRoutes.historyTable, { body }),
    placeholderData: keepPreviousData,
  });

/** Chart points of one item: at most `points`, min and max of each bucket kept. */
export const historySeriesQuery = (itemId: number, t1: number, t2: number) =>
  queryOptions({
    queryKey: ['reports', 'series', itemId, t1, t2],
    queryFn: () => api.call(seriesRoutes.itemSeries, { params: { id: itemId }, query: { t1, t2, points: 600 } }),
  });

export const historyTemplatesQuery = queryOptions({
  queryKey: ['reports', 'templates'],
  queryFn: () => api.call(seriesRoutes.listHistoryTemplates),
});

export const reportsApi = {
  createTemplate: (body: RouteBody<typeof seriesRoutes.createHistoryTemplate>) =>
    api.call(seriesRoutes.createHistoryTemplate, { body }),
  deleteTemplate: (id: number) => api.call(seriesRoutes.deleteHistoryTemplate, { params: { id } }),
  /** Saves the filtered data list as an xlsx file (every row, not just the page). */
  exportDataList: async (query: RouteQuery<typeof reportsRoutes.dataListExport>, fileName: string) => {
    const blob = (await api.send('GET', routeUrl(reportsRoutes.dataListExport), { query, download: true })) as Blob;
    saveBlob(blob, fileName);
  },
  /** Saves a history query's rows (min, max, average, samples per item and time) as an xlsx file. */
  exportHistory: async (body: RouteBody<typeof seriesRoutes.historyExport>, fileName: string) => {
    const blob = (await api.send('POST', routeUrl(seriesRoutes.historyExport), { body, download: true })) as Blob;
    saveBlob(blob, fileName);
  },
};
