import { brandingMenu } from '@sitewatch/contract/branding';
import { defineArea } from '../../area.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import {
  type BrandingService,
  brandingSettings,
  createBrandingService,
  logoFolder,
  registerBranding,
} from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** The edition in use, its system name, flags, blocks and logos (docs/branding.md). */
    branding: BrandingService;
  }
}

/**
 * Editions and branding (000 §1, §2.1, §4.11; 002 §2.3, §5.3, §7.1, §7.4; docs/branding.md): the
 * edition types, the edition information and the logos, kept in `module_settings` (key `branding`)
 * and the data dir's `branding/` folder.
 */
export const area = defineArea({
  name: 'branding',
  needs: ['access', 'audit'],
  provides: ['branding'],
  settings: { branding: brandingSettings },
  uploads: [logoFolder],
  menus: [
    {
      id: brandingMenu,
      parent_id: 400,
      name_key: 'menu.sysEdition',
      url: '/setting_sys_edition',
      icon: 'skin',
      weight: 12,
      functions: ['view', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => {
    const store = createSettingsStore({
      db: kernel.db,
      table: 'module_settings',
      schemas: { branding: brandingSettings },
      defaults: { branding: brandingSettings.parse({}) },
      clock: kernel.clock,
    });
    const branding = createBrandingService({ store, dataDir: kernel.config.dataDir, clock: kernel.clock });
    return {
      provides: { branding },
      routes: (app) => registerBranding(app, { branding, access: needs.access, audit: needs.audit }),
      // A restore brings another row and folder: read the row again.
      reload: () => store.reload(),
    };
  },
});
