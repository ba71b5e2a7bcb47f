import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/kysely.ts';

/** Names of the application's tables (migration bookkeeping excluded). */
const tableNames = async (db: Db): Promise<string[]> => {
  const query =
    db.dialect === 'sqlite'
      ? sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`
      : sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_%'`;
  const { rows } = await query.execute(db.kysely);
  return rows.map((r) => r.name).sort();
};

/** A digest of every row of every table: equal digests mean nothing was changed. */
export const snapshotDigest = async (db: Db): Promise<string> => {
  const hash = createHash('sha256');
  for (const table of await tableNames(db)) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(db.kysely);
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    hash.update(`${table}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
};
