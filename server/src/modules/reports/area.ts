import { defineArea } from '../../area.ts';
import { registerReports } from './index.ts';

/** The data list and history reports with their saved templates (docs/reports.md). */
export const area = defineArea({
  name: 'reports',
  needs: ['live'],
  tables: { data_history_templates: { sites: { site: 'site_id' } } },
  create: ({ kernel, needs }) => ({ routes: (app) => registerReports(app, { db: kernel.db, live: needs.live }) }),
});
