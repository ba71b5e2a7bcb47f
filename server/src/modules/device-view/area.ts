import { defineArea } from '../../area.ts';
import { registerDeviceView } from './index.ts';

/** The station page and a device's tabs: overview, curves, state log (002 §7.3). */
export const area = defineArea({
  name: 'device-view',
  needs: ['series', 'live', 'access'],
  tables: { device_state_logs: { sites: { device: 'device_id' } } },
  menus: [
    {
      id: 101,
      parent_id: 100,
      name_key: 'menu.station',
      url: '/station',
      icon: 'dashboard',
      weight: 990,
      functions: ['view', 'control'],
    },
  ],
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerDeviceView(app, { db: kernel.db, series: needs.series, live: needs.live, access: needs.access }),
  }),
});
