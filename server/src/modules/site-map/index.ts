import { rm } from 'node:fs/promises';
import path from 'node:path';
import { topViewRoutes as r } from '@sitewatch/contract/site-map';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus/bus.ts';
import { announceAtOnce } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import { notLoggedIn } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import { createImageLibrary } from './library.ts';
import { createTopViewRepository, type Viewer } from './repository.ts';
import { createTopViewService } from './service.ts';
import { createTicketStore } from './tickets.ts';
import { libraryDir, registerTopViewUploads } from './uploads.ts';

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
  deps: { db: Db; dataDir: string; clock?: () => number; bus?: Pick<EventBus, 'publish'>; access: AccessService },
) => {
  const repo = createTopViewRepository(deps.db, announceAtOnce(deps.bus));
  const service = createTopViewService({ repo, clock: deps.clock });
  const library = createImageLibrary({ repo, clock: deps.clock });
  const scope = (request: FastifyRequest) => deps.access.scope(request);
  const userOf = (request: FastifyRequest) => {
    if (!request.principal) throw notLoggedIn();
    return request.principal.user_id;
  };
  const viewer = async (request: FastifyRequest): Promise<Viewer> => ({
    userId: userOf(request),
    sites: (await scope(request)).sites,
  });

  addRoute(app, r.backgrounds, async ({ query, request }) =>
    service.backgrounds(query.device_group_id, await scope(request)),
  );
  addRoute(
    app,
    r.addBackground,
    async ({ body, request }) => service.addBackground(body, await scope(request), userOf(request)),
    {
      permission: editPicture,
      messageKey: 'topView.backgroundAdded',
    },
  );
  addRoute(
    app,
    r.updateBackground,
    async ({ params, body, request }) =>
      service.updateBackground(params.id, body, await scope(request), userOf(request)),
    { permission: editPicture, messageKey: 'topView.backgroundUpdated' },
  );
  addRoute(app, r.picture, async ({ query, request }) => service.picture(query, await scope(request)));
  addRoute(app, r.save, async ({ body, request }) => service.save(body, await scope(request), userOf(request)), {
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
  addRoute(app, r.backgroundImages, async ({ request }) => library.images('background', await viewer(request)));
  addRoute(app, r.icons, async ({ request }) =>
    (await library.images('icon', await viewer(request))).map((i) => ({ ...i, normal_img: i.url })),
  );
  addRoute(
    app,
    r.deleteImage,
    async ({ params, request }) => {
      const file = await library.remove(params.id, await viewer(request));
      // The row is gone, so the file is no longer served; a file left behind is only disk.
      await rm(path.join(libraryDir(deps.dataDir), file), { force: true }).catch((err) =>
        request.log.warn({ err, file }, 'site map: the file of a deleted image stays on disk'),
      );
      return null;
    },
    { permission: editPicture, messageKey: 'topView.imageDeleted' },
  );
  addRoute(app, r.uploadQuota, () => library.quota(), { permission: 'admin' });
  addRoute(
    app,
    r.setUploadQuota,
    ({ body }) => {
      const { t: _, ...quota } = body;
      return library.setQuota(quota);
    },
    { permission: 'admin', messageKey: 'topView.quotaSaved' },
  );
  registerTopViewUploads(app, {
    library,
    dataDir: deps.dataDir,
    permission: editPicture,
    userOf,
    access: deps.access,
  });
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
