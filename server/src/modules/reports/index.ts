import { reportsRoutes as r } from '@sitewatch/contract/reports';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import type { AccessService } from '../access/index.ts';
import { createReportsRepository } from './repository.ts';
import { createReportsService, type LiveItems } from './service.ts';

/** Menu page of the data list (docs/menus.md). */
export const dataListMenu = 102;

/** /data_list (002 §2.1): live values of the caller's sites, and their xlsx export. */
export const registerReports = (
  app: FastifyInstance,
  deps: { db: Db; live?: LiveItems | undefined; access: AccessService },
) => {
  const service = createReportsService({ repo: createReportsRepository(deps.db), live: deps.live });
  addRoute(
    app,
    r.dataList,
    async ({ query, request }) => service.list(query, await deps.access.sites(request), requestLanguage(request)),
    { permission: { menu: dataListMenu } },
  );
  addRoute(
    app,
    r.dataListExport,
    async ({ query, request, reply }) => {
      const buffer = await service.exportWorkbook(query, await deps.access.sites(request), requestLanguage(request));
      await sendXlsx(reply, 'data_list.xlsx', buffer);
      return null;
    },
    { permission: { menu: dataListMenu, func: 'export' } },
  );
};
