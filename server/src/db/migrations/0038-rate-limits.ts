import type { Kysely } from 'kysely';
import { isPostgres } from '../migration-kit.ts';

/**
 * The routes' rate limits per address, counted in the database (issue 35, step 1: no state only one
 * process knows; server/src/http/rate-store.ts): several servers on one PostgreSQL behind a load
 * balancer share one count, where each process counted alone. SQLite has one process: no table.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  if (!isPostgres(db)) return;
  await db.schema
    .createTable('rate_limits')
    // The route and the address (`POST/api/v1/pub/login-127.0.0.1`).
    .addColumn('key', 'varchar(400)', (c) => c.primaryKey())
    // Epoch milliseconds of the window's start, by the database's clock (one for every server).
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_start').on('rate_limits').column('window_start').execute();
};
