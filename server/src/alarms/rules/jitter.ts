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
  const n = Math.min(states.length, jitterWindow);
  const from = states.length - n;
  const transitions = jitterWindow - 1;
  let sum = 0;
  for (let i = from + 1; i < states.length; i++) {
    if (states[i] === states[i - 1]) continue;
    // Position of this transition among the 20 of a full window: 0 oldest … 19 newest.
    const pos = transitions - (states.length - i);
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

export interface JitterState {
  /** Confirmed states, oldest first, with their times (seconds). */
  states: number[];
  times: number[];
  jittering: boolean;
  percent: number;
  lifts: number;
  /** When the percent first fell below stop while jittering (0: not below). */
  belowSince: number;
}

export const newJitterState = (): JitterState => ({
  states: [],
  times: [],
  jittering: false,
  percent: 0,
  lifts: 0,
  belowSince: 0,
});

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
  s.states.push(state);
  s.times.push(t);
  if (s.states.length > jitterWindow) {
    s.states.shift();
    s.times.shift();
  }
  if (settings.period > 0) {
    while (s.times.length > 1 && (s.times[0] ?? t) < t - settings.period) {
      s.states.shift();
      s.times.shift();
    }
  }
  // Lifts in a row: a recovery counts one; a state that holds for a second check ends the run.
  if (lifted) s.lifts += 1;
  else if (state === s.states[s.states.length - 2]) s.lifts = 0;
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
  s.percent = s.states.length >= Math.max(2, settings.buffer_times) ? jitterPercent(s.states, settings.type) : 0;
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
