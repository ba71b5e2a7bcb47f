import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-kit.ts';

/**
 * The domain events' outbox (issue 35, step 0; server/src/bus/bridge.ts, docs/scale.md): on
 * PostgreSQL every domain event a process publishes is also a row here, numbered in commit order,
 * with the process that published it (`origin`), so the other processes on the database read what
 * they have not seen after a `NOTIFY` wakes them, and after a reconnect. Rows live a few minutes.
 * SQLite has one process: no table.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  if (!isPostgres(db)) return;
  await db.schema
    .createTable('event_outbox')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('origin', 'varchar(64)', (c) => c.notNull())
    // The event's number in its origin's queue: a batch written again after a commit whose answer
    // was lost inserts nothing twice.
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('event_outbox_at').on('event_outbox').column('at').execute();
  await db.schema
    .createIndex('event_outbox_origin_seq')
    .unique()
    .on('event_outbox')
    .columns(['origin', 'seq'])
    .execute();
};
