import { type BusEvent, type BusEventName, invalidationEvents } from '@sitewatch/contract/events';
import { createPending } from '../clock/timers.ts';

/**
 * A handler that starts I/O returns its promise: the bus counts it until it settles (`settled()`)
 * and logs its failure. Any other return value is ignored.
 */
export type BusHandler<N extends BusEventName> = (event: BusEvent<N>) => unknown;

/**
 * The typed in-process event bus: the one seam between engines and areas (docs/architecture.md,
 * "The spine"). Delivery is synchronous, in subscription order, so a sample reaches the alarm engine
 * before `publish` returns and nothing queues up behind a slow consumer; a handler that needs I/O
 * starts it and returns. A handler that throws is logged and the others still run.
 *
 * Samples travel two ways: `samples` (one answer of a device, the collector's) and `sample` (one
 * value: tests, benchmarks, anything that has one at a time). Each reaches the subscribers of both:
 * a `sample` is handed to `samples` consumers as a batch of one, a `samples` to `sample`
 * subscribers value by value (before its batch consumers, as if published one by one). So a
 * consumer subscribes to `samples` alone, and with none subscribed to `sample` a batch costs no
 * event per value.
 */
export interface EventBus {
  /** `remote`: another process published it (the bus bridge hands it on here; bridge.ts). */
  publish<N extends BusEventName>(name: N, event: BusEvent<N>, options?: { remote?: boolean }): void;
  /**
   * Returns the function that unsubscribes. `remote`: whether the handler also hears the events
   * other processes published; by default only the invalidation events (`invalidationEvents` of the
   * contract) reach it from them, so a handler that acts on an alarm or a state acts on its own.
   */
  subscribe<N extends BusEventName>(name: N, handler: BusHandler<N>, options?: { remote?: boolean }): () => void;
  /** Resolves when the promises handlers returned have settled; true when it waited (`Sitewatch.settled()`). */
  settled(): Promise<boolean>;
}

export const createEventBus = (log?: { warn(obj: object, msg: string): void }): EventBus => {
  const handlers = new Map<BusEventName, Array<{ handler: (event: unknown) => unknown; remote: boolean }>>();
  const pending = createPending();
  const deliver = (name: BusEventName, event: unknown, remote = false) => {
    const list = handlers.get(name);
    if (!list) return;
    for (const { handler, remote: hears } of list) {
      if (remote && !hears) continue;
      try {
        const started = handler(event);
        if (started instanceof Promise)
          void pending.track(started).catch((err) => log?.warn({ err, event: name }, 'an event handler failed'));
      } catch (err) {
        log?.warn({ err, event: name }, 'an event handler failed');
      }
    }
  };
  const one = { ids: new Float64Array(1), values: new Float64Array(1), from: 0, to: 1, ts_ms: 0 };
  let oneBusy = false;
  const bridge = (name: BusEventName, event: unknown) => {
    if (name === 'sample' && handlers.get('samples')?.length) {
      const e = event as BusEvent<'sample'>;
      // A fresh batch when the shared one is being delivered already (a consumer publishing a sample).
      const batch = oneBusy ? { ...one, ids: new Float64Array(1), values: new Float64Array(1) } : one;
      const owns = !oneBusy;
      oneBusy = true;
      batch.ids[0] = e.item_id;
      batch.values[0] = e.value ?? Number.NaN;
      batch.ts_ms = e.ts_ms;
      try {
        deliver('samples', batch);
      } finally {
        if (owns) oneBusy = false;
      }
    } else if (name === 'samples' && handlers.get('sample')?.length) {
      const { ids, values, from, to, ts_ms } = event as BusEvent<'samples'>;
      for (let i = from; i < to; i++) {
        const v = values[i]!;
        deliver('sample', { item_id: ids[i]!, value: Number.isNaN(v) ? null : v, ts_ms });
      }
    }
  };
  return {
    publish(name, event, options) {
      if (name === 'samples') bridge(name, event);
      deliver(name, event, options?.remote);
      if (name === 'sample') bridge(name, event);
    },
    subscribe(name, handler, options) {
      const remote = options?.remote ?? (invalidationEvents as readonly BusEventName[]).includes(name);
      const entry = { handler: handler as (event: unknown) => unknown, remote };
      // Copy on write: a handler that unsubscribes during delivery does not disturb the loop.
      handlers.set(name, [...(handlers.get(name) ?? []), entry]);
      return () => {
        handlers.set(
          name,
          (handlers.get(name) ?? []).filter((h) => h !== entry),
        );
      };
    },
    settled: () => pending.settled(),
  };
};
