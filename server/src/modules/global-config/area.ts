import { defineArea } from '../../area.ts';
import {
  builtInDefaults,
  createGlobalConfig,
  type GlobalConfig,
  type GlobalConfigGuards,
  globalConfigSecrets,
  registerGlobalConfigRoutes,
  restoreCaptchaAfterTestMode,
} from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** The typed key/JSON settings of global_config. */
    globalConfig: GlobalConfig;
  }
  interface Families {
    /** Checks of a new global setting that need the request (who changes it, from where). */
    configGuards: GlobalConfigGuards;
  }
}

/** Global configuration (000 §7 setting/gc): password, account and login rules, outbound, LDAP. */
export const area = defineArea({
  name: 'global-config',
  needs: ['secrets', 'audit'],
  provides: ['globalConfig'],
  tables: {
    global_config: { sites: 'global' },
    module_settings: { sites: 'global' },
  },
  secrets: Object.entries(globalConfigSecrets).map(([key, fields]) => ({
    table: 'global_config' as const,
    key,
    fields: fields ?? [],
  })),
  create: ({ kernel, needs, all }) => {
    const config = createGlobalConfig(kernel.db, kernel.config.globalConfigDefaults ?? builtInDefaults, needs.secrets);
    return {
      provides: { globalConfig: config },
      reload: () => config.reload(),
      async prepare() {
        const restored = await restoreCaptchaAfterTestMode(
          kernel.db,
          kernel.config.mode,
          Math.floor(kernel.clock() / 1000),
        );
        return restored ? { warnings: ['the login captcha a test run had switched off is on again'] } : undefined;
      },
      routes: (app) =>
        registerGlobalConfigRoutes(app, config, needs.audit, () => Object.assign({}, ...all('configGuards'))),
    };
  },
});
