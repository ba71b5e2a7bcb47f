import { defaultRetention, retentionSettings } from '@sitewatch/contract/series';
import type { Db } from '../db/kysely.ts';
import type { SeriesStore } from './store.ts';

/** Reads the retention settings (global config SERIES_RETENTION) and prunes older samples, hourly. */
export const startSeriesMaintenance = (
  db: Db,
  store: SeriesStore,
  onError: (err: unknown) => void,
  everyMs = 3_600_000,
): (() => void) => {
  const run = async () => {
    const row = await db.kysely
      .selectFrom('global_config')
      .select('v')
      .where('k', '=', 'SERIES_RETENTION')
      .executeTakeFirst();
    let retention = defaultRetention;
    if (row) {
      const parsed = retentionSettings.safeParse(JSON.parse(row.v));
      if (parsed.success) retention = parsed.data;
    }
    await store.prune(retention);
  };
  const timer = setInterval(() => void run().catch(onError), everyMs);
  timer.unref();
  const first = setTimeout(() => void run().catch(onError), 60_000);
  first.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(first);
  };
};
