import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import { createChangedIds } from '../changed-ids.ts';
import { SlotIndex } from '../slot-index.ts';
import type { Answer } from './answer.ts';
import type { LiveItemState } from './collector.ts';
import type { CollectorDevice } from './devices.ts';
import { checkReading } from './reading.ts';

/**
 * Every check of every item is a sample: its value, or NaN when it gave none. The samples of one
 * answer (or sweep of a device) are gathered here and published as one `samples` event, before the
 * device is judged (its items' states are the engine's answer to them).
 */
const createSampleBatch = (bus: Pick<EventBus, 'publish'>) => {
  let outIds = new Float64Array(1024);
  let outValues = new Float64Array(1024);
  let outN = 0;
  /** The ids of the batch being delivered: consumers read its arrays until publish returns. */
  let delivered: Float64Array | null = null;
  const sample = (itemId: number, value: number) => {
    // Gathered while a batch is delivered (a consumer's synchronous call back): arrays of its own.
    if (outIds === delivered) {
      outIds = new Float64Array(outIds.length);
      outValues = new Float64Array(outValues.length);
    }
    if (outN === outIds.length) {
      const ids = new Float64Array(outN * 2);
      const values = new Float64Array(outN * 2);
      ids.set(outIds);
      values.set(outValues);
      outIds = ids;
      outValues = values;
    }
    outIds[outN] = itemId;
    outValues[outN++] = value;
  };
  const publishSamples = (tsMs: number) => {
    if (outN === 0) return;
    const event = { ids: outIds, values: outValues, from: 0, to: outN, ts_ms: tsMs };
    outN = 0;
    const outer = delivered;
    delivered = event.ids;
    try {
      bus.publish('samples', event);
    } finally {
      delivered = outer;
    }
  };
  return { sample, publish: publishSamples };
};

/**
 * The collector's items on the main thread: each item's live value and state, the edge check of
 * every value a driver returns, the samples of each answer (published as one `samples` event),
 * maximum ages, and which item rows changed. Runs for every value collected, so it keeps its state
 * in typed arrays and allocates nothing per value.
 */
