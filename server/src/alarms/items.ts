import { monitorState } from '@sitewatch/contract/monitoring';
import { SlotIndex } from '../slot-index.ts';
import { JitterTable } from './rules/jitter.ts';
import type { RepetitionTable } from './rules/repetitions.ts';
import type { ThresholdRule } from './rules/threshold.ts';
import type { Alarm, DeviceRuntime } from './state.ts';

type Typed = Int8Array | Uint8Array | Int32Array | Float64Array;

/**
 * The alarm engine's items as a struct of arrays: each item has a slot, and each of its fields is
 * one entry of a typed array (numbers) or of a plain array (references: strings, the shared rule,
 * the device, the open and the last alarm). One object per item with its repetition and jitter
 * objects and ring cost ~500 bytes and gave the collector ~100 000 more objects to trace; this holds
 * ~220 (issue 18, memory per item; docs/series-store-log.md). Slots of removed items are reused.
 */
export class ItemTable {
  /** Slot of each item id. */
  readonly slots = new SlotIndex();
  private free: number[] = [];
  /** Slots ever handed out (the plain arrays' length). */
  private used = 0;
  capacity = 0;

  id = new Int32Array(0);
  level = new Uint8Array(0);
  repetitions = new Float64Array(0);
  notificationInterval = new Float64Array(0);
  contactGroup = new Int32Array(0);
  checkPeriod = new Int32Array(0);
  alarmPeriod = new Int32Array(0);
  notificationPeriod = new Int32Array(0);
  /** The threshold state of the last value (before repetitions; the hysteresis starts from it). */
  raw = new Int8Array(0);
  /**
   * The item's state, why, and whether it is in alarm, as last published on the bus (`item.state`):
   * what the live views show (unknown wins over jitter, jitter over the threshold state).
   */
  shown = new Int8Array(0);
  info: string[] = [];
  shownAlarm = new Uint8Array(0);
  /** Whether the item raises a point-fault alarm (`items.fault_alarm`). */
  faultAlarm = new Uint8Array(0);
  /** The display decimals of the item's value in notices (`items.decimals`); -1: as read. */
  decimals = new Int8Array(0);
  /** The item is unknown because its device did not answer (not a fault of its own). */
  outage = new Uint8Array(0);
  rep: RepetitionTable = { confirmed: new Int8Array(0), pending: new Int8Array(0), count: new Int32Array(0) };
  value = new Float64Array(0);
  /** Whether `value` holds a value (an item starts without). */
  hasValue = new Uint8Array(0);
  /** A problem notice went out and no recovery notice has followed yet. */
  problemNoticed = new Uint8Array(0);
  readonly jitter = new JitterTable();

  name: string[] = [];
  unit: string[] = [];
  color: string[] = [];
  rule: ThresholdRule[] = [];
  device: (DeviceRuntime | null)[] = [];
  alarm: (Alarm | null)[] = [];
  /** The open point-fault alarm (the item cannot be read or judged); beside a threshold alarm. */
  fault: (Alarm | null)[] = [];
  /** The last alarm of the item (for the notice after jitter stops). */
  last: (Alarm | null)[] = [];

  /** Equal strings (units, colours) and rules are held once: they repeat across an estate's items. */
  private strings = new Map<string, string>();
  private rules = new Map<string, ThresholdRule>();

  get size() {
    return this.slots.size;
  }

  slotOf(id: number): number | undefined {
    return this.slots.get(id);
  }

  /**
   * Makes room for `n` items in all (before a load, so the arrays grow once). Past that by an eighth
   * at least, not twice: a device added to 100 000 items (sized exactly by the start-up's load)
   * doubled every array, ~19 MB more for 100 items (issue 18, memory per item).
   */
  reserve(n: number) {
    if (n <= this.capacity) return;
    const capacity = Math.max(n, this.capacity + (this.capacity >> 3), 64);
    const grown = <T extends Typed>(old: T): T => {
      const next = new (old.constructor as new (n: number) => T)(capacity);
      next.set(old);
      return next;
    };
    this.id = grown(this.id);
    this.level = grown(this.level);
    this.repetitions = grown(this.repetitions);
    this.notificationInterval = grown(this.notificationInterval);
    this.contactGroup = grown(this.contactGroup);
    this.checkPeriod = grown(this.checkPeriod);
    this.alarmPeriod = grown(this.alarmPeriod);
    this.notificationPeriod = grown(this.notificationPeriod);
    this.raw = grown(this.raw);
    this.shown = grown(this.shown);
    this.shownAlarm = grown(this.shownAlarm);
    this.faultAlarm = grown(this.faultAlarm);
    this.decimals = grown(this.decimals);
    this.outage = grown(this.outage);
    this.rep = { confirmed: grown(this.rep.confirmed), pending: grown(this.rep.pending), count: grown(this.rep.count) };
    this.value = grown(this.value);
    this.hasValue = grown(this.hasValue);
    this.problemNoticed = grown(this.problemNoticed);
    this.jitter.grow(capacity);
    this.capacity = capacity;
  }

  /** A slot for a new item, its state fresh (not ready, no value, no alarm). */
  add(id: number): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.used;
      this.used += 1;
      this.reserve(this.used);
      // Appended, so the plain arrays stay packed.
      this.name.push('');
      this.unit.push('');
      this.color.push('');
      this.rule.push(noRule);
      this.device.push(null);
      this.alarm.push(null);
      this.fault.push(null);
      this.last.push(null);
      this.info.push('');
    }
    this.slots.set(id, slot);
    this.id[slot] = id;
    this.raw[slot] = monitorState.notReady;
    this.shown[slot] = monitorState.notReady;
    this.info[slot] = '';
    this.shownAlarm[slot] = 0;
    this.faultAlarm[slot] = 1;
    this.decimals[slot] = -1;
    this.outage[slot] = 0;
    this.rep.confirmed[slot] = monitorState.notReady;
    this.rep.pending[slot] = monitorState.notReady;
    this.rep.count[slot] = 0;
    this.value[slot] = 0;
    this.hasValue[slot] = 0;
    this.problemNoticed[slot] = 0;
    this.alarm[slot] = null;
    this.fault[slot] = null;
    this.last[slot] = null;
    this.jitter.clear(slot);
    return slot;
  }

  /** Forgets an item; its slot is reused. */
  remove(id: number) {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    this.slots.delete(id);
    this.name[slot] = '';
    this.device[slot] = null;
    this.alarm[slot] = null;
    this.fault[slot] = null;
    this.last[slot] = null;
    this.info[slot] = '';
    this.jitter.clear(slot);
    this.free.push(slot);
  }

  /** The item's value, or null before its first value. */
  valueOf(slot: number): number | null {
    return this.hasValue[slot] === 1 ? this.value[slot]! : null;
  }

  intern(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    this.strings.set(s, s);
    return s;
  }

  /** One object per distinct rule (rules are only read). */
  shareRule(rule: ThresholdRule): ThresholdRule {
    const key = `${rule.value_type}|${rule.threshold_min}|${rule.threshold_max}|${rule.overrun_point}|${rule.recovery_point}|${rule.status_threshold}`;
    const known = this.rules.get(key);
    if (known) return known;
    this.rules.set(key, rule);
    return rule;
  }
}

const noRule: ThresholdRule = {
  value_type: 1,
  threshold_min: null,
  threshold_max: null,
  status_threshold: '',
  overrun_point: null,
  recovery_point: null,
};
