import { defineArea } from '../../area.ts';
import { registerNetwork } from './index.ts';

/** Network devices: switches and routers read over IF-MIB (docs/network-devices.md). */
export const area = defineArea({
  name: 'network',
  needs: ['secrets', 'live', 'alarms', 'access'],
  menus: [
    {
      id: 106,
      parent_id: 100,
      name_key: 'menu.networkDevice',
      url: '/network_device',
      icon: 'cluster',
      weight: 845,
      functions: ['view'],
    },
  ],
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerNetwork(app, {
        db: kernel.db,
        secrets: needs.secrets,
        live: needs.live,
        flushAlarms: () => needs.alarms.flush(),
        access: needs.access,
      }),
  }),
});
