import { defineArea } from '../../area.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import { createHelperClient } from './client.ts';
import { firewallMenu, registerFirewall } from './index.ts';
import { createFirewallService, firewallSettings } from './service.ts';

/**
 * The host firewall (002 §2.1 /firewall, §4, §5.3, §7.2; docs/firewall.md): rules kept in the
 * module settings and applied as Sitewatch's own nftables table by the privileged helper.
 */
export const area = defineArea({
  name: 'firewall',
  needs: ['auth', 'audit'],
  settings: { firewall: firewallSettings },
  menus: [
    {
      id: firewallMenu,
      parent_id: 400,
      name_key: 'menu.firewall',
      url: '/firewall',
      icon: 'safety',
      weight: 70,
      functions: ['view', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => {
    const store = createSettingsStore({
      db: kernel.db,
      table: 'module_settings',
      schemas: { firewall: firewallSettings },
      defaults: { firewall: firewallSettings.parse({}) },
      clock: kernel.clock,
    });
    const service = createFirewallService({
      store,
      host: createHelperClient(),
      timers: kernel.timers,
      clock: kernel.clock,
      log: kernel.log,
      onRolledBack: (restored) =>
        needs.audit.write({
          module: 'setting/maintain/firewall/ports',
          action: 'rollback',
          target: `${restored.rules.length}`,
          success: true,
          user_name: 'system',
        }),
    });
    return {
      routes: (app) => registerFirewall(app, { service, auth: needs.auth, audit: needs.audit }),
      start: () => {
        void service.restore().catch((err) => kernel.log.warn({ err }, 'firewall rules not restored'));
      },
      stop: () => service.stop(),
      settled: () => service.settled(),
    };
  },
});
