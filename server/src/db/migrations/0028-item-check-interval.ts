import { type Kysely, sql } from 'kysely';

/**
 * Item intervals are honoured from now on (docs/monitoring.md "Item intervals"). Until now every
 * item was read with its device whatever its `check_interval`, which new items got as 10 (the
 * old default) without anyone choosing it: those become 0, "at every poll of the device", so
 * nothing is read less often than before. Other values were chosen by someone and now take
 * effect, except on MQTT items, whose values come as they are published (0 too).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`update items set check_interval = 0
    where check_interval = 10 or source like ${'%"kind":"mqtt"%'}`.execute(db);
};

/** Back to the old default; the chosen intervals were never lost. */
export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`update items set check_interval = 10 where check_interval = 0`.execute(db);
};
