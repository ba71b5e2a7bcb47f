import { alarmSettingSecrets } from '../../alarms/settings.ts';
import { defineArea } from '../../area.ts';
import { registerAlarms } from './index.ts';

/** Alarm records, levels, parameters and the operations of 000 §4.7 (docs/alarms.md). */
export const area = defineArea({
  name: 'alarms',
  needs: ['alarms', 'alarmSettings', 'audit', 'auth', 'access'],
  tables: {
    alarms: { sites: { site: 'device_group_id' } },
    alarm_logs: { sites: { site: 'device_group_id' } },
    alarm_levels: { sites: 'global', announces: 'alarm_settings' },
    alarm_settings: { sites: 'global', announces: 'alarm_settings' },
    // Rows name a device or an item by kind; the alarm engine and the list read them whole.
    alarm_disabled: { sites: 'global' },
    // The alarm ids' counter (hi/lo, alarms/ids.ts): kept in a backup, so a restored database gives
    // no id twice, although the engine also raises it past the stored alarms at start.
    id_blocks: { sites: 'global' },
  },
  secrets: Object.entries(alarmSettingSecrets).map(([key, fields]) => ({
    table: 'alarm_settings' as const,
    key,
    fields: fields ?? [],
  })),
  events: { publishes: ['config.changed:alarm_settings'] },
  menus: [
    {
      id: 104,
      parent_id: 100,
      name_key: 'menu.alarm',
      url: '/alarm',
      icon: 'alert',
      weight: 860,
      functions: ['view', 'confirm', 'disable', 'export'],
    },
    {
      id: 231,
      parent_id: 230,
      name_key: 'menu.alarmParam',
      url: '/setting_alarm_param',
      icon: 'control',
      weight: 100,
      functions: ['view', 'edit'],
    },
    {
      id: 232,
      parent_id: 230,
      name_key: 'menu.warningLevel',
      url: '/warning_level',
      icon: 'bars',
      weight: 95,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: 302,
      parent_id: 300,
      name_key: 'menu.alarmLog',
      url: '/system_log_alarm',
      icon: 'file-exclamation',
      weight: 90,
      functions: ['view', 'clear'],
    },
  ],
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerAlarms(app, {
        db: kernel.db,
        engine: needs.alarms,
        bus: kernel.bus,
        settings: needs.alarmSettings,
        audit: needs.audit,
        auth: needs.auth,
        access: needs.access,
      }),
  }),
});
