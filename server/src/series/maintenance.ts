import type { RetentionSettings } from '@sitewatch/contract/series';
import { realTimers, type Timers } from '../clock/timers.ts';
import type { SeriesStore } from './store.ts';

/** Reads the retention settings (global config SERIES_RETENTION) and prunes older samples, hourly. */
export const startSeriesMaintenance = (
  retention: () => Promise<RetentionSettings>,
  store: SeriesStore,
  onError: (err: unknown) => void,
  timers: Timers = realTimers,
  everyMs = 3_600_000,
): (() => void) => {
  const run = async () => {
    await store.prune(await retention());
  };
  const timer = timers.setInterval(() => run().catch(onError), everyMs);
  timer.unref();
  const first = timers.setTimeout(() => run().catch(onError), 60_000);
  first.unref();
  return () => {
    timers.clearInterval(timer);
    timers.clearTimeout(first);
  };
};
