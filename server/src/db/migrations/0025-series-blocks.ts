import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-kit.ts';

/**
 * The series store's append-only flush blocks and its compaction progress (issue 18;
 * docs/series-store.md): a flush appends a few `sample_blocks` rows (item ids, times and values as
 * packed arrays, sorted by item then time), compaction folds them into `sample_chunks` and the
 * roll-ups. `claimed` marks the blocks of the run in progress; `series_compaction.next_item` is the
 * first item that run has not written yet (null: no run), advanced in each slice's transaction.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  const pg = isPostgres(db);
  await db.schema
    .createTable('sample_blocks')
    // AUTOINCREMENT: a sequence number is never reused after its block was compacted and deleted.
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('claimed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('item_lo', 'integer', (c) => c.notNull())
    .addColumn('item_hi', 'integer', (c) => c.notNull())
    .addColumn('t0', 'bigint', (c) => c.notNull())
    .addColumn('t1', 'bigint', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
  // A block lives a minute: PostgreSQL would try to compress its 1.3 MB of floats on every write.
  if (pg) await sql`alter table sample_blocks alter column data set storage external`.execute(db);
  await db.schema
    .createTable('series_compaction')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('next_item', 'bigint')
    .execute();
  await sql`insert into series_compaction (id, next_item) values (1, null)`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('series_compaction').execute();
  await db.schema.dropTable('sample_blocks').execute();
};
