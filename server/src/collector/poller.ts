import { realTimers, type Timer, type Timers } from '../clock/timers.ts';
import type { PolledDevice, PolledItem } from './devices.ts';
import { type DriverRegistry, type DriverSession, errorText, type ReadResult, withTimeout } from './driver.ts';

/**
 * What a device's loop tells the collector, each call naming the install (`gen`) it belongs to, so
 * that an answer still in flight after a device was reloaded is recognised as stale.
 */
export interface PollerEvents {
  /**
   * A poll's answer, or (pushed) a message a push session was told. `read`: the items a poll asked
   * for when it was not all of them (items with an interval of their own that were not due).
   */
  answer(
    deviceId: number,
    gen: number,
    result: ReadResult,
    tsMs: number,
    pushed: boolean,
    read: PolledItem[] | null,
  ): void;
  /** A poll of a device with no items. */
  empty(deviceId: number, gen: number): void;
  /** A session that pushes answered a poll (its values come as messages); `recovered`: after failures. */
  alive(deviceId: number, gen: number, recovered: boolean): void;
  /** A connection was opened (maximum ages count from no earlier). */
  opened(deviceId: number, gen: number, sinceMs: number, pushes: boolean): void;
  /** A poll failed: the device did not answer (its session is closed; `failures` in a row). */
  failed(deviceId: number, gen: number, reason: string, tsMs: number, failures: number): void;
}

/** The device loops, on the main thread or in the collector worker (worker.ts). */
export interface Poller {
  /** Starts polling a device (its first poll at a random point of its first interval). */
  install(device: PolledDevice, gen: number): void;
  /** Stops a device's loop and closes its session. */
  remove(deviceId: number): Promise<void>;
  /** Writes a setpoint or command through the device's session. */
  write(deviceId: number, itemId: number, value: number): Promise<void>;
  /** Stops every loop. */
  stop(): Promise<void>;
}

interface Loop {
  device: PolledDevice;
  gen: number;
  session: DriverSession | null;
  /** The session was opened by this poll: it reads every item (a first poll, or after an outage). */
  fresh: boolean;
  timer: Timer | null;
  failures: number;
  stopped: boolean;
  running: Promise<void> | null;
  /** When the loop's next poll is due (ms, `timers.monotonic()`: a change of the system time moves no poll). */
  due: number;
  /** When each item with an interval of its own longer than its device's is next read (ms, `timers.monotonic()`). */
  itemDue: Map<number, number>;
}

export interface PollerOptions {
  drivers: DriverRegistry;
  events: PollerEvents;
  now?: () => number;
  /** Poll timing (the worker thread's loops keep the real ones); tests drive a manual clock's. */
  timers?: Timers;
  /** Longest wait between retries of a device that does not answer (ms); one interval + 10 s at most anyway. */
  maxBackoffMs?: number;
  /**
   * Before each poll: a promise to wait for (the worker's main thread is behind with earlier
   * answers), or null to poll now. A poll that waited counts the wait in its interval.
   */
  gate?: () => Promise<void> | null;
}

/**
 * One independent loop per device polls it on its check interval through its driver. A device
 * that does not answer is retried with a growing delay; a slow or dead device never delays
 * another (each loop awaits only its own I/O).
 */
