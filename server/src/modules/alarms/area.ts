import { alarmSettingSecrets } from '../../alarms/settings.ts';
import { defineArea } from '../../area.ts';
import { registerAlarms } from './index.ts';

/** Alarm records, levels, parameters and the operations of 000 §4.7 (docs/alarms.md). */
export const area = defineArea({
  name: 'alarms',
  needs: ['alarms', 'alarmSettings', 'audit', 'auth'],
  tables: {
    alarms: { sites: { site: 'device_group_id' } },
    alarm_logs: { sites: { site: 'device_group_id' } },
    alarm_levels: { sites: 'global', announces: 'alarm_settings' },
    alarm_settings: { sites: 'global', announces: 'alarm_settings' },
    // Rows name a device or an item by kind; the alarm engine and the list read them whole.
    alarm_disabled: { sites: 'global' },
  },
  secrets: Object.entries(alarmSettingSecrets).map(([key, fields]) => ({
    table: 'alarm_settings' as const,
    key,
    fields: fields ?? [],
  })),
  events: { publishes: ['config.changed:alarm_settings'] },
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerAlarms(app, {
        db: kernel.db,
        engine: needs.alarms,
        bus: kernel.bus,
        settings: needs.alarmSettings,
        audit: needs.audit,
        auth: needs.auth,
      }),
  }),
});
