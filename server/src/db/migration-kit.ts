import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/** Whether a migration runs on PostgreSQL (the only dialect difference migrations care about). */
export const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** An auto-numbered `id` primary key in either dialect. */
export const withId = <T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>) =>
  table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) =>
    isPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
  );
