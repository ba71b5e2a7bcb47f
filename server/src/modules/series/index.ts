import { seriesRoutes as r } from '@sitewatch/contract/series';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import { createSeriesService } from './service.ts';

/** Trend (000 §7), chart reads, history reports (002 §7.5) and retention of the series store. */
export const registerSeries = (app: FastifyInstance, deps: { db: Db; series?: SeriesStore | undefined }) => {
  // Reads need no running store: without one (API-only tests) a reader over the same tables serves.
  const service = createSeriesService({ db: deps.db, store: deps.series ?? createSeriesStore(deps.db) });
  addRoute(app, r.trend, ({ query }) => service.trend(query));
  addRoute(app, r.itemSeries, ({ params, query }) => service.itemSeries(params.id, query));
  addRoute(app, r.history, ({ body }) => service.history(body));
  addRoute(app, r.historyExport, async ({ body, request, reply }) => {
    const buffer = await service.historyWorkbook(body, requestLanguage(request));
    await reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', 'attachment; filename="history.xlsx"')
      .send(buffer);
    return null;
  });
  addRoute(app, r.deviceHistory, async ({ body }) => {
    const { device_id, ...range } = body;
    return service.history({ ...range, item_ids: await service.itemIdsOfDevice(device_id) });
  });
  addRoute(app, r.itemHistory, ({ body }) => {
    const { item_id, ...range } = body;
    return service.history({ ...range, item_ids: [item_id] });
  });
  addRoute(app, r.listHistoryTemplates, () => service.listTemplates());
  addRoute(app, r.createHistoryTemplate, ({ body }) => service.createTemplate(body));
  addRoute(app, r.deleteHistoryTemplate, ({ params }) => service.deleteTemplate(params.id));
  addRoute(app, r.getRetention, () => service.getRetention());
  addRoute(app, r.putRetention, ({ body }) => service.putRetention(body), { permission: 'admin' });
};
