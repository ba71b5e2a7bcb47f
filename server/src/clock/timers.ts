/** A scheduled run, as the timers return it; `unref` as Node's (a manual clock's timers hold nothing). */
export interface Timer {
  unref(): unknown;
}

/**
 * Every timer of the server goes through one of these, handed in by the composition root: the real
 * one by default, a manual clock's in tests (manual.ts), so a test moves time instead of waiting for
 * it (docs/testing.md, "The test clock"). A callback may return a promise: the kernel counts it as
 * work in flight until it settles (`Sitewatch.settled()`).
 */
export interface Timers {
  setTimeout(run: () => unknown, ms: number): Timer;
  clearTimeout(timer: Timer | null | undefined): void;
  setInterval(run: () => unknown, ms: number): Timer;
  clearInterval(timer: Timer | null | undefined): void;
  /** Milliseconds that only go forward: a change of the system time moves no poll or compaction. */
  monotonic(): number;
}

export const realTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout | undefined),
  monotonic: () => performance.now(),
};

/** Resolves after `ms` on the given timers (a retry's back-off). */
export const delay = (timers: Timers, ms: number): Promise<void> =>
  new Promise((resolve) => {
    timers.setTimeout(resolve, ms).unref();
  });

/**
 * Work a part started and did not await (a timer's run, a bus handler's write): counted until it
 * settles, so `settled()` can wait for it. Rejections are the starter's to handle; a tracked promise
 * that rejects still counts as settled.
 */
export interface Pending {
  track<T>(work: Promise<T>): Promise<T>;
  size(): number;
  /** Resolves when nothing is in flight (work started meanwhile is waited for too); true when it waited. */
  settled(): Promise<boolean>;
}

export const createPending = (): Pending => {
  const inFlight = new Set<Promise<unknown>>();
  return {
    track(work) {
      const entry = work.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(entry);
      void entry.then(() => inFlight.delete(entry));
      return work;
    },
    size: () => inFlight.size,
    async settled() {
      let waited = false;
      while (inFlight.size > 0) {
        waited = true;
        await Promise.all(inFlight);
      }
      return waited;
    },
  };
};

/**
 * Resolves when a round finds every part quiet (each `settled()` says whether it waited): one part's
 * work may start another's (a sample → an alarm → a notice → its log row).
 */
export const settledAll = async (parts: Array<() => Promise<boolean>>) => {
  for (;;) {
    let busy = false;
    for (const part of parts) busy = (await part()) || busy;
    if (!busy) return;
  }
};

/**
 * The given timers with each callback's promise tracked in `pending`: what a timer starts is work
 * `settled()` waits for, whichever clock runs it.
 */
export const trackedTimers = (timers: Timers, pending: Pending): Timers => {
  const wrap = (run: () => unknown) => () => {
    const result = run();
    if (result instanceof Promise) void pending.track(result).catch(() => undefined);
  };
  return {
    ...timers,
    setTimeout: (run, ms) => timers.setTimeout(wrap(run), ms),
    setInterval: (run, ms) => timers.setInterval(wrap(run), ms),
  };
};
