import type { Generated } from 'kysely';

/**
 * What several processes on one PostgreSQL share (PostgreSQL only), joined into `Database` in
 * schema.ts: the domain events' outbox (migration 0037-event-outbox) and the rate limits' counts
 * (0038-rate-limits).
 */
export interface BusTables {
  event_outbox: EventOutboxTable;
  rate_limits: RateLimitsTable;
}

/** One route's requests from one address in the current window (server/src/http/rate-store.ts). */
export interface RateLimitsTable {
  key: string;
  /** Epoch ms, by the database's clock. */
  window_start: number;
  hits: number;
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
