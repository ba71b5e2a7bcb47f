import type { Kysely } from 'kysely';

/**
 * The brute-force budget counts failures per address as well as per user name
 * (server/src/modules/auth/throttle.ts): an index so that count reads only that address's rows.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.createIndex('login_attempts_ip_time').on('login_attempts').columns(['ip', 'time']).execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('login_attempts_ip_time').execute();
};
