import { type Kysely, sql } from 'kysely';

/**
 * Point-fault alarms and alarm ids from the database (issue 28 Build 1, issue 27 Build 4;
 * docs/alarms.md):
 * - `items.fault_alarm`: whether an item that cannot be read raises its own alarm (1, the default).
 * - `id_blocks`: a counter per kind of record; a process reserves a block of ids with one atomic
 *   update (hi/lo), so several processes on one database never give the same alarm id. Seeded past
 *   the alarms already stored.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('items')
    .addColumn('fault_alarm', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('id_blocks')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('next_id', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into id_blocks (name, next_id) select 'alarms', coalesce(max(id), 0) + 1 from alarms`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('id_blocks').execute();
  await db.schema.alterTable('items').dropColumn('fault_alarm').execute();
};
