import { describe, expect, it } from 'vitest';
import { createManualClock } from './manual.ts';
import { createPending, delay, trackedTimers } from './timers.ts';

describe('manual clock', () => {
  it('runs the timers due in time order, each at its own time, and those they schedule', async () => {
    const clock = createManualClock(1_000);
    const ran: string[] = [];
    const at = (name: string) => () => ran.push(`${name}@${clock.now()}`);
    clock.timers.setTimeout(at('b'), 300);
    clock.timers.setTimeout(at('a'), 100);
    clock.timers.setInterval(at('tick'), 250);
    clock.timers.setTimeout(() => {
      at('c')();
      clock.timers.setTimeout(at('c+50'), 50);
    }, 400);
    await clock.advance(500);
    expect(ran).toEqual(['a@1100', 'tick@1250', 'b@1300', 'c@1400', 'c+50@1450', 'tick@1500']);
    expect(clock.now()).toBe(1_500);
    ran.length = 0;
    await clock.advance(249);
    expect(ran).toEqual([]);
    await clock.advance(1);
    expect(ran).toEqual(['tick@1750']);
  });

  it('forgets cleared timers, and runs equal times in the order they were set', async () => {
    const clock = createManualClock(0);
    const ran: string[] = [];
    const first = clock.timers.setTimeout(() => ran.push('first'), 10);
    clock.timers.setTimeout(() => ran.push('second'), 10);
    clock.timers.setTimeout(() => ran.push('third'), 10);
    const every = clock.timers.setInterval(() => ran.push('every'), 5);
    clock.timers.clearTimeout(first);
    clock.timers.clearInterval(every);
    expect(clock.pending()).toBe(2);
    await clock.advance(10);
    expect(ran).toEqual(['second', 'third']);
    expect(clock.pending()).toBe(0);
  });

  it('lets what a timer started finish before the next one runs (a retry after a failed send)', async () => {
    const clock = createManualClock(0);
    const attempts: number[] = [];
    const send = async () => {
      attempts.push(clock.now());
      await Promise.resolve();
      if (attempts.length < 3) {
        await delay(clock.timers, 1_000 * attempts.length);
        return send();
      }
    };
    clock.timers.setTimeout(send, 100);
    await clock.advance(10_000);
    // 100, then 1 s and 2 s of back-off after each failure.
    expect(attempts).toEqual([100, 1_100, 3_100]);
  });

  it('settles with what it is told after each timer (the app built on it)', async () => {
    const clock = createManualClock(0);
    const pending = createPending();
    const timers = trackedTimers(clock.timers, pending);
    const log: string[] = [];
    let release: (() => void) | null = null;
    timers.setTimeout(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            log.push('written');
            resolve();
          };
        }),
      10,
    );
    timers.setTimeout(() => log.push('next'), 20);
    clock.settleWith(async () => {
      // What the app's settled() does for a write in flight: it ends, and is waited for.
      release?.();
      release = null;
      await pending.settled();
    });
    await clock.advance(20);
    expect(log).toEqual(['written', 'next']);
  });

  it('two clocks do not run each other’s timers', async () => {
    const one = createManualClock(0);
    const two = createManualClock(0);
    const ran: string[] = [];
    one.timers.setInterval(() => ran.push('one'), 10);
    two.timers.setInterval(() => ran.push('two'), 10);
    await one.advance(30);
    expect(ran).toEqual(['one', 'one', 'one']);
    expect(two.now()).toBe(0);
  });
});

describe('pending work', () => {
  it('waits for work started while it waits, and says whether it waited', async () => {
    const pending = createPending();
    expect(await pending.settled()).toBe(false);
    const order: string[] = [];
    void pending.track(
      Promise.resolve().then(() => {
        order.push('first');
        void pending.track(Promise.reject(new Error('refused')).catch(() => order.push('second')));
      }),
    );
    expect(await pending.settled()).toBe(true);
    expect(order).toEqual(['first', 'second']);
    expect(pending.size()).toBe(0);
  });
});

describe('manual clock, wall time', () => {
  it('jumps the wall clock without running timers, which keep their delays', async () => {
    const clock = createManualClock(10_000);
    const ran: number[] = [];
    clock.timers.setTimeout(() => ran.push(clock.now()), 1_000);
    clock.jump(50_000);
    expect(clock.now()).toBe(50_000);
    expect(clock.timers.monotonic()).toBe(0);
    await clock.advance(999);
    expect(ran).toEqual([]);
    await clock.advance(1);
    expect(ran).toEqual([51_000]);
    await clock.advanceTo(60_000);
    expect(clock.now()).toBe(60_000);
  });
});
