import type { Kysely } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Personal API tokens (docs/api.md, "API tokens"): a named, expiring credential a user makes for a
 * script. Only the SHA-256 digest of the secret is kept; `prefix` is the public part of the token
 * that finds the row (the digest is then compared in constant time) and names it in the list.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('api_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('last_used_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('api_tokens').execute();
};
