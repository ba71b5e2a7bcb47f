import type { Kysely } from 'kysely';
import { withId } from '../migration-kit.ts';

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('global_config'))
    .addColumn('k', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('v', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('global_config').execute();
};
