/**
 * The confirmation counters of the items, by slot (struct of arrays, issue 18): the raw state must
 * repeat before it becomes the confirmed state.
 */
export interface RepetitionTable {
  confirmed: Int8Array;
  pending: Int8Array;
  count: Int32Array;
}

/**
 * Feeds one raw state: it becomes the confirmed state after `repetitions` consecutive checks
 * (002 §3 "repetitions"; 0 and 1 both mean at once). A different raw state in between restarts the
 * count. Returns whether the confirmed state changed; the slot is updated in place (runs per sample).
 */
export const feedRepetition = (s: RepetitionTable, slot: number, raw: number, repetitions: number): boolean => {
  if (raw === s.confirmed[slot]) {
    s.pending[slot] = raw;
    s.count[slot] = 0;
    return false;
  }
  if (raw === s.pending[slot]) s.count[slot]! += 1;
  else {
    s.pending[slot] = raw;
    s.count[slot] = 1;
  }
  if (s.count[slot]! >= Math.max(1, repetitions)) {
    s.confirmed[slot] = raw;
    s.count[slot] = 0;
    return true;
  }
  return false;
};
