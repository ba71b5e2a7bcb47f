import type { BusEvent, BusEventName } from '@sitewatch/contract/events';

export type BusHandler<N extends BusEventName> = (event: BusEvent<N>) => void;

/**
 * The typed in-process event bus: the one seam between engines and areas (docs/architecture.md,
 * "The spine"). Delivery is synchronous, in subscription order, so a sample reaches the alarm engine
 * before `publish` returns and nothing queues up behind a slow consumer; a handler that needs I/O
 * starts it and returns. A handler that throws is logged and the others still run.
 */
export interface EventBus {
  publish<N extends BusEventName>(name: N, event: BusEvent<N>): void;
  /** Returns the function that unsubscribes. */
  subscribe<N extends BusEventName>(name: N, handler: BusHandler<N>): () => void;
}

export const createEventBus = (log?: { warn(obj: object, msg: string): void }): EventBus => {
  const handlers = new Map<BusEventName, Array<(event: unknown) => void>>();
  return {
    publish(name, event) {
      const list = handlers.get(name);
      if (!list) return;
      for (const handler of list) {
        try {
          handler(event);
        } catch (err) {
          log?.warn({ err, event: name }, 'an event handler failed');
        }
      }
    },
    subscribe(name, handler) {
      const entry = handler as (event: unknown) => void;
      // Copy on write: a handler that unsubscribes during delivery does not disturb the loop.
      handlers.set(name, [...(handlers.get(name) ?? []), entry]);
      return () => {
        handlers.set(
          name,
          (handlers.get(name) ?? []).filter((h) => h !== entry),
        );
      };
    },
  };
};
