import type { ConfigArea } from '@sitewatch/contract/events';
import type { EventBus } from '../bus/bus.ts';

/**
 * How a repository announces its writes of rows that other parts of the server keep in memory
 * (`config.changed`, docs/architecture.md "Writes announce themselves"): a repository's write
 * functions note what they changed; outside a transaction the note is published at once (the
 * statement has committed), inside one it waits for the commit, so no consumer re-reads before the
 * rows are there, and a rolled-back transaction announces nothing.
 */
export interface Changes {
  /** `ids` of the topic's rows (devices for `devices`), or null for "re-read all of it". */
  note(topic: ConfigArea, ids: readonly number[] | null): void;
}

/** Publishes each note at once: for writes that are committed when the statement returns. */
export const announceAtOnce = (bus: Pick<EventBus, 'publish'> | undefined): Changes => ({
  note: (topic, ids) => bus?.publish('config.changed', { area: topic, ids: ids === null ? null : [...ids] }),
});

/** Gathers the notes of one transaction, merged per topic, to publish after its commit. */
export const gatherChanges = () => {
  const pending = new Map<ConfigArea, Set<number> | null>();
  return {
    note(topic: ConfigArea, ids: readonly number[] | null) {
      const known = pending.get(topic);
      if (ids === null || known === null) pending.set(topic, null);
      else pending.set(topic, new Set([...(known ?? []), ...ids]));
    },
    publish(bus: Pick<EventBus, 'publish'> | undefined) {
      for (const [topic, ids] of pending) bus?.publish('config.changed', { area: topic, ids: ids && [...ids] });
      pending.clear();
    },
  } satisfies Changes & { publish(bus: Pick<EventBus, 'publish'> | undefined): void };
};
