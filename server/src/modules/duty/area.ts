import { defineArea } from '../../area.ts';
import type { DutyRoster } from '../../notify/notifier.ts';
import { createDuty, dutyRosterOf, registerDuty } from './index.ts';
import type { DutyService } from './service.ts';

declare module '../../area.ts' {
  interface Services {
    /** Shifts, the duty table and who is on duty (work orders record it). */
    duty: DutyService;
    /** Who is on duty while shift handover is enabled: the notifier and the alarm pushes route by it. */
    dutyRoster: DutyRoster;
  }
}

/** Duty table, shifts and rotations, handover and memos (002 §2.3; docs/inspection-duty.md). */
export const area = defineArea({
  name: 'duty',
  needs: ['access'],
  provides: ['duty', 'dutyRoster'],
  // A row without a site: a shift of every site, a memo or handover of its author (docs/inspection-duty.md).
  tables: {
    duty_shifts: { sites: { site: 'device_group_id' } },
    duty_rotations: { sites: { parent: 'duty_shifts', column: 'shift_id' } },
    duty_table: { sites: { parent: 'duty_shifts', column: 'shift_id' } },
    duty_memos: { sites: { site: 'device_group_id' } },
    duty_handovers: { sites: { site: 'device_group_id' } },
  },
  menus: [
    { id: 730, parent_id: 0, name_key: 'menu.dutyGroup', icon: 'schedule', weight: 850 },
    {
      id: 731,
      parent_id: 730,
      name_key: 'menu.dutyArrange',
      url: '/duty_manage/duty_arrange',
      icon: 'calendar',
      weight: 533,
      functions: ['view', 'edit'],
    },
    {
      id: 732,
      parent_id: 730,
      name_key: 'menu.changeShifts',
      url: '/duty_manage/change_shifts',
      icon: 'swap',
      weight: 532,
      functions: ['view', 'edit'],
    },
    {
      id: 733,
      parent_id: 730,
      name_key: 'menu.dutyMemo',
      url: '/duty_manage/duty_memo',
      icon: 'file-text',
      weight: 531,
      functions: ['view', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => {
    const duty = createDuty({ db: kernel.db, clock: kernel.clock });
    return {
      provides: { duty, dutyRoster: dutyRosterOf(duty) },
      reload: () => duty.reload(),
      routes: (app) => registerDuty(app, { db: kernel.db, service: duty, clock: kernel.clock, access: needs.access }),
    };
  },
});
