import type { ControllerCard, DoorController, DoorEvent } from './controller.ts';

/**
 * Log sync (002 §7.8 `log_sync`; docs/door-access.md, "Log sync"): read a controller's events from
 * the index after the last one Sitewatch holds up to its current last index. The controller's ring
 * overwrites its oldest events, and the overwritten ones form a prefix of the range, so the first
 * surviving index is found by bisection and everything before it is one gap. A read that fails
 * stops the pass where it is: `through` says how far it got, and the next pass resumes there, so
 * nothing is read twice into the log (the log's rows are unique on controller and index anyway)
 * and nothing is skipped.
 */
export interface SyncPass {
  events: DoorEvent[];
  /** Indexes the ring overwrote before Sitewatch read them, inclusive. */
  gaps: Array<{ from: number; to: number }>;
  /** The last index handled; the next pass starts after it. */
  through: number;
  /** The controller's index went backwards (it was reset or replaced): read from its start. */
  reset: boolean;
  /** The error that stopped the pass, when one did. */
  error: unknown;
}

export const syncEvents = async (ctrl: DoorController, after: number, limit = 5000): Promise<SyncPass> => {
  const pass: SyncPass = { events: [], gaps: [], through: after, reset: false, error: null };
  try {
    const last = await ctrl.lastEventIndex();
    if (last < after) {
      pass.reset = true;
      pass.through = 0;
    }
    let next = pass.through + 1;
    if (next > last) return pass;
    // Is the first wanted event gone? Then bisect for the first one that is not.
    const first = await ctrl.event(next);
    if (first.status === 'overwritten') {
      let lo = next; // overwritten
      let hi = last + 1; // assumed surviving (past the end)
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        const read = await ctrl.event(mid);
        if (read.status === 'overwritten') lo = mid;
        else hi = mid;
      }
      pass.gaps.push({ from: next, to: lo });
      pass.through = lo;
      next = lo + 1;
    } else if (first.status === 'ok') {
      pass.events.push(first.event);
      pass.through = next;
      next += 1;
    }
    const end = Math.min(last, pass.through + limit);
    for (; next <= end; next++) {
      const read = await ctrl.event(next);
      if (read.status === 'ok') pass.events.push(read.event);
      else if (read.status === 'overwritten') {
        const gap = pass.gaps.at(-1);
        if (gap && gap.to === next - 1) gap.to = next;
        else pass.gaps.push({ from: next, to: next });
      }
      pass.through = next;
    }
  } catch (err) {
    pass.error = err;
  }
  return pass;
};

/** What one controller should hold: card number → its record. */
export type DesiredCards = Map<number, ControllerCard>;

const sameCard = (a: ControllerCard, b: ControllerCard) =>
  a.from === b.from &&
  a.to === b.to &&
  a.pin === b.pin &&
  [1, 2, 3, 4].every((d) => (a.doors[d] ?? false) === (b.doors[d] ?? false));

/**
 * The difference between what Sitewatch wants a controller to hold and what it holds: cards to
 * put (missing or different, a card removed on the controller by hand among them) and cards to
 * delete (on the controller, not wanted).
 */
export const cardDiff = (desired: DesiredCards, actual: ControllerCard[]) => {
  const held = new Map(actual.map((c) => [c.card, c]));
  const put = [...desired.values()].filter((c) => {
    const h = held.get(c.card);
    return !h || !sameCard(h, c);
  });
  const remove = actual.filter((c) => !desired.has(c.card)).map((c) => c.card);
  return { put, remove };
};

/** Pushes the difference; returns what it did (card numbers are never logged). */
export const pushCards = async (ctrl: DoorController, desired: DesiredCards) => {
  const { put, remove } = cardDiff(desired, await ctrl.listCards());
  let failed = 0;
  for (const card of put) if (!(await ctrl.putCard(card))) failed += 1;
  for (const card of remove) if (!(await ctrl.deleteCard(card))) failed += 1;
  return { put: put.length, removed: remove.length, failed };
};
