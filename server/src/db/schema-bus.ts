import type { Generated } from 'kysely';

/** The domain events' outbox (migration 0037-event-outbox, PostgreSQL only), joined into `Database` in schema.ts. */
export interface BusTables {
  event_outbox: EventOutboxTable;
}

/** One domain event as a process published it (server/src/bus/bridge.ts). */
export interface EventOutboxTable {
  /** In commit order: writers take the outbox's advisory lock before they number their rows. */
  id: Generated<number>;
  /** The publishing process (a random id per start): it skips its own rows when it reads them back. */
  origin: string;
  /** The event's number in its origin's queue (unique with `origin`: a retried batch is not written twice). */
  seq: number;
  /** The event's name (`alarm.raised`, `config.changed` …). */
  name: string;
  /** The event as JSON. */
  payload: string;
  at: Generated<Date>;
}
