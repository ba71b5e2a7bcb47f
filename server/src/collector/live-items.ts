import type { BusEvent } from '@sitewatch/contract/events';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import { createChangedIds } from '../changed-ids.ts';
import type { Answer } from './answer.ts';
import type { CollectorDevice } from './devices.ts';
import { type LiveItemState, LiveSlots } from './live-slots.ts';
import { checkReading } from './reading.ts';

type Items = CollectorDevice['items'];

/**
 * Every check of every item is a sample: its value, or NaN when it gave none (with why). The
 * samples of one answer (or sweep of a device) are gathered here and published as one `samples`
 * event, before the device is judged (its items' states are the engine's answer to them).
 */
const createSampleBatch = (bus: Pick<EventBus, 'publish'>) => {
  let outIds = new Float64Array(1024);
  let outValues = new Float64Array(1024);
  let outN = 0;
  /** Why the gathered NaNs have no value (made only when one has a reason other than the batch's). */
  let outReasons: Map<number, string> | null = null;
  /** The reason of the gathered batch's first NaN (a device where nothing is usable is unknown with it). */
  let firstFailure: string | null = null;
  /** The ids of the batch being delivered: consumers read its arrays until publish returns. */
  let delivered: Float64Array | null = null;
  const sample = (itemId: number, value: number, reason?: string) => {
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
    if (reason === undefined) return;
    outReasons ??= new Map();
    outReasons.set(itemId, reason);
    firstFailure ??= reason;
  };
  /** `outage`: the device did not answer, the NaNs are its outage (its state was published first). */
  const publishSamples = (tsMs: number, outage?: { reason: string }) => {
    if (outN === 0) return;
    const event = {
      ids: outIds,
      values: outValues,
      from: 0,
      to: outN,
      ts_ms: tsMs,
      reasons: outReasons,
      ...(outage ? { reason: outage.reason, outage: true } : {}),
    };
    outN = 0;
    outReasons = null;
    firstFailure = null;
    const outer = delivered;
    delivered = event.ids;
    try {
      bus.publish('samples', event);
    } finally {
      delivered = outer;
    }
  };
  return { sample, publish: publishSamples, firstFailure: () => firstFailure };
};

/** Why a silent item is silent: a pushed one heard nothing, a polled one kept its value. */
const silentReason = (pushes: boolean, item: { max_age: number }) =>
  pushes ? `no value for ${item.max_age} s` : `value unchanged for ${item.max_age} s`;

/**
 * The collector's items on the main thread: each item's live value (the state shown is the alarm
 * engine's, kept as it publishes it), the edge check of every value a driver returns, the samples
 * of each answer (published as one `samples` event, NaNs with their reasons), maximum ages, and
 * which item rows changed. Runs for every value collected, so it keeps its state in typed arrays
 * and allocates nothing per value.
 */
