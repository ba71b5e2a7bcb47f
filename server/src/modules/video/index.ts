import { videoRoutes as r, videoManufacturers, videoMessages, videoProtocols } from '@sitewatch/contract/video';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { conflict } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import type { LiveViews } from './live.ts';
import type { VideoGrant, VideoService } from './service.ts';

/** Pages (menus declared in area.ts): the live view, and the setup of recorders and cameras. */
export const videoMenus = { group: 820, live: 821, setup: 822 } as const;

const livePage = { menu: videoMenus.live } as const;
const setup = (func: string) => ({ menu: videoMenus.setup, func });

/**
 * The video service's routes (001 §7, under /bbnvideo/api/v3.4.0; docs/video.md). Every row is a
 * site's: reads and writes see only the caller's granted sites (another site's device is 404), and
 * only the channels their roles grant (`role_videos`; docs/video.md, "Video grants").
 */
export const registerVideo = (
  app: FastifyInstance,
  deps: { service: VideoService; access: AccessService; live: LiveViews; dropDevice: (id: number) => void },
) => {
  const { service, live } = deps;
  const sites = async (request: FastifyRequest): Promise<VideoGrant> => ({
    sites: await deps.access.sites(request),
    channels: await deps.access.videos(request),
  });
  /** A restricted user keeps seeing the channels they add (their roles are granted them). */
  const keep = (request: FastifyRequest, device: { channels: { ID: number }[] }) =>
    deps.access.grantVideosToCaller(
      request,
      device.channels.map((c) => c.ID),
    );
  addRoute(app, r.list, async ({ query, request }) => service.list(await sites(request), query.device_group_id), {
    permission: livePage,
  });
  addRoute(
    app,
    r.create,
    async ({ body, request }) => {
      const device = await service.create(body, await sites(request));
      await keep(request, device);
      return device;
    },
    { permission: setup('add'), messageKey: 'video.saved' },
  );
  addRoute(
    app,
    r.update,
    async ({ body, request }) => {
      const before = await service.channelIds(body.id);
      const device = await service.update(body.id, body, await sites(request));
      const now = new Set(device.channels.map((c) => c.ID));
      await deps.access.dropVideoGrants(before.filter((id) => !now.has(id)));
      await keep(request, device);
      deps.dropDevice(body.id);
      return device;
    },
    { permission: setup('edit'), messageKey: 'video.saved' },
  );
  addRoute(
    app,
    r.remove,
    async ({ params, request }) => {
      const before = await service.channelIds(params.id);
      const out = await service.remove(params.id, await sites(request));
      await deps.access.dropVideoGrants(before);
      deps.dropDevice(params.id);
      return out;
    },
    { permission: setup('delete') },
  );
  addRoute(app, r.test, async ({ params, request }) => service.test(params.id, await sites(request)), {
    permission: setup('edit'),
  });
  addRoute(
    app,
    r.manufacturers,
    async () => videoManufacturers.map((v) => ({ value: v, label_key: `video.brand.${v}` })),
    {
      permission: setup('view'),
    },
  );
  addRoute(app, r.protocols, async () => videoProtocols.map((v) => ({ value: v, label_key: `video.protocol.${v}` })), {
    permission: setup('view'),
  });
  addRoute(
    app,
    r.types,
    async () => [
      { value: 1, label_key: 'video.type.1' },
      { value: 2, label_key: 'video.type.2' },
    ],
    { permission: setup('view') },
  );
  addRoute(
    app,
    r.capture,
    async ({ body, request }) => service.capture(body.DeviceID, body.ChannelNo, await sites(request)),
    { permission: livePage },
  );
  addRoute(
    app,
    r.preview,
    async ({ query, request }) => {
      const stream = await service.liveStream(query.DeviceID, query.ChannelNo, query.Quality, await sites(request));
      const view = live.open(request.principal?.user_id ?? 0, stream.deviceId, stream.key, stream.url);
      if (!view) throw conflict(videoMessages.tooManyStreams);
      return {
        Protocol: 'ws-fmp4' as const,
        Url: `/ws/live?suuid=${view.liveId}&ticket=${view.ticket}`,
        AccessToken: view.ticket ?? '',
        LiveID: view.liveId,
      };
    },
    { permission: livePage },
  );
  addRoute(
    app,
    r.release,
    async ({ body, request }) => {
      await service.visible(body.DeviceID, await sites(request));
      return { released: live.release(request.principal?.user_id ?? 0, body.DeviceID, body.LiveID) };
    },
    { permission: livePage },
  );
  // The console serves the stream itself: its own origin (the page adds ws: or wss:), never localhost:43210.
  addRoute(app, r.address, async ({ request }) => ({ address: request.host }), { permission: livePage });
  live.register(app);
};
