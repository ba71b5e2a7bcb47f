import { defineArea } from '../../area.ts';
import { type AccessService, createAccessService, registerAccessRoutes } from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** What each user may reach: pages, functions, sites and contacts (docs/users.md). */
    access: AccessService;
  }
}

/** Who may reach what, and the menu tree each user sees (000 §6, docs/menus.md). */
export const area = defineArea({
  name: 'access',
  provides: ['access'],
  tables: {
    menus: { sites: 'global' },
    functions: { sites: 'global' },
  },
  create: ({ kernel }) => {
    const access = createAccessService(kernel.db);
    return { provides: { access }, routes: (app) => registerAccessRoutes(app, kernel.db, access) };
  },
});
