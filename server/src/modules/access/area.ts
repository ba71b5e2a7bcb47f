import { defineArea } from '../../area.ts';
import { createMenuCatalogue, type MenuCatalogue } from './catalogue.ts';
import { type AccessService, createAccessService, registerAccessRoutes } from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** What each user may reach: pages, functions, sites and contacts (docs/users.md). */
    access: AccessService;
    /** Adds, changes and deletes custom menu entries; built-in ones keep id, name and route (docs/menus.md). */
    menuCatalogue: MenuCatalogue;
  }
}

/** Who may reach what, and the menu tree each user sees (000 §6, docs/menus.md). */
export const area = defineArea({
  name: 'access',
  provides: ['access', 'menuCatalogue'],
  tables: {
    menus: { sites: 'global' },
    functions: { sites: 'global' },
  },
  menus: [
    { id: 100, parent_id: 0, name_key: 'menu.monitoring', icon: 'monitor', weight: 900 },
    { id: 200, parent_id: 0, name_key: 'menu.configuration', icon: 'setting', weight: 800 },
    { id: 210, parent_id: 200, name_key: 'menu.sitesDevices', icon: 'cluster', weight: 790 },
    { id: 220, parent_id: 200, name_key: 'menu.personnel', icon: 'team', weight: 780 },
    { id: 230, parent_id: 200, name_key: 'menu.alarmSettings', icon: 'alert', weight: 770 },
    { id: 300, parent_id: 0, name_key: 'menu.logs', icon: 'profile', weight: 700 },
    { id: 400, parent_id: 0, name_key: 'menu.system', icon: 'tool', weight: 600 },
  ],
  create: ({ kernel }) => {
    const access = createAccessService(kernel.db);
    return {
      provides: { access, menuCatalogue: createMenuCatalogue(kernel.db) },
      routes: (app) => registerAccessRoutes(app, kernel.db, access),
    };
  },
});
