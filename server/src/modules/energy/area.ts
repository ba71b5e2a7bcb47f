import { defineArea } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { seedEnergyDemo } from './demo.ts';
import type { EnergyFill } from './fill.ts';
import { createEnergyFillFor, registerEnergy } from './index.ts';
import * as quality from './quality.ts';
import { createEnergyRepository } from './repository.ts';
import { partDevicesOf } from './site-total.ts';

/** What other areas ask of the site-total rule. */
export interface EnergySiteTotal {
  /** Devices whose energy meters all measure parts beneath an incoming meter (site-total.ts). */
  partDevices(): Promise<Set<number>>;
}
const createEnergySiteTotal = (db: Db): EnergySiteTotal => {
  const repo = createEnergyRepository(db);
  return { partDevices: async () => partDevicesOf(await repo.meters(null)) };
};

declare module '../../area.ts' {
  interface Services {
    /** The stored energy's fill (tests run it by hand). */
    energyFill: EnergyFill;
    /** The power-quality formulas (pure), shared with electrical safety. */
    energyQuality: typeof quality;
    /** The site-total rule (site-total.ts) for electrical safety's power totals. */
    energySiteTotal: EnergySiteTotal;
  }
}

/** Energy meters, hourly energy, PUE, tariffs and costs (docs/energy.md). */
export const area = defineArea({
  name: 'energy',
  needs: ['series', 'audit', 'access'],
  provides: ['energyFill', 'energyQuality', 'energySiteTotal'],
  tables: {
    energy_meters: { sites: { site: 'device_group_id' } },
    energy_tariff_sets: { sites: { site: 'device_group_id' } },
    energy_tariffs: { sites: 'global' },
    energy_hours: { sites: { parent: 'energy_meters', column: 'meter_id' } },
    energy_days: { sites: { parent: 'energy_meters', column: 'meter_id' } },
    energy_events: { sites: { parent: 'energy_meters', column: 'meter_id' } },
    energy_fill: { sites: { parent: 'energy_meters', column: 'meter_id' } },
  },
  // The fill notes which meters' items have new samples.
  events: { consumes: ['samples'] },
  // The demo sites' power meters become the incoming, IT and cooling meters (docs/energy.md, "Demo meters").
  seedAfter: ['monitoring'],
  seed: async (kernel, language) => {
    const sites = await kernel.db.kysely.selectFrom('device_groups').select('id').orderBy('id').execute();
    if (sites.length === 0) return null;
    await seedEnergyDemo(
      kernel.db,
      language,
      sites.map((s) => s.id),
      kernel.clock(),
    );
    return { sites: sites.length };
  },
  menus: [
    {
      id: 108,
      parent_id: 100,
      name_key: 'menu.energySurvey',
      url: '/energy_survey',
      icon: 'fund',
      weight: 835,
      functions: ['view'],
    },
    {
      id: 216,
      parent_id: 210,
      name_key: 'menu.settingEnergy',
      url: '/setting_energy',
      icon: 'dashboard',
      weight: 845,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    { id: 750, parent_id: 0, name_key: 'menu.energyGroup', icon: 'thunderbolt', weight: 848 },
    {
      id: 751,
      parent_id: 750,
      name_key: 'menu.energyServey',
      url: '/energy_manage/energy_servey',
      icon: 'fund',
      weight: 569,
      functions: ['view'],
    },
    {
      id: 752,
      parent_id: 750,
      name_key: 'menu.energyStatic',
      url: '/energy_manage/energy_static',
      icon: 'bar-chart',
      weight: 568,
      functions: ['view'],
    },
    {
      id: 753,
      parent_id: 750,
      name_key: 'menu.energyAnalysis',
      url: '/energy_manage/energy_analysis',
      icon: 'pie-chart',
      weight: 567,
      functions: ['view'],
    },
    {
      id: 754,
      parent_id: 750,
      name_key: 'menu.costStatic',
      url: '/energy_manage/cost_static',
      icon: 'account-book',
      weight: 566,
      functions: ['view'],
    },
    {
      id: 755,
      parent_id: 750,
      name_key: 'menu.timeShareStatic',
      url: '/energy_manage/time_share_static',
      icon: 'clock-circle',
      weight: 565,
      functions: ['view'],
    },
    {
      id: 756,
      parent_id: 750,
      name_key: 'menu.paramConfig',
      url: '/energy_manage/param_config',
      icon: 'setting',
      weight: 564,
      functions: ['view', 'add', 'edit', 'delete'],
    },
  ],
  create: ({ kernel, needs }) => {
    const fill = createEnergyFillFor({
      db: kernel.db,
      series: needs.series,
      bus: kernel.bus,
      log: kernel.log,
      clock: kernel.clock,
      timers: kernel.timers,
    });
    return {
      provides: { energyFill: fill, energyQuality: quality, energySiteTotal: createEnergySiteTotal(kernel.db) },
      routes: (app) =>
        registerEnergy(app, {
          db: kernel.db,
          series: needs.series,
          audit: needs.audit,
          fill,
          clock: kernel.clock,
          access: needs.access,
        }),
      // The stored energy follows the roll-ups every minute (and before every read).
      start: () => fill.start(),
      stop: () => fill.stop(),
    };
  },
});
