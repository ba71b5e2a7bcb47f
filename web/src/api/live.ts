import type { AlarmPushMessage } from '@sitewatch/contract/alarms';
import type { LiveDeviceUpdate, LiveItemUpdate } from '@sitewatch/contract/push';
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { markPatched } from './live-sharing.ts';
import { pushClient } from './push-client.ts';

/** The live values of one push message, by item and device id. */
export interface LiveChanges {
  items: Map<number, LiveItemUpdate>;
  devices: Map<number, LiveDeviceUpdate>;
}

interface LivePatch {
  queryKey: QueryKey;
  predicate?: ((query: Query) => boolean) | undefined;
  patch: (data: never, changes: LiveChanges) => unknown;
}

/**
 * The one map from push messages to the query cache: each live query registers here how a `live`
 * message updates its cached answer in place, so pages show new values without a request.
 */
const patches: LivePatch[] = [];

export const livePatch = <T>(
  queryKey: QueryKey,
  patch: (data: T, changes: LiveChanges) => T,
  predicate?: (query: Query) => boolean,
) => {
  patches.push({ queryKey, predicate, patch: patch as LivePatch['patch'] });
};

/** Rows of items (id, value, state, last check, info, and the alarm flag where they have it) with the changed ones replaced. */
export const patchItemRows = <R extends { id: number }>(rows: R[], changes: LiveChanges): R[] =>
  rows.some((row) => changes.items.has(row.id))
    ? rows.map((row) => {
        const u = changes.items.get(row.id);
        if (!u) return row;
        const next = { ...row, value: u.value, state: u.state, last_check: u.last_check, info: u.info };
        return 'alarm' in row ? { ...next, alarm: u.alarm } : next;
      })
    : rows;

/**
 * Queries read again at once when an alarm is raised, recovered or operated (push `alarm`): the
 * second half of the one map from push messages to the query cache.
 */
type PushedAlarm = AlarmPushMessage['alarm'];
const alarmQueries: Array<{ queryKey: QueryKey; concerns?: (data: never, alarm: PushedAlarm) => boolean }> = [];
export const refreshOnAlarm = (...queryKeys: QueryKey[]) => {
  alarmQueries.push(...queryKeys.map((queryKey) => ({ queryKey })));
};
/**
 * Like refreshOnAlarm, for large answers: only the cached answers `concerns` says the alarm touches
 * are read again (a site picture of 2 000 components, when one of its devices alarms).
 */
export const refreshOnAlarmIf = <T>(queryKey: QueryKey, concerns: (data: T, alarm: PushedAlarm) => boolean) => {
  alarmQueries.push({ queryKey, concerns: concerns as (data: never, alarm: PushedAlarm) => boolean });
};

/** The polling interval of a live query: none while push delivers its values, `fallbackMs` otherwise. */
export const liveRefetch = (fallbackMs: number) => () => (pushClient.ready() ? false : fallbackMs);

const watchers = new Map<symbol, number[] | null>();
const sendWatch = () => {
  if (watchers.size === 0) return pushClient.watch(undefined);
  const all = [...watchers.values()];
  pushClient.watch(all.includes(null) ? null : [...new Set(all.flatMap((sites) => sites ?? []))]);
};

/**
 * While the calling component is shown, live values of these sites come by push (null: every
 * granted site; undefined: none yet, e.g. while the site is not known).
 */
export const useLiveWatch = (siteIds: number[] | null | undefined) => {
  const key = siteIds === undefined ? 'none' : siteIds === null ? 'all' : siteIds.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for siteIds
  useEffect(() => {
    if (siteIds === undefined) return;
    const id = Symbol('live-watch');
    watchers.set(id, siteIds);
    sendWatch();
    return () => {
      watchers.delete(id);
      sendWatch();
    };
  }, [key]);
};

/** Applies live and alarm messages to the cache; the app calls it once. */
export const connectLive = (queryClient: QueryClient) => {
  const offMessage = pushClient.subscribe((message) => {
    if (message.type === 'alarm') {
      for (const { queryKey, concerns } of alarmQueries) {
        const predicate = concerns
          ? (query: Query) => query.state.data === undefined || concerns(query.state.data as never, message.alarm)
          : undefined;
        void queryClient.invalidateQueries({ queryKey, ...(predicate ? { predicate } : {}) });
      }
      return;
    }
    if (message.type !== 'live') return;
    const changes: LiveChanges = {
      items: new Map(message.items.map((i) => [i.id, i])),
      devices: new Map(message.devices.map((d) => [d.id, d])),
    };
    for (const { queryKey, predicate, patch } of patches)
      queryClient.setQueriesData({ queryKey, ...(predicate ? { predicate } : {}) }, (old: unknown) => {
        if (old === undefined) return old;
        const next = patch(old as never, changes);
        if (next !== old && typeof next === 'object' && next !== null) markPatched(next);
        return next;
      });
  });
  // When the channel comes or goes, live queries are read once: after a reconnect to catch up with
  // what was missed, after a drop so that their polling fallback starts.
  const offState = pushClient.onState(() => {
    for (const { queryKey, predicate } of patches)
      void queryClient.invalidateQueries({ queryKey, ...(predicate ? { predicate } : {}) });
  });
  return () => {
    offMessage();
    offState();
  };
};
