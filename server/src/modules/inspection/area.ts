import { defineArea } from '../../area.ts';
import { createScheduler, type Scheduler } from '../../schedule/scheduler.ts';
import { scheduleZone } from '../../schedule/zone.ts';
import { createInspection, registerInspection } from './index.ts';
import type { InspectionService } from './service.ts';

declare module '../../area.ts' {
  interface Services {
    /** Inspection with the scheduler of its automatic plans (tests tick it by hand). */
    inspection: { service: InspectionService; scheduler: Scheduler };
  }
}

/** Manual and automatic inspections, their plans and reports (002 §2.3; docs/inspection-duty.md). */
export const area = defineArea({
  name: 'inspection',
  needs: ['live', 'access'],
  provides: ['inspection'],
  tables: {
    inspection_plans: { sites: { sites: 'device_group_ids' } },
    inspection_reports: { sites: { sites: 'device_group_ids' } },
    scheduled_tasks: { sites: 'global' },
  },
  menus: [
    { id: 720, parent_id: 0, name_key: 'menu.inspectionGroup', icon: 'audit', weight: 860 },
    {
      id: 721,
      parent_id: 720,
      name_key: 'menu.inspection',
      url: '/polling_main',
      icon: 'audit',
      weight: 521,
      functions: ['view', 'inspect', 'review', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => {
    const scheduler = createScheduler({
      db: kernel.db,
      clock: kernel.clock,
      timers: kernel.timers,
      zone: scheduleZone(),
      log: kernel.log,
    });
    const service = createInspection({ db: kernel.db, live: needs.live, scheduler, clock: kernel.clock });
    return {
      provides: { inspection: { service, scheduler } },
      routes: (app) => registerInspection(app, { service, access: needs.access }),
      reload: () => service.reload(),
      start: () => scheduler.start(),
      stop: () => scheduler.stop(),
    };
  },
});
