import { deviceViewRoutes as r } from '@sitewatch/contract/device-view';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import type { AccessService } from '../access/index.ts';
import { createDeviceViewRepository } from './repository.ts';
import { createDeviceViewService, type DeviceLiveSource } from './service.ts';

export { createDeviceStateLog, type DeviceStateLog } from './state-log.ts';

/** The device pages live inside /station (menu 101): every call needs that page. */
const station = { menu: 101 } as const;

/**
 * The device pages of /station (002 §2.3): overview, log and curves of one device. Every read is
 * limited to the caller's granted sites: a device or item of another site answers 404, as the
 * other device endpoints do.
 */
export const registerDeviceView = (
  app: FastifyInstance,
  deps: { db: Db; series?: SeriesStore | undefined; live?: DeviceLiveSource | undefined; access: AccessService },
) => {
  const service = createDeviceViewService({
    repo: createDeviceViewRepository(deps.db),
    store: deps.series ?? createSeriesStore(deps.db),
    live: deps.live,
  });
  const sites = (request: FastifyRequest) => deps.access.sites(request);

  addRoute(
    app,
    r.overview,
    async ({ query, request }) => service.overview(query.device_id, await sites(request), requestLanguage(request)),
    { permission: station },
  );
  addRoute(
    app,
    r.log,
    async ({ query, request }) => service.log(query, { page: query.page, limit: query.limit }, await sites(request)),
    { permission: station },
  );
  addRoute(app, r.curve, async ({ query, request }) => service.curves(query, await sites(request)), {
    permission: station,
  });
  addRoute(
    app,
    r.curveExport,
    async ({ body, request, reply }) => {
      const buffer = await service.curveWorkbook(body, await sites(request), requestLanguage(request));
      await sendXlsx(reply, 'curve.xlsx', buffer);
      return null;
    },
    { permission: station },
  );
};
