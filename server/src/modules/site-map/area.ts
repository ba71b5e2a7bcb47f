import { defineArea } from '../../area.ts';
import { registerTopView } from './index.ts';

/** The site map: pictures of sites, their components and the image library (001; docs/site-map.md). */
export const area = defineArea({
  name: 'site-map',
  needs: ['access'],
  tables: {
    top_view_backgrounds: { sites: { site: 'device_group_id' } },
    top_view_components: { sites: { site: 'device_group_id' } },
    // An image belongs to no one site: a user sees those the pictures of their sites use (the
    // uses below), and the unused ones they uploaded (docs/site-map.md "Image library").
    top_view_images: { sites: 'global' },
    top_view_image_uses: { sites: { site: 'device_group_id' } },
    top_view_settings: { sites: 'global' },
  },
  uploads: ['top-view'],
  events: { publishes: ['config.changed:sites'] },
  menus: [
    {
      id: 107,
      parent_id: 100,
      name_key: 'menu.siteMap',
      url: '/map',
      icon: 'picture',
      weight: 840,
      functions: ['view'],
    },
    {
      id: 214,
      parent_id: 210,
      name_key: 'menu.siteMapEdit',
      url: '/groupmap_edit',
      icon: 'edit',
      weight: 860,
      functions: ['view', 'edit'],
    },
    {
      id: 215,
      parent_id: 210,
      name_key: 'menu.gis',
      url: '/setting_GIS',
      icon: 'environment',
      weight: 850,
      functions: ['view', 'edit'],
    },
  ],
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerTopView(app, {
        db: kernel.db,
        dataDir: kernel.config.dataDir,
        clock: kernel.clock,
        bus: kernel.bus,
        access: needs.access,
      }),
  }),
});
