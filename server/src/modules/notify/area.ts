import { defineArea } from '../../area.ts';
import { type ContactGroups, createContactGroups } from './contact-groups.ts';
import { registerNotify } from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** The contact groups other areas let their users choose for their notices (door access). */
    contactGroups: ContactGroups;
  }
}

/** Notification channels, the template, contacts and contact groups, the notification log (docs/alarms.md). */
export const area = defineArea({
  name: 'notify',
  needs: ['notifier', 'alarmSettings', 'audit', 'auth', 'secrets', 'access'],
  provides: ['contactGroups'],
  tables: {
    contacts: { sites: 'global' },
    contact_groups: { sites: 'global', announces: 'contact_groups' },
    notify_channels: { sites: 'global' },
    notification_logs: { sites: { item: 'item_id' } },
  },
  secrets: [{ table: 'notify_channels', column: 'config', fields: ['secret'] }],
  events: { publishes: ['config.changed:contact_groups'] },
  menus: [
    {
      id: 225,
      parent_id: 220,
      name_key: 'menu.contacts',
      url: '/setting_contacts',
      icon: 'contacts',
      weight: 70,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: 226,
      parent_id: 220,
      name_key: 'menu.contactGroups',
      url: '/setting_contact_groups',
      icon: 'usergroup-add',
      weight: 65,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: 233,
      parent_id: 230,
      name_key: 'menu.mailbox',
      url: '/setting_mailbox',
      icon: 'mail',
      weight: 90,
      functions: ['view', 'edit'],
    },
    {
      id: 234,
      parent_id: 230,
      name_key: 'menu.alarmPush',
      url: '/alarm_push',
      icon: 'notification',
      weight: 85,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: 235,
      parent_id: 230,
      name_key: 'menu.alarmTemplate',
      url: '/setting_alarm_template',
      icon: 'file-text',
      weight: 80,
      functions: ['view', 'edit'],
    },
    {
      id: 303,
      parent_id: 300,
      name_key: 'menu.notificationLog',
      url: '/system_log_notification',
      icon: 'file-search',
      weight: 85,
      functions: ['view', 'clear'],
    },
  ],
  create: ({ kernel, needs }) => ({
    provides: { contactGroups: createContactGroups(kernel.db) },
    routes: (app) =>
      registerNotify(app, {
        db: kernel.db,
        notifier: needs.notifier,
        settings: needs.alarmSettings,
        audit: needs.audit,
        auth: needs.auth,
        bus: kernel.bus,
        secrets: needs.secrets,
        access: needs.access,
      }),
  }),
});