export const createPoller = (options: PollerOptions): Poller => {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? realTimers;
  const { events } = options;
  const loops = new Map<number, Loop>();
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  /** What a retry may wait beyond one interval (issue 13: back within 2 intervals + 10 s). */
  const recoverySlackMs = 10_000;

  const closeSession = async (loop: Loop) => {
    const s = loop.session;
    loop.session = null;
    if (s) await s.close().catch(() => undefined);
  };

  const openSession = async (loop: Loop): Promise<DriverSession> => {
    if (loop.session) return loop.session;
    const driver = options.drivers[loop.device.driver];
    if (!driver) throw new Error(`driver ${loop.device.driver} is not available`);
    const timeout = loop.device.options.timeout_ms;
    // A session that is told values (MQTT) hands each message on as it comes, while this loop is
    // the device's current one.
    const connecting = driver.connect(loop.device, {
      onValues: (result, tsMs) => {
        if (!loop.stopped && loops.get(loop.device.id) === loop)
          events.answer(loop.device.id, loop.gen, result, tsMs, true, null);
      },
    });
    const session = await withTimeout(connecting, timeout, `no answer within ${timeout} ms`).catch((err) => {
      // A connection that completes after the timeout is closed rather than leaked.
      void connecting.then((s) => s.close()).catch(() => undefined);
      throw err;
    });
    if (loop.stopped) {
      await session.close().catch(() => undefined);
      throw new Error('stopped');
    }
    loop.session = session;
    loop.fresh = true;
    events.opened(loop.device.id, loop.gen, now(), session.pushes === true);
    return session;
  };

  const intervalMs = (device: PolledDevice) => Math.max(1, device.check_interval || 10) * 1000;

  /**
   * The items this poll reads (docs/monitoring.md "Item intervals"): every item on a fresh
   * session; otherwise an item with an interval of its own longer than its device's only when that
   * interval has run since it was last read, counted on the polls' due times, so a 20 s item on a
   * 5 s device is read at every fourth poll (and a 12 s one at every third: at the first poll
   * after its interval). A session that pushes gets every item (its subscriptions).
   */
  const dueItems = (loop: Loop, session: DriverSession): PolledItem[] => {
    const { items } = loop.device;
    const deviceMs = intervalMs(loop.device);
    if (session.pushes || !items.some((i) => i.check_interval * 1000 > deviceMs)) return items;
    const fresh = loop.fresh;
    const due: PolledItem[] = [];
    for (const item of items) {
      const ownMs = item.check_interval * 1000;
      if (ownMs > deviceMs) {
        const next = loop.itemDue.get(item.id);
        // A millisecond's slack: due times are sums of fractional milliseconds.
        if (!fresh && next !== undefined && next > loop.due + 1) continue;
        loop.itemDue.set(item.id, loop.due + ownMs);
      }
      due.push(item);
    }
    return due;
  };

  const pollOnce = async (loop: Loop) => {
    const { device } = loop;
    if (device.items.length === 0) {
      events.empty(device.id, loop.gen);
      return;
    }
    try {
      const session = await openSession(loop);
      const items = dueItems(loop, session);
      loop.fresh = false;
      // Nothing due (every item has a longer interval of its own): no read, nothing to say.
      if (items.length === 0) return;
      const timeout = device.options.timeout_ms;
      const result = await withTimeout(session.read(items), timeout, `no answer within ${timeout} ms`);
      if (loop.stopped) return;
      const recovered = loop.failures > 0;
      loop.failures = 0;
      const partial = items.length < device.items.length ? items : null;
      if (!session.pushes) events.answer(device.id, loop.gen, result, now(), false, partial);
      else events.alive(device.id, loop.gen, recovered);
    } catch (err) {
      if (loop.stopped) return;
      loop.failures += 1;
      await closeSession(loop);
      events.failed(device.id, loop.gen, errorText(err), now(), loop.failures);
    }
  };

  /** Sets the loop's next poll for `due` (ms, `timers.monotonic()`). */
  const schedule = (loop: Loop, due: number) => {
    if (loop.stopped) return;
    loop.due = due;
    loop.timer = timers.setTimeout(
      () => {
        loop.timer = null;
        const due = loop.due;
        const wait = options.gate?.();
        loop.running = (wait ? wait.then(() => (loop.stopped ? undefined : pollOnce(loop))) : pollOnce(loop)).finally(
          () => {
            loop.running = null;
            const base = intervalMs(loop.device);
            // Retries of a dead device back off: 1, 2, 4 … intervals, but never more than one interval
            // + 10 s (nor maxBackoffMs), whatever the outage length: a device whose peer returns is
            // polled again within that and seen within 2 intervals + 10 s (docs/monitoring.md).
            const factor = loop.failures > 1 ? 2 ** Math.min(loop.failures - 1, 6) : 1;
            const cap = Math.min(maxBackoffMs, base + recoverySlackMs);
            const wait = Math.max(base, Math.min(base * factor, cap));
            // Counted from when this poll was due, not from when its timer fired: a timer's lateness
            // does not add up, so a device read every second is read 60 times a minute. A poll that
            // ran past its next one starts the count afresh (no burst to catch up).
            schedule(loop, Math.max(timers.monotonic(), due + wait));
          },
        );
        return loop.running;
      },
      Math.max(0, due - timers.monotonic()),
    );
    loop.timer.unref();
  };

  const stopLoop = async (loop: Loop) => {
    loop.stopped = true;
    timers.clearTimeout(loop.timer);
    await loop.running?.catch(() => undefined);
    await closeSession(loop);
  };

  return {
    install(device, gen) {
      const loop: Loop = {
        device,
        gen,
        session: null,
        fresh: false,
        timer: null,
        failures: 0,
        stopped: false,
        running: null,
        due: 0,
        itemDue: new Map(),
      };
      loops.set(device.id, loop);
      // First polls are spread over one interval so that a restart does not burst.
      schedule(loop, timers.monotonic() + Math.floor(Math.random() * Math.min(intervalMs(device), 5000)));
    },
    async remove(deviceId) {
      const loop = loops.get(deviceId);
      if (!loop) return;
      loops.delete(deviceId);
      await stopLoop(loop);
    },
    async write(deviceId, itemId, value) {
      const loop = loops.get(deviceId);
      const item = loop?.device.items.find((i) => i.id === itemId);
      if (!loop || !item) throw new Error('item is not being collected');
      const session = await openSession(loop);
      const timeout = loop.device.options.timeout_ms;
      await withTimeout(session.write(item, value), timeout, `no answer within ${timeout} ms`);
    },
    async stop() {
      const all = [...loops.values()];
      loops.clear();
      await Promise.all(all.map(stopLoop));
    },
  };
};
