/** The confirmation counter of one item: the raw state must repeat before it becomes the state. */
export interface RepetitionState {
  confirmed: number;
  pending: number;
  count: number;
}

/**
 * Feeds one raw state: it becomes the confirmed state after `repetitions` consecutive checks
 * (002 §3 "repetitions"; 0 and 1 both mean at once). A different raw state in between restarts the
 * count. Returns whether the confirmed state changed; `s` is updated in place (runs per sample).
 */
export const feedRepetition = (s: RepetitionState, raw: number, repetitions: number): boolean => {
  if (raw === s.confirmed) {
    s.pending = raw;
    s.count = 0;
    return false;
  }
  if (raw === s.pending) s.count += 1;
  else {
    s.pending = raw;
    s.count = 1;
  }
  if (s.count >= Math.max(1, repetitions)) {
    s.confirmed = raw;
    s.count = 0;
    return true;
  }
  return false;
};
