import { networkRoutes as r } from '@sitewatch/contract/network';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loadDevices } from '../../collector/collector.ts';
import { walkPorts } from '../../collector/drivers/snmp-ifmib.ts';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import type { SecretBox } from '../../secrets/index.ts';
import type { AccessService } from '../access/index.ts';
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
  deps: {
    db: Db;
    secrets?: SecretBox | undefined;
    live?: NetworkLiveSource | undefined;
    flushAlarms?: (() => Promise<void>) | undefined;
    access: AccessService;
  },
) => {
  const service = createNetworkService({
    repo: createNetworkRepository(deps.db),
    live: deps.live,
    flushAlarms: deps.flushAlarms,
    // The walk reads the device as the collector does (its secrets decrypted), with the driver's session code.
    walkPorts: async (deviceId) => {
      const [device] = await loadDevices(deps.db, deviceId, deps.secrets);
      return device ? walkPorts(device) : undefined;
    },
  });
  const sites = (request: FastifyRequest) => deps.access.sites(request);
  addRoute(app, r.overview, async ({ query, request }) => service.overview(query, await sites(request)), {
    permission: networkPage,
  });
  addRoute(app, r.ports, async ({ query, request }) => service.ports(query.device_id, await sites(request)), {
    permission: networkPage,
  });
  addRoute(app, r.walk, async ({ query, request }) => service.walk(query.device_id, await sites(request)), {
    permission: networkPage,
  });
};
