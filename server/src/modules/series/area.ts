import { defineArea } from '../../area.ts';
import { registerSeries } from './index.ts';

/** Time series: curves, history and the retention setting (002 §7.3; docs/series-store.md). */
export const area = defineArea({
  name: 'series',
  needs: ['series', 'globalConfig', 'access'],
  tables: {
    // History: its own backup package (docs/maintenance.md).
    sample_chunks: { sites: { item: 'item_id' }, backup: 'history' },
    samples_1m: { sites: { item: 'item_id' }, backup: 'history' },
    samples_1h: { sites: { item: 'item_id' }, backup: 'history' },
    // The store's internals: blocks hold many items' samples; reached only through the items.
    sample_blocks: { sites: 'global', backup: 'history' },
    series_compaction: { sites: 'global', backup: false },
  },
  create: ({ kernel, needs }) => ({
    routes: (app) =>
      registerSeries(app, { db: kernel.db, series: needs.series, config: needs.globalConfig, access: needs.access }),
  }),
});
