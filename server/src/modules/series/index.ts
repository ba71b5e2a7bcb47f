import { seriesRoutes as r } from '@sitewatch/contract/series';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import type { AccessService } from '../access/index.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import { createSeriesService } from './service.ts';

/** Menu page of history reports (docs/menus.md). */
export const historyMenu = 103;

/** Trend (000 §7), chart reads, history reports (002 §7.5) and retention of the series store. */
export const registerSeries = (
  app: FastifyInstance,
  deps: {
    db: Db;
    series?: SeriesStore | undefined;
    config: Pick<GlobalConfig, 'get' | 'set'>;
    access: AccessService;
  },
) => {
  // Reads need no running store: without one (API-only tests) a reader over the same tables serves.
  const service = createSeriesService({
    db: deps.db,
    store: deps.series ?? createSeriesStore(deps.db),
    config: deps.config,
  });
  // Reads are limited to the items of the caller's granted sites (null: all).
  const sites = (request: FastifyRequest) => deps.access.sites(request);
  const visibleQuery = async <Q extends { item_ids: number[] }>(q: Q, request: FastifyRequest): Promise<Q> => ({
    ...q,
    item_ids: await service.visible(q.item_ids, await sites(request)),
  });
  addRoute(app, r.trend, async ({ query, request }) => service.trend(query, await sites(request)));
  addRoute(app, r.itemSeries, async ({ params, query, request }) =>
    service.itemSeries(params.id, query, await sites(request)),
  );
  // History reports belong to the /history_report page (menu 103, docs/menus.md); the device and
  // item history calls below serve the device pages and need a signed-in user only.
  addRoute(app, r.history, async ({ body, request }) => service.history(await visibleQuery(body, request)), {
    permission: { menu: historyMenu },
  });
  addRoute(app, r.historyTable, async ({ body, request }) => service.historyTable(await visibleQuery(body, request)), {
    permission: { menu: historyMenu },
  });
  addRoute(
    app,
    r.historyExport,
    async ({ body, request, reply }) => {
      const buffer = await service.historyWorkbook(await visibleQuery(body, request), requestLanguage(request));
      await sendXlsx(reply, 'history.xlsx', buffer);
      return null;
    },
    { permission: { menu: historyMenu, func: 'export' } },
  );
  addRoute(app, r.deviceHistory, async ({ body, request }) => {
    const { device_id, ...range } = body;
    return service.history({ ...range, item_ids: await service.itemIdsOfDevice(device_id, await sites(request)) });
  });
  addRoute(app, r.itemHistory, async ({ body, request }) => {
    const { item_id, ...range } = body;
    return service.history(await visibleQuery({ ...range, item_ids: [item_id] }, request));
  });
  // Templates are shared by the page's users; each sees only the items of its own sites.
  addRoute(app, r.listHistoryTemplates, async ({ request }) => service.listTemplates(await sites(request)), {
    permission: { menu: historyMenu },
  });
  addRoute(
    app,
    r.createHistoryTemplate,
    async ({ body, request }) => service.createTemplate(body, request.principal?.user_id ?? null, await sites(request)),
    { permission: { menu: historyMenu, func: 'add' } },
  );
  addRoute(
    app,
    r.deleteHistoryTemplate,
    async ({ params, request }) => service.deleteTemplate(params.id, await sites(request)),
    { permission: { menu: historyMenu, func: 'delete' } },
  );
  addRoute(app, r.getRetention, () => service.getRetention());
  addRoute(app, r.putRetention, ({ body }) => service.putRetention(body), { permission: 'admin' });
};
