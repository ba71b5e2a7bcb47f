import { deviceSecretFields } from '@sitewatch/contract/monitoring';
import { defineArea } from '../../area.ts';
import { type EstateCounts, estateCountsOf } from './counts.ts';
import { seedDemo } from './demo.ts';
import { registerMonitoring } from './index.ts';
import { deviceQuota, itemQuota } from './quota.ts';

declare module '../../area.ts' {
  interface Services {
    /** How many sites, devices and items there are (the system information page). */
    estateCounts: EstateCounts;
  }
}

/** Sites, devices, items, templates, categories, time periods and serial ports (002 §7.1; docs/monitoring.md). */
export const area = defineArea({
  name: 'monitoring',
  needs: ['secrets', 'audit', 'collector', 'access'],
  provides: ['estateCounts'],
  tables: {
    device_groups: { sites: { site: 'id' }, announces: 'sites' },
    devices: {
      sites: { site: 'device_group_id' },
      announces: 'devices',
      quota: deviceQuota,
    },
    items: {
      sites: { device: 'device_id' },
      announces: 'items',
      quota: itemQuota,
    },
    time_periods: { sites: 'global', announces: 'time_periods' },
    categorys: { sites: 'global' },
    device_templates: { sites: 'global' },
    serial_ports: { sites: 'global' },
  },
  secrets: [{ table: 'devices', column: 'options', fields: deviceSecretFields }],
  events: {
    publishes: [
      'config.changed:sites',
      'config.changed:devices',
      'config.changed:items',
      'config.changed:time_periods',
    ],
  },
  seed: (kernel, language, scenarios) => seedDemo(kernel.db, language, scenarios),
  menus: [
    {
      id: 211,
      parent_id: 210,
      name_key: 'menu.deviceGroups',
      url: '/setting_device_groups',
      icon: 'apartment',
      weight: 890,
      functions: ['view', 'add', 'edit', 'delete', 'copy'],
    },
    {
      id: 212,
      parent_id: 210,
      name_key: 'menu.deviceManage',
      url: '/setting_device_mange',
      icon: 'hdd',
      weight: 880,
      functions: ['view', 'add', 'edit', 'delete', 'copy', 'export'],
    },
    {
      id: 213,
      parent_id: 210,
      name_key: 'menu.items',
      url: '/setting_items',
      icon: 'unordered-list',
      weight: 870,
      functions: ['view', 'add', 'edit', 'delete', 'import'],
    },
  ],
  create: ({ kernel, needs }) => ({
    provides: { estateCounts: estateCountsOf(kernel.db) },
    routes: (app) =>
      registerMonitoring(app, {
        db: kernel.db,
        collector: needs.collector,
        audit: needs.audit,
        bus: kernel.bus,
        secrets: needs.secrets,
        access: needs.access,
      }),
  }),
});
