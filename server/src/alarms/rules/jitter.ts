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
export const jitterPercent = (states: readonly number[], type: JitterType = 'standard'): number =>
  percentOf(states.length, (i) => states[i]!, type);

/** The percent over `length` states read by `at(i)`, oldest first (see jitterPercent). */
const percentOf = (length: number, at: (i: number) => number, type: JitterType): number => {
  const n = Math.min(length, jitterWindow);
  const from = length - n;
  const transitions = jitterWindow - 1;
  let sum = 0;
  for (let i = from + 1; i < length; i++) {
    if (at(i) === at(i - 1)) continue;
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
 * One item's jitter state. The window of confirmed states is a ring of at most 21 entries, each a
 * whole-second time and its state packed into one number (time × 8 + state, states being 0–6),
 * allocated at the first state: one small array per item instead of two growing ones (issue 18,
 * memory per item: 100 000 items held ~45 MB of windows).
 */
export interface JitterState {
  ring: number[] | null;
  /** Index of the oldest entry in `ring`, and how many entries it holds. */
  head: number;
  size: number;
  jittering: boolean;
  percent: number;
  lifts: number;
  /** When the percent first fell below stop while jittering (0: not below). */
  belowSince: number;
}

export const newJitterState = (): JitterState => ({
  ring: null,
  head: 0,
  size: 0,
  jittering: false,
  percent: 0,
  lifts: 0,
  belowSince: 0,
});

/** The i-th entry of the window, oldest first. */
const entry = (s: JitterState, i: number) => s.ring![(s.head + i) % jitterWindow]!;
const stateAt = (s: JitterState, i: number) => entry(s, i) % 8;
const timeAt = (s: JitterState, i: number) => Math.floor(entry(s, i) / 8);

/** The confirmed states in the window, oldest first. */
export const jitterStates = (s: JitterState): number[] => Array.from({ length: s.size }, (_, i) => stateAt(s, i));

const dropOldest = (s: JitterState) => {
  s.head = (s.head + 1) % jitterWindow;
  s.size -= 1;
};

export type JitterEvent = 'start' | 'stop' | null;

/**
 * Adds one confirmed state (after repetitions) and says whether jitter starts or stops: notices are
 * held while the percent is above `start`, and resume only once it falls below `stop` (and stays
 * there for `recovery_period`). The state is updated in place.
 */
export const feedJitter = (
  s: JitterState,
  state: number,
  t: number,
  settings: JitterSettings,
  lifted: boolean,
): JitterEvent => {
  s.ring ??= new Array<number>(jitterWindow).fill(0);
  if (s.size === jitterWindow) dropOldest(s);
  s.ring[(s.head + s.size) % jitterWindow] = Math.floor(t) * 8 + state;
  s.size += 1;
  if (settings.period > 0) {
    while (s.size > 1 && timeAt(s, 0) < t - settings.period) dropOldest(s);
  }
  // Lifts in a row: a recovery counts one; a state that holds for a second check ends the run.
  if (lifted) s.lifts += 1;
  else if (s.size >= 2 && state === stateAt(s, s.size - 2)) s.lifts = 0;
  return judgeJitter(s, t, settings);
};

/** Re-judges jitter at time `t` (also called without a new state, for the recovery period). */
export const judgeJitter = (s: JitterState, t: number, settings: JitterSettings): JitterEvent => {
  if (!settings.enable) {
    const was = s.jittering;
    s.jittering = false;
    s.belowSince = 0;
    return was ? 'stop' : null;
  }
  s.percent = s.size >= Math.max(2, settings.buffer_times) ? percentOf(s.size, (i) => stateAt(s, i), settings.type) : 0;
  const liftsExceeded = settings.max_continuous_lifts > 0 && s.lifts >= settings.max_continuous_lifts;
  if (!s.jittering) {
    if (s.percent > settings.start || liftsExceeded) {
      s.jittering = true;
      s.belowSince = 0;
      return 'start';
    }
    return null;
  }
  if (s.percent < settings.stop && !liftsExceeded) {
    if (s.belowSince === 0) s.belowSince = t;
    if (t - s.belowSince >= settings.recovery_period) {
      s.jittering = false;
      s.belowSince = 0;
      s.lifts = 0;
      return 'stop';
    }
  } else s.belowSince = 0;
  return null;
};
