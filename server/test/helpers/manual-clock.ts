import type { LoopClock } from '../../src/collector/poller.ts';

/**
 * A clock a test drives: time stands still until the test runs the next timer, so a schedule of
 * minutes is checked in the time its I/O takes, never by waiting for it.
 */
export const createManualClock = (): LoopClock & {
  /** Waits until a timer is set, moves the time to the earliest one and runs it; answers the new time. */
  runNext(): Promise<number>;
  /** Resolves once a timer is pending: a device loop has finished its poll and set its next one. */
  timerSet(): Promise<void>;
} => {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  let waiting: Array<() => void> = [];
  const timerSet = async () => {
    while (timers.size === 0) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), run });
      const wake = waiting;
      waiting = [];
      for (const resolve of wake) resolve();
      return id;
    },
    clearTimeout(id) {
      timers.delete(id as number);
    },
    timerSet,
    async runNext() {
      await timerSet();
      let first: [number, { at: number; run: () => void }] | null = null;
      for (const entry of timers) if (!first || entry[1].at < first[1].at) first = entry;
      const [id, timer] = first!;
      timers.delete(id);
      now = Math.max(now, timer.at);
      timer.run();
      return now;
    },
  };
};
