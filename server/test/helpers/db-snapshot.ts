import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/kysely.ts';

/**
 * Names of the application's tables: migration bookkeeping and the bus's outbox excluded (on
 * PostgreSQL every domain event is also written there, after its request has answered: an earlier
 * request's event may land between two digests; docs/scale.md).
 */
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
  return rows
    .map((r) => r.name)
    .filter((name) => name !== 'event_outbox')
    .sort();
};

/**
 * A digest of every row of every table (or of `only`, where they exist): equal digests mean nothing
 * was changed.
 */
export const snapshotDigest = async (db: Db, only?: string[]): Promise<string> => {
  const existing = await tableNames(db);
  const chosen = only ? existing.filter((table) => only.includes(table)) : existing;
  if (db.dialect === 'postgres') {
    // One round trip: an md5 of each table's rows, computed by the server.
    if (chosen.length === 0) return '';
    const parts = chosen.map(
      (table) =>
        sql`select ${table} as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${sql.table(table)} x`,
    );
    const { rows } = await sql<{ t: string; h: string }>`${sql.join(parts, sql` union all `)}`.execute(db.kysely);
    return rows.map((r) => `${r.t}:${r.h}`).join(',');
  }
  const hash = createHash('sha256');
  for (const table of chosen) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(db.kysely);
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    hash.update(`${table}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
};

/** Every row of `table` by its key (`id`, else the settings key `k`, else the whole row), as JSON. */
export const rowsByKey = async (
  db: Db,
  table: string,
): Promise<Map<string, { row: Record<string, unknown>; json: string }>> => {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
  const out = new Map<string, { row: Record<string, unknown>; json: string }>();
  for (const row of rows) {
    const json = JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    out.set(String(row.id ?? row.k ?? json), { row, json });
  }
  return out;
};