export const createLiveItems = (bus: Pick<EventBus, 'publish'>) => {
  const live = new LiveSlots();
  /** The items past their maximum age. */
  const stale = new Set<number>();
  const dirtyItems = createChangedIds();
  // The row writer reads items by id: a read-only view of the slots (it calls only has and get).
  class LiveView extends Map<number, LiveItemState> {
    override has(itemId: number) {
      return live.has(itemId);
    }
    override get(itemId: number) {
      return live.read(itemId);
    }
  }
  const batch = createSampleBatch(bus);
  const { sample } = batch;
  // Item states are the alarm engine's: the live view keeps the last one it published.
  const onItemState = (e: BusEvent<'item.state'>) => {
    if (live.takeState(e)) dirtyItems.add(e.item_id);
  };

  /**
   * One item's check: `raw` undefined when the answer has no value for it; `pushes`: its device's
   * values come as messages (the reason a silent one is given).
   */
  const checkItem = (
    item: Items[number],
    raw: number | undefined,
    answer: Answer,
    tsMs: number,
    pushed: boolean,
    pushes: boolean,
  ) => {
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
    // Live values are updated in place: this runs for every sample the collector takes.
    const s = live.slotFor(item.id);
    // Maximum age: a message always refreshes its items; a poll refreshes a value that changed (or
    // the first after none), so a polled value frozen past its maximum age stays unknown.
    // (`stale` is nearly always empty: its size is read before hashing the id, as twice below.)
    const frozen = !pushed && ok && stale.size > 0 && stale.has(item.id) && live.value[s] === value;
    live.heard[s] = 1;
    if (ok && !frozen) {
      if (pushed || live.value[s] !== value || live.ok[s] === 0 || Number.isNaN(live.refreshed[s]!))
        live.refreshed[s] = tsMs;
      if (stale.size > 0) stale.delete(item.id);
      live.value[s] = value;
      live.ok[s] = 1;
      // Its state is the alarm engine's, which judges the sample and answers with `item.state`.
      sample(item.id, value);
    } else {
      // The last good value stays for reference; the engine shows the item unknown with the reason.
      live.ok[s] = 0;
      const reason = frozen ? silentReason(pushes, item) : (answer.errors?.get(item.id) ?? why ?? 'no value');
      sample(item.id, Number.NaN, reason.slice(0, 280));
    }
    live.checked[s] = Math.floor(tsMs / 1000);
    dirtyItems.add(item.id);
  };

  /**
   * Whether no item of a device has a usable value: each failed its last check or went silent, or
   * (once one has gone silent) has not been heard yet. Items not heard yet beside failed ones leave
   * it up: a publisher's first message may name one item only. Items a poll did not read (their own
   * interval has not run) count as they were last checked.
   */
  const nothingUsable = (items: Items) => {
    let failed = 0;
    let waiting = 0;
    let silent = false;
    for (const item of items) {
      const s = live.slotOf(item.id);
      if (s === undefined || live.heard[s] === 0) waiting += 1;
      else if (live.ok[s] === 0) {
        failed += 1;
        silent ||= stale.size > 0 && stale.has(item.id);
      } else return false;
    }
    return failed > 0 && (waiting === 0 || silent);
  };
  /** Why a device has nothing usable: the batch's first failure, its first silent item, else the first item shown unknown. */
  const failureOf = (items: Items, pushes: boolean) => {
    const first = batch.firstFailure();
    if (first !== null) return first;
    const silent = stale.size > 0 ? items.find((i) => stale.has(i.id)) : undefined;
    if (silent) return silentReason(pushes, silent);
    for (const item of items) {
      const s = live.slotOf(item.id);
      if (s !== undefined && live.heard[s] === 1 && live.info[s]) return live.info[s]!;
    }
    return 'no value';
  };

  /**
   * A device's state, after its samples were judged, from the engine's states of its items:
   * abnormal naming the items that are unknown, abnormal when an item is abnormal or jitters, else
   * normal (not ready while nothing has come yet). Null for a device without items.
   */
  const deviceStateOf = (items: Items): { state: number; reason: string } | null => {
    if (items.length === 0) return null;
    const unreadable: string[] = [];
    let abnormal = false;
    let waiting = 0;
    for (const item of items) {
      const s = live.slotOf(item.id);
      if (s === undefined || live.heard[s] === 0) {
        waiting += 1;
        continue;
      }
      const state = live.state[s]!;
      if (state === monitorState.unknown) unreadable.push(`${item.name || `#${item.id}`}: ${live.info[s]}`);
      else if (state !== monitorState.normal && state !== monitorState.notReady) abnormal = true;
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
   * refreshed value for `max_age` seconds gets a NaN sample with the reason, once (the engine shows
   * it unknown; a pushed one is checked again at each check of its connection); counted from the
   * opening of the connection (`since`) at the earliest. Says whether any did; the caller publishes.
   */
  const ageOut = (items: Items, since: number, pushes: boolean, tsMs: number): boolean => {
    let changed = false;
    for (const item of items) {
      if (item.max_age <= 0 || stale.has(item.id)) continue;
      const known = live.slotOf(item.id);
      // An item whose last check gave no value is unknown already.
      if (known !== undefined && live.heard[known] === 1 && live.ok[known] === 0) continue;
      // Counted from the last refresh, but never from before the current connection was opened.
      const refreshed = known === undefined || Number.isNaN(live.refreshed[known]!) ? 0 : live.refreshed[known]!;
      if (tsMs - Math.max(refreshed, since) < item.max_age * 1000) continue;
      stale.add(item.id);
      const s = live.slotFor(item.id);
      live.ok[s] = 0;
      live.heard[s] = 1;
      live.checked[s] = Math.floor(tsMs / 1000);
      sample(item.id, Number.NaN, silentReason(pushes, item));
      dirtyItems.add(item.id);
      changed = true;
    }
    return changed;
  };

  /**
   * Every item of a device that does not answer (its state was published first): an empty check
   * each, published as its outage (its items wait for their next value when it is back, rather
   * than keep the outage's reason).
   */
  const markUnknown = (items: Items, reason: string, tsMs: number) => {
    const t = Math.floor(tsMs / 1000);
    for (const item of items) {
      sample(item.id, Number.NaN);
      const s = live.slotFor(item.id);
      live.ok[s] = 0;
      live.heard[s] = 0;
      live.checked[s] = t;
      dirtyItems.add(item.id);
    }
    batch.publish(tsMs, { reason });
  };

  /**
   * The connection answered; values come as messages. A silent item is checked again at each check
   * of the connection (its repetitions count these); one made unknown by the outage (`recovered`)
   * waits for its next message (or its maximum age). The caller publishes.
   */
  const alive = (items: Items, pushes: boolean, recovered: boolean, tsMs: number) => {
    for (const item of items) {
      const s = live.slotOf(item.id);
      if (stale.size > 0 && stale.has(item.id)) {
        sample(item.id, Number.NaN, silentReason(pushes, item));
        if (s === undefined) continue;
        live.heard[s] = 1;
        live.checked[s] = Math.floor(tsMs / 1000);
      } else if (recovered && s !== undefined && live.heard[s] === 0) {
        live.value[s] = Number.NaN;
        dirtyItems.add(item.id);
      }
    }
  };

  return {
    liveOf: (itemId: number) => live.read(itemId),
    slots: live,
    /** The collected items whose live state is not in their row yet ([item id, live state]). */
    unsavedStates: (collected: (itemId: number) => boolean) => {
      const out: Array<[number, number]> = [];
      // Not while a reload has an item out (it comes back, or leaves the set when the reload ends).
      for (const id of live.unsaved) if (collected(id)) out.push([id, live.state[live.slotOf(id)!]!]);
      return out;
    },
    view: new LiveView(),
    dirtyItems,
    onItemState,
    checkItem,
    publishSamples: batch.publish,
    nothingUsable,
    failureOf,
    deviceStateOf,
    ageOut,
    markUnknown,
    alive,
    /** The item is no longer collected: it is not past its maximum age any more. */
    forget: (itemId: number) => stale.delete(itemId),
  };
};

export type LiveItems = ReturnType<typeof createLiveItems>;
