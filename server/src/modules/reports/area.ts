import { defineArea } from '../../area.ts';
import { registerReports } from './index.ts';

/** The data list and history reports with their saved templates (docs/reports.md). */
export const area = defineArea({
  name: 'reports',
  needs: ['live', 'access'],
  tables: { data_history_templates: { sites: { site: 'site_id' } } },
  menus: [
    {
      id: 102,
      parent_id: 100,
      name_key: 'menu.dataList',
      url: '/data_list',
      icon: 'table',
      weight: 950,
      functions: ['view', 'export'],
    },
    {
      id: 103,
      parent_id: 100,
      name_key: 'menu.historyReport',
      url: '/history_report',
      icon: 'line-chart',
      weight: 940,
      functions: ['view', 'export', 'add', 'delete'],
    },
  ],
  create: ({ kernel, needs }) => ({
    routes: (app) => registerReports(app, { db: kernel.db, live: needs.live, access: needs.access }),
  }),
});
