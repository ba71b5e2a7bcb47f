import { type Kysely, sql } from 'kysely';

/**
 * Energy books what was measured (issue 28; docs/energy.md): a power meter's hours are integrated
 * over the time its readings cover instead of a whole hour at its mean, a counter's first partial
 * hour is booked, a reset keeps what the new counter counted, and events are stamped at their
 * reading. The stored energy was computed by the old rules: it is dropped, and the fill recomputes
 * every meter over its whole history from the roll-ups, as for a new meter.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['energy_fill', 'energy_events', 'energy_days', 'energy_hours'])
    await sql`delete from ${sql.table(table)}`.execute(db);
};
