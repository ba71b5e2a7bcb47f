import { energyRoutes as r, type TariffMode, tariffRouteModes } from '@sitewatch/contract/energy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Area } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import type { AuditLog } from '../audit/index.ts';
import { createEnergyRepository } from './repository.ts';
import { createEnergyService } from './service.ts';

/**
 * Configuring meters, tariffs and the tariff in force is device configuration: it needs the edit
 * function of /setting_device_mange (menu 212) until the energy pages bring their own menus
 * (docs/energy.md); reads need a signed-in user and show only the granted sites.
 */
const configure = { menu: 212, func: 'edit' } as const;

export const registerEnergy = (
  app: FastifyInstance,
  deps: { db: Db; series?: SeriesStore | undefined; audit: AuditLog },
) => {
  // Without a collecting store (an API-only server) the roll-ups are read straight from the tables.
  const store = deps.series ?? createSeriesStore(deps.db);
  const service = createEnergyService({
    repo: createEnergyRepository(deps.db),
    hourly: async (itemIds, t1, t2) => {
      // Roll-ups of what is still buffered are written first, so a just-read counter counts.
      await deps.series?.flush();
      return store.rollups(itemIds, 'hour', t1, t2);
    },
  });
  const sites = (request: FastifyRequest) => request.server.access.sites(request);
  const audit = (request: FastifyRequest, action: string, target: string) =>
    deps.audit.write({ module: 'energy', action, target, success: true }, request);

  addRoute(app, r.meters, async ({ query, request }) => service.meters(query, await sites(request)));
  addRoute(
    app,
    r.createMeter,
    async ({ body, request }) => {
      const row = await service.createMeter(body, await sites(request));
      await audit(request, 'create', row.name);
      return row;
    },
    { permission: configure },
  );
  addRoute(
    app,
    r.updateMeter,
    async ({ params, body, request }) => {
      const row = await service.updateMeter(params.id, body, await sites(request));
      await audit(request, 'update', row.name);
      return row;
    },
    { permission: configure },
  );
  addRoute(
    app,
    r.removeMeter,
    async ({ params, request }) => {
      await audit(request, 'delete', await service.removeMeter(params.id, await sites(request)));
      return null;
    },
    { permission: configure },
  );
  addRoute(app, r.used, async ({ query, request }) => service.used(query, await sites(request)));
  addRoute(app, r.ranking, async ({ query, request }) => service.ranking(query, await sites(request)));
  addRoute(app, r.ratio, async ({ query, request }) => service.ratio(query, await sites(request)));
  addRoute(app, r.cost, async ({ query, request }) => service.cost(query, await sites(request)));
  addRoute(app, r.pue, async ({ query, request }) => service.pue(query, await sites(request)));
  addRoute(app, r.costSets, async ({ query, request }) => service.costSets(query, await sites(request)));
  addRoute(
    app,
    r.setCost,
    async ({ params, body, request }) => {
      const row = await service.setCost(params.id, body, await sites(request));
      await audit(request, 'tariff', `${params.id}: ${row.tariff_name}`);
      return row;
    },
    { permission: configure },
  );

  for (const key of Object.keys(tariffRouteModes) as Array<keyof typeof tariffRouteModes>) {
    const mode: TariffMode = tariffRouteModes[key];
    const routes = r[key];
    addRoute(app, routes.list, async () => service.tariffs(mode));
    addRoute(
      app,
      routes.create,
      async ({ body, request }) => {
        const row = await service.createTariff(mode, body);
        await audit(request, 'create', row.name);
        return row;
      },
      { permission: configure },
    );
    addRoute(
      app,
      routes.update,
      async ({ params, body, request }) => {
        const row = await service.updateTariff(mode, params.id, body);
        await audit(request, 'update', row.name);
        return row;
      },
      { permission: configure },
    );
    addRoute(
      app,
      routes.remove,
      async ({ params, request }) => {
        await audit(request, 'delete', await service.removeTariff(mode, params.id));
        return null;
      },
      { permission: configure },
    );
  }
};

export const energyArea: Area = {
  name: 'energy',
  register: (k) => registerEnergy(k.app, { db: k.db, series: k.series, audit: k.audit }),
};