export const createLiveItems = (bus: Pick<EventBus, 'publish'>) => {
  /**
   * Each item's live state by slot (struct of arrays, as the alarm engine's alarms/items.ts): its
   * value (NaN: none yet), state, last check (s), when its value was last refreshed (ms, NaN:
   * never) and reason; an item has a slot from its first check on. One map from item id to slot
   * instead of an object, a boxed number and two map entries per item (issue 18, memory per item).
   */
  const slotOf = new SlotIndex();
  let liveValue = new Float64Array(1024);
  let liveState = new Uint8Array(1024);
  let liveChecked = new Float64Array(1024);
  let liveRefreshed = new Float64Array(1024);
  const liveInfo: string[] = [];
  /** The slot of an item, made (not ready, no value) when it has none. */
  const slotFor = (itemId: number): number => {
    let s = slotOf.get(itemId);
    if (s !== undefined) return s;
    s = slotOf.size;
    if (s === liveValue.length) {
      const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      liveValue = grow(liveValue);
      liveState = grow(liveState);
      liveChecked = grow(liveChecked);
      liveRefreshed = grow(liveRefreshed);
    }
    slotOf.set(itemId, s);
    liveValue[s] = Number.NaN;
    liveState[s] = monitorState.notReady;
    liveChecked[s] = 0;
    liveRefreshed[s] = Number.NaN;
    liveInfo[s] = '';
    return s;
  };
  /** An item's live state as the rest of the server reads it (a new object each time). */
  const liveOf = (itemId: number): LiveItemState | undefined => {
    const s = slotOf.get(itemId);
    if (s === undefined) return undefined;
    const value = liveValue[s]!;
    return {
      value: Number.isNaN(value) ? null : value,
      state: liveState[s]!,
      last_check: liveChecked[s]!,
      info: liveInfo[s]!,
    };
  };
  /** The items past their maximum age. */
  const stale = new Set<number>();
  const dirtyItems = createChangedIds();
  // The row writer reads items by id: a read-only view of the slots (it calls only has and get).
  class LiveView extends Map<number, LiveItemState> {
    override has(itemId: number) {
      return slotOf.has(itemId);
    }
    override get(itemId: number) {
      return liveOf(itemId);
    }
  }
  const { sample, publish: publishSamples } = createSampleBatch(bus);
  // Item states are the alarm engine's: the live view keeps the last one it published.
  const onItemState = ({ item_id, state }: { item_id: number; state: number }) => {
    const s = slotOf.get(item_id);
    if (s === undefined || liveState[s] === state) return;
    liveState[s] = state;
    dirtyItems.add(item_id);
  };

  /** One item's check: `raw` undefined when the answer has no value for it. */
  const checkItem = (item: { id: number }, raw: number | undefined, answer: Answer, tsMs: number, pushed: boolean) => {
    // The edge: every value a driver returns is checked here once, so no NaN, Infinity or
    // non-number is ever kept, stored, judged or sent (reading.ts).
    // A finite number (nearly every value) passes as it is (−0 as 0): no object per value here.
    let ok = false;
    let value = 0;
    let why: string | undefined;
    if (raw !== undefined && Number.isFinite(raw)) {
      ok = true;
      value = raw === 0 ? 0 : raw;
    } else if (raw !== undefined) {
      const reading = checkReading(raw);
      if (reading.ok) {
        ok = true;
        value = reading.value;
      } else why = reading.reason;
    }
    // Live states are updated in place: this runs for every sample the collector takes.
    const s = slotFor(item.id);
    // Maximum age: a message always refreshes its items; a poll refreshes a value that changed (or
    // the first after none), so a polled value frozen past its maximum age stays unknown.
    // (`stale` is nearly always empty: its size is read before hashing the id, as twice below.)
    const frozen = !pushed && ok && stale.size > 0 && stale.has(item.id) && liveValue[s] === value;
    if (ok && !frozen) {
      if (pushed || liveValue[s] !== value || liveState[s] === monitorState.unknown || Number.isNaN(liveRefreshed[s]!))
        liveRefreshed[s] = tsMs;
      if (stale.size > 0) stale.delete(item.id);
      liveValue[s] = value;
      liveInfo[s] = '';
      // A value ends "unknown"; its state is the alarm engine's, which judges the sample and
      // answers with `item.state` before `sample` returns (a collector without one shows not ready).
      if (liveState[s] === monitorState.unknown) liveState[s] = monitorState.notReady;
      sample(item.id, value);
    } else {
      // The last good value stays for reference; the state and the reason say it is not current.
      liveState[s] = monitorState.unknown;
      if (!frozen) {
        liveInfo[s] = (answer.errors?.get(item.id) ?? why ?? 'no value').slice(0, 280);
      }
      sample(item.id, Number.NaN);
    }
    liveChecked[s] = Math.floor(tsMs / 1000);
    dirtyItems.add(item.id);
  };

  /**
   * A device's state from the live states of all its items (after a poll, a message or a maximum
   * age passing): unknown when every item has gone silent past its maximum age (its communication
   * alarm follows), abnormal naming the items that are unknown, abnormal when an item is, else
   * normal (not ready while nothing has come yet). Null for a device without items.
   */
  const deviceStateOf = (items: CollectorDevice['items']): { state: number; reason: string } | null => {
    if (items.length === 0) return null;
    const unreadable: string[] = [];
    let abnormal = false;
    let silent = 0;
    let waiting = 0;
    for (const item of items) {
      const s = slotOf.get(item.id);
      if (s === undefined || (liveState[s] === monitorState.notReady && Number.isNaN(liveValue[s]!))) {
        waiting += 1;
        continue;
      }
      const state = liveState[s]!;
      if (stale.has(item.id)) silent += 1;
      if (state === monitorState.unknown) unreadable.push(`${item.name || `#${item.id}`}: ${liveInfo[s]}`);
      else if (state !== monitorState.normal && state !== monitorState.notReady) abnormal = true;
    }
    if (silent > 0 && silent + waiting === items.length) {
      const first = items.find((i) => stale.has(i.id));
      return { state: monitorState.unknown, reason: (first && liveOf(first.id)?.info) || 'no value' };
    }
    if (unreadable.length > 0) {
      const named = unreadable.slice(0, 3).join('; ');
      return {
        state: monitorState.abnormal,
        reason: unreadable.length > 3 ? `${named}; +${unreadable.length - 3} more` : named,
      };
    }
    if (waiting === items.length) return { state: monitorState.notReady, reason: '' };
    return { state: abnormal ? monitorState.abnormal : monitorState.normal, reason: '' };
  };

  /**
   * Maximum age (docs/monitoring.md) of one connected device's items at `tsMs`: an item with no
   * refreshed value for `max_age` seconds becomes unknown with the reason, once, with a null sample;
   * counted from the opening of the connection (`since`) at the earliest. Says whether any did.
   */
  const ageOut = (items: CollectorDevice['items'], since: number, pushes: boolean, tsMs: number): boolean => {
    let changed = false;
    for (const item of items) {
      if (item.max_age <= 0 || stale.has(item.id)) continue;
      const known = slotOf.get(item.id);
      if (known !== undefined && liveState[known] === monitorState.unknown) continue;
      // Counted from the last refresh, but never from before the current connection was opened.
      const refreshed = known === undefined || Number.isNaN(liveRefreshed[known]!) ? 0 : liveRefreshed[known]!;
      if (tsMs - Math.max(refreshed, since) < item.max_age * 1000) continue;
      stale.add(item.id);
      const s = slotFor(item.id);
      liveState[s] = monitorState.unknown;
      liveChecked[s] = Math.floor(tsMs / 1000);
      liveInfo[s] = pushes ? `no value for ${item.max_age} s` : `value unchanged for ${item.max_age} s`;
      sample(item.id, Number.NaN);
      dirtyItems.add(item.id);
      changed = true;
    }
    publishSamples(tsMs);
    return changed;
  };

  /** Every item of a device that does not answer: unknown with the reason, a null sample each. */
  const markUnknown = (items: CollectorDevice['items'], reason: string, tsMs: number) => {
    const t = Math.floor(tsMs / 1000);
    for (const item of items) {
      sample(item.id, Number.NaN);
      const s = slotFor(item.id);
      liveState[s] = monitorState.unknown;
      liveChecked[s] = t;
      liveInfo[s] = reason;
      dirtyItems.add(item.id);
    }
    publishSamples(tsMs);
  };

  /**
   * The connection answered again; values come as messages. Items made unknown by the outage wait
   * for their next message (or their maximum age) rather than keep the outage's reason.
   */
  const outageOver = (items: CollectorDevice['items']) => {
    for (const item of items) {
      const s = slotOf.get(item.id);
      if (s !== undefined && liveState[s] === monitorState.unknown && !stale.has(item.id)) {
        liveState[s] = monitorState.notReady;
        liveInfo[s] = '';
        liveValue[s] = Number.NaN;
        dirtyItems.add(item.id);
      }
    }
  };

  return {
    liveOf,
    view: new LiveView(),
    dirtyItems,
    onItemState,
    checkItem,
    publishSamples,
    deviceStateOf,
    ageOut,
    markUnknown,
    outageOver,
    isStale: (itemId: number) => stale.has(itemId),
    /** Whether an item has a current value (not unknown, not waiting for its first). */
    holdsValue: (itemId: number) => {
      const s = slotOf.get(itemId);
      return s !== undefined && liveState[s] !== monitorState.unknown && !Number.isNaN(liveValue[s]!);
    },
    /** The item is no longer collected: it is not past its maximum age any more. */
    forget: (itemId: number) => stale.delete(itemId),
  };
};

export type LiveItems = ReturnType<typeof createLiveItems>;
