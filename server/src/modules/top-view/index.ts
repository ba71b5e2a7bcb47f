import { topViewRoutes as r } from '@sitewatch/contract/top-view';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus/bus.ts';
import { announceAtOnce } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import { createTopViewRepository } from './repository.ts';
import { createTopViewService } from './service.ts';
import { createTicketStore } from './tickets.ts';
import { registerTopViewUploads } from './uploads.ts';

/** The editor /groupmap_edit (migration 0016): its writes need the edit function. */
const editPicture = { menu: 214, func: 'edit' } as const;
/** /setting_GIS: placing sites and the map settings. */
const editGis = { menu: 215, func: 'edit' } as const;

/**
 * The site map (issue 15; docs/site-map.md "Server"). Reads are open to every signed-in user and
 * limited to the granted sites, like the monitoring reads the live views stand on; writes need the
 * editor's (or the GIS page's) edit function and go through the same site scope.
 */
export const registerTopView = (
  app: FastifyInstance,
  deps: { db: Db; dataDir: string; clock?: () => number; bus?: Pick<EventBus, 'publish'> },
) => {
  const service = createTopViewService({
    repo: createTopViewRepository(deps.db, announceAtOnce(deps.bus)),
    clock: deps.clock,
  });
  const scope = (request: FastifyRequest) => request.server.access.scope(request);

  addRoute(app, r.backgrounds, async ({ query, request }) =>
    service.backgrounds(query.device_group_id, await scope(request)),
  );
  addRoute(app, r.addBackground, async ({ body, request }) => service.addBackground(body, await scope(request)), {
    permission: editPicture,
    messageKey: 'topView.backgroundAdded',
  });
  addRoute(
    app,
    r.updateBackground,
    async ({ params, body, request }) => service.updateBackground(params.id, body, await scope(request)),
    { permission: editPicture, messageKey: 'topView.backgroundUpdated' },
  );
  addRoute(app, r.picture, async ({ query, request }) => service.picture(query, await scope(request)));
  addRoute(app, r.save, async ({ body, request }) => service.save(body, await scope(request)), {
    permission: editPicture,
    messageKey: 'topView.saved',
    // A whole canvas: 2 000 components with their device bindings pass 1 MB.
    bodyLimit: 16 * 1024 * 1024,
  });
  addRoute(app, r.clear, async ({ params, request }) => service.clear(params.id, await scope(request)), {
    permission: editPicture,
    messageKey: 'topView.cleared',
  });
  addRoute(app, r.getRotation, async ({ request }) => service.rotation(await scope(request)));
  addRoute(app, r.setRotation, async ({ body, request }) => service.setRotation(body, await scope(request)), {
    permission: editPicture,
    messageKey: 'topView.rotationSaved',
  });
  addRoute(app, r.stationItems, async ({ query, request }) =>
    service.stationItems(query.device_id, query.cell_names, await scope(request)),
  );
  const tickets = createTicketStore(deps.clock);
  addRoute(
    app,
    r.mintTicket,
    ({ request }) => tickets.mint(request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? ''),
    { permission: editPicture },
  );
  addRoute(app, r.redeemTicket, ({ body }) => tickets.redeem(body.ticket), {
    auth: false,
    rateLimit: { max: 30, timeWindow: 60_000 },
  });
  addRoute(app, r.backgroundImages, () => service.images('background'));
  addRoute(app, r.icons, async () => (await service.images('icon')).map((i) => ({ ...i, normal_img: i.url })));
  registerTopViewUploads(app, { db: deps.db, dataDir: deps.dataDir, permission: editPicture, clock: deps.clock });
  addRoute(app, r.gis, async ({ request }) => service.gis(await scope(request)));
  addRoute(app, r.setGis, async ({ body, request }) => service.setGis(body.sites, await scope(request)), {
    permission: editGis,
  });
  addRoute(app, r.gisParams, () => service.gisParams());
  addRoute(
    app,
    r.setGisParams,
    ({ body }) => {
      const { t: _, ...params } = body;
      return service.setGisParams(params);
    },
    { permission: editGis },
  );
};
