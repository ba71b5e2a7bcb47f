import { doorMenus, doorNotices, doorOptions } from '@sitewatch/contract/door-access';
import { defineArea } from '../../area.ts';
import { announceAtOnce } from '../../db/changes.ts';
import { createDoorAlarms } from './alarms.ts';
import { registerDoorAccess } from './index.ts';
import { createDoorLinks } from './links.ts';
import { createDoorSettings, noticesKey, optionsKey } from './notices.ts';
import { createDoorRows } from './service.ts';
import { startWgListener, type WgListener } from './wg/adapter.ts';

/**
 * Door access (002 §2.1, §3, §7.1, §7.8; issue 34; docs/door-access.md): controllers over their
 * own protocols (WG / UHPPOTE UDP first), doors, cards and their holders, permissions held by
 * Sitewatch and pushed to each controller as a difference, the log synchronised from each
 * controller's event index, and remote control. Every table belongs to a site.
 *
 * `SITEWATCH_DOOR_LISTENER` (`address:port`, e.g. `0.0.0.0:60001`) opens the UDP port controllers
 * push events to (off unless set), told to each controller on its first sync (the address
 * `SITEWATCH_DOOR_LISTENER_ADDRESS`, else the bound one unless 0.0.0.0); `SITEWATCH_DOOR_SYNC_SECONDS`
 * the periodic pass (60; 0 none).
 */
const site = { site: 'device_group_id' } as const;

export const area = defineArea({
  name: 'door-access',
  needs: ['access', 'auth', 'audit', 'alarms', 'notifier', 'contactGroups'],
  settings: { [noticesKey]: doorNotices, [optionsKey]: doorOptions },
  events: { publishes: ['config.changed:door_access'] },
  tables: {
    door_controllers: { sites: site },
    door_doors: { sites: site },
    door_cards: { sites: site },
    door_permissions: { sites: site },
    door_logs: { sites: site, backup: 'history' },
  },
  menus: [
    { id: doorMenus.group, parent_id: 0, name_key: 'menu.doorGroup', icon: 'key', weight: 838 },
    {
      id: doorMenus.devices,
      parent_id: doorMenus.group,
      name_key: 'menu.doorDevices',
      url: '/door_devices',
      icon: 'hdd',
      weight: 540,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: doorMenus.cards,
      parent_id: doorMenus.group,
      name_key: 'menu.doorCards',
      url: '/door_cards',
      icon: 'idcard',
      weight: 539,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: doorMenus.remoteControl,
      parent_id: doorMenus.group,
      name_key: 'menu.doorRemoteControl',
      url: '/door_remote_control',
      icon: 'unlock',
      weight: 538,
      functions: ['view', 'control'],
    },
    {
      id: doorMenus.logs,
      parent_id: doorMenus.group,
      name_key: 'menu.doorLogs',
      url: '/door_logs',
      icon: 'file-search',
      weight: 537,
      functions: ['view'],
    },
    {
      id: doorMenus.doorLogs,
      parent_id: doorMenus.group,
      name_key: 'menu.doorsLogs',
      url: '/doors_logs',
      icon: 'history',
      weight: 536,
      functions: ['view'],
    },
    {
      id: doorMenus.logCustom,
      parent_id: doorMenus.group,
      name_key: 'menu.doorLogCustom',
      url: '/door_log_custom',
      icon: 'filter',
      weight: 535,
      functions: ['view', 'export'],
    },
    {
      id: doorMenus.permission,
      parent_id: doorMenus.group,
      name_key: 'menu.doorPermission',
      url: '/door_permission',
      icon: 'safety',
      weight: 534,
      functions: ['view', 'edit'],
    },
    {
      id: doorMenus.device,
      parent_id: doorMenus.group,
      name_key: 'menu.doorDevice',
      url: '/door_device',
      icon: 'cluster',
      weight: 533,
      functions: ['view'],
    },
    {
      id: doorMenus.noticeConfig,
      parent_id: doorMenus.group,
      name_key: 'menu.doorNoticeConfig',
      url: '/door_notice_config',
      icon: 'notification',
      weight: 532,
      functions: ['view', 'edit'],
    },
    {
      id: doorMenus.setting,
      parent_id: doorMenus.group,
      name_key: 'menu.doorSetting',
      url: '/door_setting',
      icon: 'setting',
      weight: 531,
      functions: ['view', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => {
    const rows = createDoorRows(kernel.db, kernel.clock);
    const envSeconds = Number(process.env.SITEWATCH_DOOR_SYNC_SECONDS ?? 60);
    const syncSeconds = Number.isFinite(envSeconds) ? envSeconds : 60;
    const settings = createDoorSettings({
      db: kernel.db,
      clock: kernel.clock,
      changes: announceAtOnce(kernel.bus),
      contactGroups: needs.contactGroups,
      defaultSyncSeconds: syncSeconds,
    });
    let listener: WgListener | null = null;
    const links = createDoorLinks({
      rows,
      timers: kernel.timers,
      clock: kernel.clock,
      log: kernel.log,
      syncSeconds,
      heldOpenSeconds: async () => (await settings.options()).held_open_seconds,
      get listener() {
        return listener;
      },
      advertise: () => {
        const at = process.env.SITEWATCH_DOOR_LISTENER_ADDRESS ?? process.env.SITEWATCH_DOOR_LISTENER?.split(':')[0];
        return at && at !== '0.0.0.0' ? at : null;
      },
      alarms: createDoorAlarms({
        db: kernel.db,
        alarms: needs.alarms,
        notifier: needs.notifier,
        settings,
        clock: kernel.clock,
      }),
    });
    return {
      routes: (app) =>
        registerDoorAccess(app, {
          rows,
          links,
          access: needs.access,
          auth: needs.auth,
          audit: needs.audit,
          settings,
          listener: () => process.env.SITEWATCH_DOOR_LISTENER ?? '',
        }),
      async start() {
        const at = process.env.SITEWATCH_DOOR_LISTENER;
        if (at) {
          const [address = '0.0.0.0', port = '60001'] = at.split(':');
          listener = await startWgListener(address, Number(port)).catch((err) => {
            kernel.log.warn({ err }, 'door event listener not started');
            return null;
          });
        }
        links.reschedule((await settings.options()).sync_seconds);
        links.start(async () =>
          (await kernel.db.kysely.selectFrom('door_controllers').select('id').execute()).map((c) => c.id),
        );
      },
      async stop() {
        await links.stop();
        await listener?.close();
      },
      settled: () => links.settled(),
      async reload() {
        await settings.store.reload();
        links.reschedule((await settings.options()).sync_seconds);
      },
    };
  },
});
