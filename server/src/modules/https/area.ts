import { httpsMenu } from '@sitewatch/contract/https';
import { defineArea } from '../../area.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import type { TlsSource } from '../../http/tls.ts';
import { createAcmeIssuer, createHttpsService, registerHttpsRoutes } from './index.ts';
import { defaultHttpsSettings, httpsSecretFields, httpsSettings } from './service.ts';

declare module '../../area.ts' {
  interface Services {
    /**
     * The console's TLS: the composition root hands it to the HTTPS listener (server/src/http/tls.ts),
     * which serves its certificate and applies a new one without a restart (docs/https.md).
     */
    tls: TlsSource;
  }
}

/** HTTPS: certificate and key, domain, ACME issuance and renewal, the redirect (issue 30 item 3; docs/https.md). */
export const area = defineArea({
  name: 'https',
  needs: ['auth', 'audit', 'secrets'],
  provides: ['tls'],
  settings: { HTTPS: httpsSettings },
  secrets: [{ table: 'module_settings', key: 'HTTPS', fields: httpsSecretFields }],
  menus: [
    {
      id: httpsMenu,
      parent_id: 400,
      name_key: 'menu.https',
      url: '/setting_port',
      icon: 'safety-certificate',
      weight: 70,
      functions: ['view', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => {
    const store = createSettingsStore({
      db: kernel.db,
      table: 'module_settings',
      schemas: { HTTPS: httpsSettings },
      defaults: { HTTPS: defaultHttpsSettings },
      secretFields: { HTTPS: httpsSecretFields },
      secrets: needs.secrets,
      clock: kernel.clock,
    });
    const service = createHttpsService({
      store,
      acme: createAcmeIssuer(),
      clock: kernel.clock,
      timers: kernel.timers,
      // Tests keep the HTTPS listener on loopback; the console listens where its HTTP does.
      listenHost: kernel.config.mode === 'test' ? '127.0.0.1' : undefined,
      onRenewed: (ok, detail) =>
        needs.audit.write({
          module: 'https',
          action: 'update',
          target: detail.slice(0, 200),
          success: ok,
          user_name: '',
        }),
    });
    return {
      provides: { tls: service.tls },
      routes: (app) => registerHttpsRoutes(app, service, needs.auth),
      async start() {
        // The listener reads the stored certificate from the cache as soon as the app starts.
        await store.get('HTTPS');
        service.start();
      },
      stop: () => service.stop(),
      reload: () => service.reload(),
      settled: () => service.settled(),
    };
  },
});
