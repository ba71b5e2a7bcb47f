import type { RetentionSettings } from '@sitewatch/contract/series';
import type { SeriesStore } from './store.ts';

/** Reads the retention settings (global config SERIES_RETENTION) and prunes older samples, hourly. */
export const startSeriesMaintenance = (
  retention: () => Promise<RetentionSettings>,
  store: SeriesStore,
  onError: (err: unknown) => void,
  everyMs = 3_600_000,
): (() => void) => {
  const run = async () => {
    await store.prune(await retention());
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
