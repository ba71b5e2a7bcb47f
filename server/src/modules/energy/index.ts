import { energyRoutes as r, type TariffMode, tariffRouteModes } from '@sitewatch/contract/energy';
import type { OperationLogAction } from '@sitewatch/contract/operation-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventBus } from '../../bus/bus.ts';
import type { Timers } from '../../clock/timers.ts';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import { scheduleZone } from '../../schedule/zone.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import type { AccessService } from '../access/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { energyWorkbook } from './export.ts';

import { createEnergyFill, type EnergyFill } from './fill.ts';
import { createEnergyRepository } from './repository.ts';
import { createEnergyService } from './service.ts';
import { zoneClock } from './tariff.ts';

/**
 * Meters are written with the functions of /setting_energy (menu 216), tariffs and the tariff in
 * force with those of /energy_manage/param_config (menu 756); migration 0023-energy-menus gave both
 * to every role that held /setting_device_mange's edit, which these writes needed before. Reads need
 * a signed-in user and show only the granted sites.
 */
const meterGrant = (func: 'add' | 'edit' | 'delete') => ({ menu: 216, func }) as const;
const tariffGrant = (func: 'add' | 'edit' | 'delete') => ({ menu: 756, func }) as const;

/** The energy fill of one server: the stored hours follow the roll-ups, and late samples recompute. */
export const createEnergyFillFor = (deps: {
  db: Db;
  series?: SeriesStore | undefined;
  bus?: EventBus | undefined;
  log: { warn(obj: object, msg: string): void };
  /** Now in epoch ms (the app's clock). */
  clock?: (() => number) | undefined;
  timers?: Timers | undefined;
}): EnergyFill => {
  // Without a collecting store (an API-only server) the roll-ups are read straight from the tables.
  const store = deps.series ?? createSeriesStore(deps.db);
  const zone = scheduleZone();
  const fill = createEnergyFill({
    db: deps.db,
    store,
    flush: deps.series ? () => deps.series!.flush() : undefined,
    clock: zoneClock(zone),
    now: deps.clock,
    timers: deps.timers,
    zone,
    onError: (err) => deps.log.warn({ err }, 'energy fill failed'),
  });
  // A sample for an hour already read (a late one) recomputes that meter from its hour.
  deps.bus?.subscribe('samples', ({ ids, from, to, ts_ms }) => {
    const marking: Promise<unknown>[] = [];
    for (let i = from; i < to; i++) {
      const marked = fill.touched(ids[i]!, ts_ms);
      if (marked) marking.push(marked);
    }
    // The marks' writes count as the bus's work in flight (settled()).
    if (marking.length > 0) return Promise.all(marking);
  });
  return fill;
};

export const registerEnergy = (
  app: FastifyInstance,
  deps: {
    db: Db;
    series?: SeriesStore | undefined;
    audit: AuditLog;
    fill: EnergyFill;
    /** Now in epoch ms (the app's clock). */
    clock?: (() => number) | undefined;
    access: AccessService;
  },
) => {
  const { fill } = deps;
  const store = deps.series ?? createSeriesStore(deps.db);
  const zone = scheduleZone();
  const service = createEnergyService({
    repo: createEnergyRepository(deps.db),
    // A failed fill leaves the stored energy as it was: the read answers from it rather than fail.
    catchUp: (meterIds) => fill.catchUp(meterIds).catch((err) => app.log.warn({ err }, 'energy fill failed')),
    forget: (meterId) => fill.reset(meterId),
    minutes: async (itemIds, t1, t2) => {
      await deps.series?.flush();
      return store.rollups(itemIds, 'minute', t1, t2);
    },
    zone,
    now: deps.clock,
  });
  const sites = (request: FastifyRequest) => deps.access.sites(request);
  const audit = (request: FastifyRequest, action: OperationLogAction, target: string) =>
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
    { permission: meterGrant('add') },
  );
  addRoute(
    app,
    r.updateMeter,
    async ({ params, body, request }) => {
      const row = await service.updateMeter(params.id, body, await sites(request));
      await audit(request, 'update', row.name);
      return row;
    },
    { permission: meterGrant('edit') },
  );
  addRoute(
    app,
    r.removeMeter,
    async ({ params, request }) => {
      await audit(request, 'delete', await service.removeMeter(params.id, await sites(request)));
      return null;
    },
    { permission: meterGrant('delete') },
  );
  addRoute(app, r.used, async ({ query, request }) => service.used(query, await sites(request)));
  addRoute(app, r.ranking, async ({ query, request }) => service.ranking(query, await sites(request)));
  addRoute(app, r.ratio, async ({ query, request }) => service.ratio(query, await sites(request)));
  addRoute(app, r.cost, async ({ query, request }) => service.cost(query, await sites(request)));
  addRoute(app, r.pue, async ({ query, request }) => service.pue(query, await sites(request)));
  addRoute(app, r.analysis, async ({ query, request }) => service.analysis(query, await sites(request)));
  addRoute(app, r.load, async ({ query, request }) => service.load(query, await sites(request)));
  addRoute(app, r.activePower, async ({ query, request }) => service.activePower(query, await sites(request)));
  addRoute(app, r.timeSharing, async ({ query, request }) => service.timeSharing(query, await sites(request)));
  addRoute(app, r.pueMenu, async ({ request }) => service.pueMenu(await sites(request)));
  addRoute(app, r.electricityStatistics, async ({ request }) => service.electricityStatistics(await sites(request)));
  addRoute(app, r.energyDevice, async ({ query, request }) =>
    service.energyDevices(
      query.device_group_id === undefined ? undefined : [query.device_group_id],
      await sites(request),
    ),
  );
  addRoute(app, r.deviceGroupsDevice, async ({ body, request }) =>
    service.energyDevices(body.device_group_ids, await sites(request)),
  );
  addRoute(app, r.exportReport, async ({ query, request, reply }) => {
    const buffer = await energyWorkbook(service, query, await sites(request), requestLanguage(request), zone);
    await sendXlsx(reply, `energy-${query.report}.xlsx`, buffer);
    return null;
  });
  addRoute(app, r.costSets, async ({ query, request }) => service.costSets(query, await sites(request)));
  addRoute(
    app,
    r.setCost,
    async ({ params, body, request }) => {
      const row = await service.setCost(params.id, body, await sites(request));
      await audit(request, 'tariff', `${params.id}: ${row.tariff_name}`);
      return row;
    },
    { permission: tariffGrant('edit') },
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
      { permission: tariffGrant('add') },
    );
    addRoute(
      app,
      routes.update,
      async ({ params, body, request }) => {
        const row = await service.updateTariff(mode, params.id, body);
        await audit(request, 'update', row.name);
        return row;
      },
      { permission: tariffGrant('edit') },
    );
    addRoute(
      app,
      routes.remove,
      async ({ params, request }) => {
        await audit(request, 'delete', await service.removeTariff(mode, params.id));
        return null;
      },
      { permission: tariffGrant('delete') },
    );
  }
};
