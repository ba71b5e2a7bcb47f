import { defineArea } from '../../area.ts';
import { registerNetwork } from './index.ts';

/** Network devices: switches and routers read over IF-MIB (docs/network-devices.md). */
export const area = defineArea({
  name: 'network',
  needs: ['secrets', 'live', 'alarms'],
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerNetwork(app, {
        db: kernel.db,
        secrets: needs.secrets,
        live: needs.live,
        flushAlarms: () => needs.alarms.flush(),
      }),
  }),
});
