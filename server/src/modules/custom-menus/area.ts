import { assetMenuId, settingMenuId } from '@sitewatch/contract/custom-menus';
import { defineArea } from '../../area.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import { createCustomMenusService, registerCustomMenusRoutes } from './index.ts';
import { assetSystem, defaultAssetSystem } from './service.ts';

/**
 * Custom menus (issue 31 item 4; docs/custom-menus.md): /setting_menu adds, edits, hides, disables,
 * orders and deletes entries of the access area's catalogue through the `menuCatalogue` it provides;
 * /external_link and /config_menu open them; the asset-management entry links another system.
 */
export const area = defineArea({
  name: 'custom-menus',
  needs: ['access', 'menuCatalogue'],
  settings: { ASSET_SYSTEM: assetSystem },
  menus: [
    {
      id: settingMenuId,
      parent_id: 400,
      name_key: 'menu.settingMenu',
      url: '/setting_menu',
      icon: 'menu',
      weight: 60,
      functions: ['view', 'add', 'edit', 'delete'],
    },
    {
      id: assetMenuId,
      parent_id: 400,
      name_key: 'menu.assetManagement',
      url: '/asset_management',
      icon: 'database',
      weight: 50,
    },
  ],
  create: ({ kernel, needs }) => {
    const store = createSettingsStore({
      db: kernel.db,
      table: 'module_settings',
      schemas: { ASSET_SYSTEM: assetSystem },
      defaults: { ASSET_SYSTEM: defaultAssetSystem },
      clock: kernel.clock,
    });
    const service = createCustomMenusService({ catalogue: needs.menuCatalogue, store });
    return {
      routes: (app) => registerCustomMenusRoutes(app, service, needs.access),
      reload: () => store.reload(),
    };
  },
});
