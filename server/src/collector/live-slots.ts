import type { BusEvent } from '@sitewatch/contract/events';
import { monitorState } from '@sitewatch/contract/monitoring';
import { SlotIndex } from '../slot-index.ts';

/** An item as the live views show it: the collector's value and check, the alarm engine's state. */
export interface LiveItemState {
  value: number | null;
  state: number;
  last_check: number;
  info: string;
  /** In alarm (abnormal, or an alarm of it open), as the engine says. */
  alarm: boolean;
}

type Column = Float64Array | Uint8Array;

/** `saved` of an item whose row this process has not written (no state is 255). */
export const unsavedState = 255;

/**
 * Each item's live state by slot (struct of arrays, as the alarm engine's alarms/items.ts). What
 * the collector took: its value (NaN: none yet), last check (s), when its value was last refreshed
 * (ms, NaN: never), whether its last check gave a value, and whether it has been heard since it was
 * installed or its device's outage. And what the alarm engine, the one owner of item state, last
 * published for it (`item.state`): state, reason, alarm flag. An item has a slot from its first
 * check on: one map from item id to slot instead of an object, a boxed number and two map entries
 * per item (issue 18, memory per item).
 */
export class LiveSlots {
  private readonly slots = new SlotIndex();
  value = new Float64Array(1024);
  checked = new Float64Array(1024);
  refreshed = new Float64Array(1024);
  ok = new Uint8Array(1024);
  heard = new Uint8Array(1024);
  state = new Uint8Array(1024);
  alarm = new Uint8Array(1024);
  /** The state last written to the item's row (`unsavedState`: not written yet). */
  saved = new Uint8Array(1024);
  info: string[] = [];
  /**
   * The items whose live state is not the one in their row: what a count over the rows must
   * correct to count live states (the dashboard's statistics) without reading every row.
   */
  readonly unsaved = new Set<number>();

  slotOf(itemId: number): number | undefined {
    return this.slots.get(itemId);
  }

  has(itemId: number): boolean {
    return this.slots.has(itemId);
  }

  /** The slot of an item, made (not ready, no value) when it has none. */
  slotFor(itemId: number): number {
    let s = this.slots.get(itemId);
    if (s !== undefined) return s;
    s = this.slots.size;
    if (s === this.value.length) {
      const grow = <T extends Column>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.value = grow(this.value);
      this.checked = grow(this.checked);
      this.refreshed = grow(this.refreshed);
      this.ok = grow(this.ok);
      this.heard = grow(this.heard);
      this.state = grow(this.state);
      this.alarm = grow(this.alarm);
      this.saved = grow(this.saved);
    }
    this.slots.set(itemId, s);
    this.value[s] = Number.NaN;
    this.checked[s] = 0;
    this.refreshed[s] = Number.NaN;
    this.ok[s] = 0;
    this.heard[s] = 0;
    this.state[s] = monitorState.notReady;
    this.alarm[s] = 0;
    this.saved[s] = unsavedState;
    this.unsaved.add(itemId);
    this.info[s] = '';
    return s;
  }

  /** An item's live state as the rest of the server reads it (a new object each time). */
  read(itemId: number): LiveItemState | undefined {
    const s = this.slots.get(itemId);
    if (s === undefined) return undefined;
    const value = this.value[s]!;
    return {
      value: Number.isNaN(value) ? null : value,
      state: this.state[s]!,
      last_check: this.checked[s]!,
      info: this.info[s]!,
      alarm: this.alarm[s] === 1,
    };
  }

  /** Keeps the state the engine published; false for an item not collected here. */
  takeState({ item_id, state, info, alarm }: BusEvent<'item.state'>): boolean {
    const s = this.slots.get(item_id);
    if (s === undefined) return false;
    this.state[s] = state;
    this.info[s] = info.slice(0, 280);
    this.alarm[s] = alarm ? 1 : 0;
    if (state === this.saved[s]) this.unsaved.delete(item_id);
    else this.unsaved.add(item_id);
    return true;
  }

  /** The item's row was written with this state. */
  wroteState(itemId: number, state: number) {
    const s = this.slots.get(itemId);
    if (s === undefined) return;
    this.saved[s] = state;
    if (this.state[s] === state) this.unsaved.delete(itemId);
  }
}
