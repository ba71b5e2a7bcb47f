import { type Kysely, sql } from 'kysely';

/**
 * A maximum age per item (issue 13, Build 3; docs/monitoring.md "Maximum age"): seconds a value may
 * go without being refreshed before the item is unknown, 0 for none. MQTT items get 300 s (a
 * silent publisher has stopped); polled items keep 0, as before.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('items')
    .addColumn('max_age', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The source is JSON text written by JSON.stringify, so the kind reads the same on both databases.
  await sql`update items set max_age = 300 where source like '%"kind":"mqtt"%'`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('items').dropColumn('max_age').execute();
};
