/** Jitter window (002 §9): 21 checks give up to 20 changes. */
export const jitterWindow = 21;

export type JitterType = 'standard' | 'weighted';

/**
 * Percent of state changes over the last confirmed states (oldest first, at most 21).
 *
 * - `standard` (002 §4, the default): changes / 20 × 100.
 * - `weighted` (Nagios): each change weighs from 0.75 (oldest transition) to 1.25 (newest), so
 *   recent flapping counts more; the sum is divided by 20 as well.
 */
export const jitterPercent = (states: readonly number[], type: JitterType = 'standard'): number => {
  const last = states.slice(-jitterWindow);
  return percentOf(last, 0, 0, last.length, type);
};

/**
 * The percent over `length` (at most 21) states held in a ring: entry i (oldest first) is
 * `states[start + (head + i) % 21]` (see jitterPercent). Read in place, without a call per entry: it
 * runs for every sample of every item with jitter on (12 % of the main thread's long tasks at
 * 120 000 values/s when it read each entry through a closure).
 */
const percentOf = (states: ArrayLike<number>, start: number, head: number, length: number, type: JitterType) => {
  const transitions = jitterWindow - 1;
  let index = head;
  let previous = states[start + index];
  let sum = 0;
  for (let i = 1; i < length; i++) {
    index = index + 1 === jitterWindow ? 0 : index + 1;
    const state = states[start + index];
    if (state === previous) continue;
    previous = state;
    // Position of this transition among the 20 of a full window: 0 oldest … 19 newest.
    const pos = transitions - (length - i);
    sum += type === 'weighted' ? 0.75 + (0.5 * pos) / (transitions - 1) : 1;
  }
  return Math.round((sum / transitions) * 10_000) / 100;
};

export interface JitterSettings {
  enable: boolean;
  type: JitterType;
  start: number;
  stop: number;
  /** Confirmed states needed before jitter is judged. */
  buffer_times: number;
  /** Lifts (problem → normal) in a row that make the item jitter regardless of percent (0: off). */
  max_continuous_lifts: number;
  /** Seconds below the stop threshold before notices resume (0: at once). */
  recovery_period: number;
  /** Seconds after which a confirmed state drops out of the window (0: never). */
  period: number;
}

/**
 * The jitter state of every item, as a struct of arrays indexed by the item's slot (issue 18, memory
 * per item: one object and one ring array per item cost ~250 bytes; these arrays ~130). The window
 * of confirmed states is a ring of at most 21 entries per slot: whole-second times (relative to the
 * first time fed, so they fit an Int32: ±68 years) and states.
 */
export class JitterTable {
  capacity = 0;
  /** Time of the first state fed: ring times are seconds after it. */
  base: number | null = null;
  times = new Int32Array(0);
  states = new Uint8Array(0);
  /** Index of the oldest entry in the slot's ring, and how many entries it holds. */
  head = new Uint8Array(0);
  size = new Uint8Array(0);
  jittering = new Uint8Array(0);
  percent = new Float64Array(0);
  lifts = new Int32Array(0);
  /** When the percent first fell below stop while jittering (0: not below). */
  belowSince = new Float64Array(0);

  constructor(capacity = 0) {
    this.grow(capacity);
  }

  /** Makes room for `capacity` slots, keeping what the existing ones hold. */
  grow(capacity: number) {
    if (capacity <= this.capacity) return;
    const copy = <T extends Int32Array | Uint8Array | Float64Array>(old: T, make: (n: number) => T, per = 1): T => {
      const next = make(capacity * per);
      next.set(old);
      return next;
    };
    this.times = copy(this.times, (n) => new Int32Array(n), jitterWindow);
    this.states = copy(this.states, (n) => new Uint8Array(n), jitterWindow);
    this.head = copy(this.head, (n) => new Uint8Array(n));
    this.size = copy(this.size, (n) => new Uint8Array(n));
    this.jittering = copy(this.jittering, (n) => new Uint8Array(n));
    this.percent = copy(this.percent, (n) => new Float64Array(n));
    this.lifts = copy(this.lifts, (n) => new Int32Array(n));
    this.belowSince = copy(this.belowSince, (n) => new Float64Array(n));
    this.capacity = capacity;
  }

