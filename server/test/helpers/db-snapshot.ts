import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/kysely.ts';

/**
 * Names of the application's tables: migration bookkeeping, the bus's outbox and the rate limits'
 * counts excluded (on PostgreSQL every domain event is also written there, after its request has
 * answered: an earlier request's event may land between two digests; and every request to a limited
 * route counts, refused or not; docs/scale.md).
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
    .filter((name) => name !== 'event_outbox' && name !== 'rate_limits')
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

/**
 * Rows written to the application's tables from now on, counted by triggers on each (in the test's
 * own database): one read where a digest of every table takes tens of milliseconds. Stricter than a
 * digest: a row written back as it was counts too; a transaction rolled back counts nothing.
 */
export const countWrites = async (db: Db): Promise<() => Promise<number>> => {
  const k = db.kysely;
  const tables = await tableNames(db);
  await sql`create table test_write_count (n integer not null)`.execute(k);
  await sql`insert into test_write_count (n) values (0)`.execute(k);
  if (db.dialect === 'sqlite') {
    for (const table of tables)
      for (const op of ['insert', 'update', 'delete'])
        await sql
          .raw(`create trigger "test_count_${op}_${table}" after ${op} on "${table}"
            begin update test_write_count set n = n + 1; end`)
          .execute(k);
  } else {
    await sql`create function test_count_write() returns trigger language plpgsql as $$
      begin update test_write_count set n = n + 1; return null; end $$`.execute(k);
    for (const table of tables) {
      await sql
        .raw(`create trigger test_count_rows after insert or update or delete on "${table}"
          for each row execute function test_count_write()`)
        .execute(k);
      await sql
        .raw(`create trigger test_count_truncate after truncate on "${table}"
          for each statement execute function test_count_write()`)
        .execute(k);
    }
  }
  return async () => {
    const { rows } = await sql<{ n: number }>`select n from test_write_count`.execute(k);
    return Number(rows[0]?.n);
  };
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
