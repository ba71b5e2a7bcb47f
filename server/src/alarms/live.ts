import { monitorState } from '@sitewatch/contract/monitoring';

interface LiveItem {
  value: number | null;
  state: number;
  last_check: number;
  info: string;
}

/**
 * The collector's live item states with jitter laid over them: an item the alarm engine sees
 * flapping shows state 6 (jitter, 002 §4) with its percent in `info`, as the station page reads it.
 */
export const withJitterState = <T extends { liveItem(itemId: number): LiveItem | undefined }>(
  source: T,
  engine: () => { isJittering(itemId: number): boolean; jitterOf(itemId: number): number } | undefined,
): T => ({
  ...source,
  liveItem(itemId: number) {
    const live = source.liveItem(itemId);
    const e = engine();
    if (!live || !e?.isJittering(itemId)) return live;
    return { ...live, state: monitorState.jitter, info: `jitter ${e.jitterOf(itemId)}%` };
  },
});
