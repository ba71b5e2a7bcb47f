import { seriesRoutes as r } from '@sitewatch/contract/series';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import { createSeriesService } from './service.ts';

/** Trend (000 §7), chart reads, history reports (002 §7.5) and retention of the series store. */
export const registerSeries = (app: FastifyInstance, deps: { db: Db; series?: SeriesStore | undefined }) => {
  // Reads need no running store: without one (API-only tests) a reader over the same tables serves.
  const service = createSeriesService({ db: deps.db, store: deps.series ?? createSeriesStore(deps.db) });
  // Reads are limited to the items of the caller's granted sites (null: all).
  const sites = (request: FastifyRequest) => request.server.access.sites(request);
  const visibleQuery = async <Q extends { item_ids: number[] }>(q: Q, request: FastifyRequest): Promise<Q> => ({
    ...q,
    item_ids: await service.visible(q.item_ids, await sites(request)),
  });
  addRoute(app, r.trend, async ({ query, request }) => service.trend(query, await sites(request)));
  addRoute(app, r.itemSeries, async ({ params, query, request }) =>
    service.itemSeries(params.id, query, await sites(request)),
  );
  addRoute(app, r.history, async ({ body, request }) => service.history(await visibleQuery(body, request)));
  addRoute(app, r.historyExport, async ({ body, request, reply }) => {
    const buffer = await service.historyWorkbook(await visibleQuery(body, request), requestLanguage(request));
    await reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', 'attachment; filename="history.xlsx"')
      .send(buffer);
    return null;
  });
  addRoute(app, r.deviceHistory, async ({ body, request }) => {
    const { device_id, ...range } = body;
    return service.history({ ...range, item_ids: await service.itemIdsOfDevice(device_id, await sites(request)) });
  });
  addRoute(app, r.itemHistory, async ({ body, request }) => {
    const { item_id, ...range } = body;
    return service.history(await visibleQuery({ ...range, item_ids: [item_id] }, request));
  });
  addRoute(app, r.listHistoryTemplates, () => service.listTemplates());
  addRoute(app, r.createHistoryTemplate, ({ body }) => service.createTemplate(body));
  addRoute(app, r.deleteHistoryTemplate, ({ params }) => service.deleteTemplate(params.id));
  addRoute(app, r.getRetention, () => service.getRetention());
  addRoute(app, r.putRetention, ({ body }) => service.putRetention(body), { permission: 'admin' });
};
