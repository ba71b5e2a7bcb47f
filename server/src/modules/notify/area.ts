import { defineArea } from '../../area.ts';
import { registerNotify } from './index.ts';

/** Notification channels, the template, contacts and contact groups, the notification log (docs/alarms.md). */
export const area = defineArea({
  name: 'notify',
  needs: ['notifier', 'alarmSettings', 'audit', 'auth', 'secrets'],
  tables: {
    contacts: { sites: 'global' },
    contact_groups: { sites: 'global', announces: 'contact_groups' },
    notify_channels: { sites: 'global' },
    notification_logs: { sites: { item: 'item_id' } },
  },
  secrets: [{ table: 'notify_channels', column: 'config', fields: ['secret'] }],
  events: { publishes: ['config.changed:contact_groups'] },
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerNotify(app, {
        db: kernel.db,
        notifier: needs.notifier,
        settings: needs.alarmSettings,
        audit: needs.audit,
        auth: needs.auth,
        bus: kernel.bus,
        secrets: needs.secrets,
      }),
  }),
});
