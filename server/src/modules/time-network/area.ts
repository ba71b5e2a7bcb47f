import { defineArea } from '../../area.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import { createHostClient } from './client.ts';
import { networkMenu, registerTimeNetwork, timeMenu } from './index.ts';
import { createNetworkService, hostNetworkSettings } from './network.ts';
import { createServicesControl } from './services.ts';
import { createTimeService } from './time.ts';

/**
 * The box's time, network and services (002 §2.1 /setting_time, /setting_IP; §7.1; issue 30 item 4;
 * docs/time-network.md): read and changed by the privileged host helper, never by the web process.
 */
export const area = defineArea({
  name: 'time-network',
  needs: ['auth', 'audit', 'collector', 'alarms', 'notifier', 'tls'],
  settings: { host_network: hostNetworkSettings },
  menus: [
    {
      id: timeMenu,
      parent_id: 400,
      name_key: 'menu.settingTime',
      url: '/setting_time',
      icon: 'clock-circle',
      weight: 72,
      functions: ['view', 'edit'],
    },
    {
      id: networkMenu,
      parent_id: 400,
      name_key: 'menu.settingIp',
      url: '/setting_IP',
      icon: 'global',
      weight: 74,
      functions: ['view', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => {
    const store = createSettingsStore({
      db: kernel.db,
      table: 'module_settings',
      schemas: { host_network: hostNetworkSettings },
      defaults: { host_network: hostNetworkSettings.parse({}) },
      clock: kernel.clock,
    });
    const host = createHostClient();
    const time = createTimeService({ host });
    const network = createNetworkService({
      store,
      host,
      timers: kernel.timers,
      clock: kernel.clock,
      log: kernel.log,
      onRolledBack: (iface, restored) =>
        needs.audit.write({
          module: 'setting/network/ip',
          action: 'rollback',
          target: `${iface} ${restored.ip}/${restored.prefix} ${restored.gateway}`.trim(),
          success: true,
          user_name: 'system',
        }),
    });
    const services = createServicesControl({
      host,
      engines: { collector: needs.collector, alarms: needs.alarms, notifier: needs.notifier },
    });
    return {
      routes: (app) =>
        registerTimeNetwork(app, {
          time,
          network,
          services,
          auth: needs.auth,
          audit: needs.audit,
          // Only the port is read of what the https area provides (never its key).
          httpsPort: () => needs.tls.wanted()?.port ?? null,
        }),
      start: () => {
        void network.restore().catch((err) => kernel.log.warn({ err }, 'addresses not set again'));
      },
      stop: () => network.stop(),
      settled: async () => (await network.settled()) || (await services.settled()),
      // A restore brings back what was set; it is applied at the next start, not under the administrator's feet.
      reload: () => store.reload(),
    };
  },
});
