import type { BusEvent, BusEventName } from '@sitewatch/contract/events';
import type { EventBus } from '../../src/bus/bus.ts';

/**
 * The next event `name` on the bus that `match` accepts. Subscribe before causing it; the test's
 * own timeout is the only bound (no deadline of its own, no polling).
 */
export const nextEvent = <N extends BusEventName>(
  bus: EventBus,
  name: N,
  match: (event: BusEvent<N>) => boolean = () => true,
): Promise<BusEvent<N>> =>
  new Promise((resolve) => {
    const unsubscribe = bus.subscribe(name, (event) => {
      if (!match(event)) return;
      unsubscribe();
      resolve(event);
    });
  });