  /** Empties a slot (a new item, or one removed). */
  clear(slot: number) {
    this.head[slot] = 0;
    this.size[slot] = 0;
    this.jittering[slot] = 0;
    this.percent[slot] = 0;
    this.lifts[slot] = 0;
    this.belowSince[slot] = 0;
  }
}

/** Where the i-th entry of a slot's window (oldest first) lies in the ring arrays. */
const at = (j: JitterTable, slot: number, i: number) => slot * jitterWindow + ((j.head[slot]! + i) % jitterWindow);
const stateAt = (j: JitterTable, slot: number, i: number) => j.states[at(j, slot, i)]!;
const timeAt = (j: JitterTable, slot: number, i: number) => j.times[at(j, slot, i)]! + j.base!;

/** The confirmed states in a slot's window, oldest first. */
export const jitterStates = (j: JitterTable, slot: number): number[] =>
  Array.from({ length: j.size[slot]! }, (_, i) => stateAt(j, slot, i));

const dropOldest = (j: JitterTable, slot: number) => {
  j.head[slot] = (j.head[slot]! + 1) % jitterWindow;
  j.size[slot]! -= 1;
};

export type JitterEvent = 'start' | 'stop' | null;

/**
 * Adds one confirmed state (after repetitions) and says whether jitter starts or stops: notices are
 * held while the percent is above `start`, and resume only once it falls below `stop` (and stays
 * there for `recovery_period`). The slot is updated in place.
 */
export const feedJitter = (
  j: JitterTable,
  slot: number,
  state: number,
  t: number,
  settings: JitterSettings,
  lifted: boolean,
): JitterEvent => {
  const second = Math.floor(t);
  j.base ??= second;
  if (j.size[slot] === jitterWindow) dropOldest(j, slot);
  const i = at(j, slot, j.size[slot]!);
  j.times[i] = second - j.base;
  j.states[i] = state;
  j.size[slot]! += 1;
  if (settings.period > 0) {
    while (j.size[slot]! > 1 && timeAt(j, slot, 0) < t - settings.period) dropOldest(j, slot);
  }
  // Lifts in a row: a recovery counts one; a state that holds for a second check ends the run.
  const size = j.size[slot]!;
  if (lifted) j.lifts[slot]! += 1;
  else if (size >= 2 && state === stateAt(j, slot, size - 2)) j.lifts[slot] = 0;
  return judgeJitter(j, slot, t, settings);
};

/** Re-judges a slot's jitter at time `t` (also called without a new state, for the recovery period). */
export const judgeJitter = (j: JitterTable, slot: number, t: number, settings: JitterSettings): JitterEvent => {
  if (!settings.enable) {
    const was = j.jittering[slot] === 1;
    j.jittering[slot] = 0;
    j.belowSince[slot] = 0;
    return was ? 'stop' : null;
  }
  const size = j.size[slot]!;
  j.percent[slot] =
    size >= Math.max(2, settings.buffer_times)
      ? percentOf(j.states, slot * jitterWindow, j.head[slot]!, size, settings.type)
      : 0;
  const percent = j.percent[slot]!;
  const liftsExceeded = settings.max_continuous_lifts > 0 && j.lifts[slot]! >= settings.max_continuous_lifts;
  if (j.jittering[slot] === 0) {
    if (percent > settings.start || liftsExceeded) {
      j.jittering[slot] = 1;
      j.belowSince[slot] = 0;
      return 'start';
    }
    return null;
  }
  if (percent < settings.stop && !liftsExceeded) {
    if (j.belowSince[slot] === 0) j.belowSince[slot] = t;
    if (t - j.belowSince[slot]! >= settings.recovery_period) {
      j.jittering[slot] = 0;
      j.belowSince[slot] = 0;
      j.lifts[slot] = 0;
      return 'stop';
    }
  } else j.belowSince[slot] = 0;
  return null;
};
