import { networkRoutes as r } from '@sitewatch/contract/network';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Area } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import { createNetworkRepository } from './repository.ts';
import { createNetworkService, type NetworkLiveSource } from './service.ts';

/** The network device page /network_device (menu 106, migration 0015): every call needs it. */
const networkPage = { menu: 106 } as const;

/**
 * Network devices (002 §2.1, §7.3; docs/network-devices.md): switches and routers whose ports are
 * read over IF-MIB. Reads only: their devices and items are configured with the monitoring API.
 * Every read is limited to the caller's granted sites.
 */
export const registerNetwork = (
  app: FastifyInstance,
  deps: { db: Db; live?: NetworkLiveSource | undefined; flushAlarms?: (() => Promise<void>) | undefined },
) => {
  const service = createNetworkService({
    repo: createNetworkRepository(deps.db),
    live: deps.live,
    flushAlarms: deps.flushAlarms,
  });
  const sites = (request: FastifyRequest) => request.server.access.sites(request);
  addRoute(app, r.overview, async ({ query, request }) => service.overview(query, await sites(request)), {
    permission: networkPage,
  });
  addRoute(app, r.ports, async ({ query, request }) => service.ports(query.device_id, await sites(request)), {
    permission: networkPage,
  });
};

export const networkArea: Area = {
  name: 'network',
  register: (k) => registerNetwork(k.app, { db: k.db, live: k.live, flushAlarms: () => k.alarms.flush() }),
};
