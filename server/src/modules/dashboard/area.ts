import { defineArea } from '../../area.ts';
import { registerDashboard } from './index.ts';

/** The home dashboard and the overview page (000 §2.6; docs/dashboard.md). */
export const area = defineArea({
  name: 'dashboard',
  needs: ['alarms', 'collector', 'notifier', 'audit', 'access'],
  menus: [
    {
      id: 105,
      parent_id: 100,
      name_key: 'menu.overview',
      url: '/overview',
      icon: 'appstore',
      weight: 850,
      functions: ['view'],
    },
  ],
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerDashboard(app, {
        db: kernel.db,
        dataDir: kernel.config.dataDir,
        alarms: needs.alarms,
        collector: needs.collector,
        notifier: needs.notifier,
        audit: needs.audit,
        clock: kernel.clock,
        timers: kernel.timers,
        access: needs.access,
      }),
  }),
});
