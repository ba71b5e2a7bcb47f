import { defineArea } from '../../area.ts';
import { registerElectricalSafety } from './index.ts';
import { createElectricalSafetyRepository } from './repository.ts';

/** Electrical quality and safety: meters' figures, switches and their operation log (docs/electrical-safety.md). */
export const area = defineArea({
  name: 'electrical-safety',
  needs: ['audit', 'loginKey', 'energyQuality', 'energySiteTotal', 'passwordHasher', 'live', 'series', 'access'],
  tables: { electrical_meters: { sites: { device: 'device_id' } } },
  menus: [
    {
      id: 217,
      parent_id: 210,
      name_key: 'menu.electricStatistics',
      url: '/electric_statistics',
      icon: 'bar-chart',
      weight: 844,
      functions: ['view'],
    },
    { id: 770, parent_id: 0, name_key: 'menu.electricalSafetyGroup', icon: 'thunderbolt', weight: 845 },
    {
      id: 771,
      parent_id: 770,
      name_key: 'menu.electricalOverview',
      url: '/electricity_safe/overview',
      icon: 'dashboard',
      weight: 555,
      functions: ['view'],
    },
    {
      id: 772,
      parent_id: 770,
      name_key: 'menu.distributionPower',
      url: '/electricity_safe/distribution_power',
      icon: 'apartment',
      weight: 554,
      functions: ['view'],
    },
    {
      id: 773,
      parent_id: 770,
      name_key: 'menu.switchOpt',
      url: '/electricity_safe/switch_opt',
      icon: 'poweroff',
      weight: 553,
      functions: ['view', 'control', 'edit'],
    },
    {
      id: 774,
      parent_id: 770,
      name_key: 'menu.electMonitor',
      url: '/energy_manage/elect_monitor',
      icon: 'fund',
      weight: 552,
      functions: ['view', 'edit'],
    },
    {
      id: 775,
      parent_id: 770,
      name_key: 'menu.electAnalysis',
      url: '/energy_manage/elect_analysis',
      icon: 'line-chart',
      weight: 551,
      functions: ['view'],
    },
  ],
  create: ({ kernel, needs }) => {
    const repo = createElectricalSafetyRepository(kernel.db, kernel.clock);
    return {
      // After a restore: the cached power safety settings are read again.
      reload: () => repo.settings.reload(),
      routes: (app) =>
        registerElectricalSafety(app, {
          repo,
          db: kernel.db,
          audit: needs.audit,
          loginKey: needs.loginKey,
          formulas: needs.energyQuality,
          partDevices: () => needs.energySiteTotal.partDevices(),
          passwords: needs.passwordHasher,
          live: needs.live,
          series: needs.series,
          clock: kernel.clock,
          access: needs.access,
        }),
    };
  },
});
