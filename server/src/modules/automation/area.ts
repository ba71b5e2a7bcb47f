import type { AlarmRow } from '@sitewatch/contract/alarms';
import { defineArea } from '../../area.ts';
import { automationMenus as M, registerAutomation } from './index.ts';
import { itemWriteKind, notifyGroupKind } from './kinds.ts';
import { createLinkageEngine } from './linkage.ts';
import { createRunner } from './runner.ts';
import { createAutomationService } from './service.ts';
import { createTaskScheduler } from './tasks.ts';

export type { ActionKind } from './kinds.ts';

/**
 * Automation (issue 32; docs/automation.md): actions built of commands of the action kinds every
 * area contributes (this one: write an item through the collector's drivers, notify a contact
 * group), linkage rules judged on the bus's samples and item states, timed tasks on the kernel's
 * clock, and items' overrun and recovery actions run on the alarm engine's raised and recovered.
 */
export const area = defineArea({
  name: 'automation',
  needs: ['collector', 'notifier', 'audit', 'access'],
  tables: {
    automation_actions: { sites: { site: 'device_group_id' } },
    automation_runs: { sites: { site: 'device_group_id' }, backup: 'history' },
    automation_linkages: { sites: { site: 'device_group_id' } },
    automation_tasks: { sites: { site: 'device_group_id' } },
    automation_task_log: { sites: { site: 'device_group_id' }, backup: 'history' },
  },
  events: {
    consumes: [
      'samples',
      'item.state',
      'alarm.raised',
      'alarm.recovered',
      'alarm.confirmed',
      'config.changed:time_periods',
    ],
  },
  menus: [
    { id: M.group, parent_id: 0, name_key: 'menu.automationGroup', icon: 'apartment', weight: 835 },
    {
      id: M.linkage,
      parent_id: M.group,
      name_key: 'menu.linkage',
      url: '/linkage',
      icon: 'branches',
      weight: 3,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: M.actions,
      parent_id: M.group,
      name_key: 'menu.settingAction',
      url: '/setting_action',
      icon: 'thunderbolt',
      weight: 2,
      functions: ['view', 'add', 'edit', 'delete', 'control'],
    },
    {
      id: M.tasks,
      parent_id: M.group,
      name_key: 'menu.timedTasks',
      url: '/timed_tasks',
      icon: 'clock-circle',
      weight: 1,
      functions: ['view', 'add', 'edit', 'delete'],
    },
  ],
  create: ({ kernel, needs, all }) => {
    const kinds = () => all('actionKinds');
    const runner = createRunner({ kernel, kinds, audit: needs.audit });
    const linkage = createLinkageEngine({ kernel, runner, live: () => needs.collector });
    const tasks = createTaskScheduler({ kernel, runner });
    const service = createAutomationService({ kernel, kinds, linkage, tasks });

    // An item's overrun action runs when its alarm is raised, its recovery action when it recovers,
    // its confirm action when a person confirms it.
    const column = {
      overrun: 'overrun_action_id',
      recovery: 'recovery_action_id',
      confirm: 'confirm_action_id',
    } as const;
    const onAlarm = (alarm: AlarmRow, which: keyof typeof column) => {
      if (!(alarm.item_id > 0)) return;
      return kernel.db.kysely
        .selectFrom('items')
        .select(column[which])
        .where('id', '=', alarm.item_id)
        .executeTakeFirst()
        .then((item) => {
          const actionId = (item as Record<string, number> | undefined)?.[column[which]];
          if (actionId && actionId > 0) runner.start({ actionId, trigger: which, trigger_id: alarm.status_id, alarm });
        });
    };
    kernel.bus.subscribe('alarm.raised', ({ alarm }) => onAlarm(alarm, 'overrun'));
    kernel.bus.subscribe('alarm.recovered', ({ alarm }) => onAlarm(alarm, 'recovery'));
    kernel.bus.subscribe('alarm.confirmed', ({ alarm }) => onAlarm(alarm, 'confirm'));

    return {
      contributes: {
        actionKinds: [itemWriteKind(kernel.db, () => needs.collector), notifyGroupKind(kernel.db, needs.notifier)],
      },
      routes: (app) => registerAutomation(app, { service, runner, access: needs.access }),
      start: async () => {
        await linkage.reload();
        await tasks.start();
      },
      stop: () => {
        tasks.stop();
        linkage.stop();
      },
      settled: async () => {
        const a = await tasks.settled();
        const b = await runner.settled();
        return a || b;
      },
      reload: async () => {
        await linkage.reload();
        await tasks.reschedule();
      },
    };
  },
});
