import type { Timer, Timers } from './timers.ts';

/**
 * A clock that moves only when told: `now` (epoch ms) and `timers` for the composition root or a
 * service, and `advance(ms)`, which runs the timers due meanwhile in time order, each at its own
 * time, and those they schedule, and lets what each started finish before the next moment's
 * (docs/testing.md, "The test clock"). Nothing of it waits on wall-clock time.
 */
export interface ManualClock {
  now(): number;
  timers: Timers;
  /** Moves time forward by `ms`, running every timer due by then; resolves when they have settled. */
  advance(ms: number): Promise<void>;
  /** Moves time forward to `epochMs` (as `advance`). */
  advanceTo(epochMs: number): Promise<void>;
  /**
   * Sets the wall clock as a change of the system time would: `now()` reads `epochMs` at once, no
   * timer runs, and those waiting keep their delays (they count monotonic time, as Node's do). For
   * a test about the time of day, not about what happens meanwhile.
   */
  jump(epochMs: number): void;
  /** Timers waiting to run. */
  pending(): number;
  /**
   * What `advance` awaits after each timer (and a turn of the event loop) and at its end: the app's
   * `settled()` once the app is built (a timer's run may start I/O); by default nothing more.
   * `between` is true after a timer that is not the last: work waiting for a timer of its own (the
   * series store's buffered samples) may go on waiting, as it would in production.
   */
  settleWith(settle: (between: boolean) => Promise<unknown>): void;
}

interface Scheduled {
  id: number;
  due: number;
  every: number | null;
  run: () => unknown;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export const createManualClock = (startMs = Date.UTC(2026, 0, 5, 1, 0, 0)): ManualClock => {
  /** Monotonic time, in which timers are due; the wall clock is it plus `wallOffset`. */
  let now = 0;
  let wallOffset = startMs;
  let nextId = 1;
  const scheduled = new Map<number, Scheduled>();
  let settle: (between: boolean) => Promise<unknown> = () => Promise.resolve();

  const add = (run: () => unknown, ms: number, every: number | null): Timer => {
    const entry: Scheduled = { id: nextId++, due: now + Math.max(0, ms), every, run };
    scheduled.set(entry.id, entry);
    const timer = { id: entry.id, unref: () => timer };
    return timer;
  };
  const clear = (timer: Timer | null | undefined) => {
    const id = (timer as { id?: unknown } | null | undefined)?.id;
    if (typeof id === 'number') scheduled.delete(id);
  };
  /** The earliest timer due by `until` (the first scheduled among equals). */
  const nextDue = (until: number) => {
    let first: Scheduled | undefined;
    for (const s of scheduled.values()) if (s.due <= until && (!first || s.due < first.due)) first = s;
    return first;
  };

  // A turn of the event loop first (I/O that is in, immediates), then what the clock settles with:
  // time never moves on while a callback that is ready waits behind a run of quiet timers.
  const settleAll = async (between = false) => {
    await turn();
    await settle(between);
  };
  const advanceTo = async (target: number) => {
    // Let what the test started reach its timers before time moves.
    await settleAll();
    for (let s = nextDue(target); s; s = nextDue(target)) {
      now = Math.max(now, s.due);
      if (s.every === null) scheduled.delete(s.id);
      else s.due += s.every;
      s.run();
      // Timers due at one moment run back to back, as Node runs them in one pass of its timers
      // phase; what they started settles once after the last of them.
      if (nextDue(target)?.due === now) continue;
      await settleAll(true);
    }
    now = Math.max(now, target);
    await settleAll();
  };

  return {
    now: () => now + wallOffset,
    timers: {
      setTimeout: (run, ms) => add(run, ms, null),
      // An interval of 0 would never let time move on.
      setInterval: (run, ms) => add(run, ms, Math.max(1, ms)),
      clearTimeout: clear,
      clearInterval: clear,
      monotonic: () => now,
    },
    advance: (ms) => advanceTo(now + ms),
    advanceTo: (epochMs) => advanceTo(epochMs - wallOffset),
    jump(epochMs) {
      wallOffset = epochMs - now;
    },
    pending: () => scheduled.size,
    settleWith(fn) {
      settle = fn;
    },
  };
};
