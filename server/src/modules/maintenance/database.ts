import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';
import { backupError } from './errors.ts';
import { checkedInserts } from './pg-script.ts';

const run = promisify(execFile);

/** Debian's PostgreSQL client tools (the server's major), else whatever is on PATH. */
const pgTool = (name: 'pg_dump' | 'pg_restore') => {
  for (const dir of [process.env.SITEWATCH_PG_BIN, '/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin'])
    if (dir && existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  return name;
};

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The newest applied migration: a package restores only into the schema it was made from. */
export const migrationOf = async (db: Db): Promise<string> => {
  const row = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
    db.kysely,
  );
  return row.rows[0]?.name ?? '';
};

/**
 * A consistent snapshot of `tables` written to the file `to` (the caller removes it). SQLite:
 * `VACUUM INTO` on the server's own (writer) connection, then the other tables emptied in the copy;
 * PostgreSQL: `pg_dump -Fc --data-only` of those tables (one snapshot by pg_dump's own transaction).
 */
export const snapshot = async (db: Db, tables: readonly string[], to: string): Promise<void> => {
  rmSync(to, { force: true });
  if (db.dialect === 'sqlite') {
    await sql`vacuum into ${to}`.execute(db.kysely);
    const copy = new SQLite(to);
    try {
      const keep = new Set([...tables, 'kysely_migration', 'kysely_migration_lock']);
      const all = copy
        .prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`)
        .all() as { name: string }[];
      copy.pragma('foreign_keys = OFF');
      for (const { name } of all) if (!keep.has(name)) copy.exec(`delete from ${quote(name)}`);
      copy.exec('vacuum');
    } finally {
      copy.close();
    }
    return;
  }
  if (!db.url) throw new Error('the PostgreSQL connection string is unknown');
  const args = ['--format=custom', '--data-only', '--no-owner', '--no-privileges', '--rows-per-insert=500'];
  for (const t of tables) args.push(`--table=public.${t}`);
  await run(pgTool('pg_dump'), [...args, `--file=${to}`, `--dbname=${db.url}`], { maxBuffer: 1 << 20 });
};

/** Checks a staged database part before anything changes: it opens, is whole, and holds the tables. */
export const checkPart = async (db: Db, file: string, tables: readonly string[], migration: string) => {
  if (db.dialect === 'sqlite') {
    let copy: SQLite.Database | undefined;
    try {
      copy = new SQLite(file, { readonly: true, fileMustExist: true });
      const ok = copy.pragma('integrity_check', { simple: true });
      if (ok !== 'ok') throw backupError('corrupt');
      const last = copy.prepare('select name from kysely_migration order by name desc limit 1').get() as
        | { name: string }
        | undefined;
      if (last?.name !== migration) throw backupError('version');
      const present = new Set(
        (copy.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map(
          (r) => r.name,
        ),
      );
      if (!tables.every((t) => present.has(t))) throw backupError('foreign');
    } catch (err) {
      if (err instanceof Error && err.name === 'SqliteError') throw backupError('corrupt');
      throw err;
    } finally {
      copy?.close();
    }
    return;
  }
  try {
    const { stdout } = await run(pgTool('pg_restore'), ['--list', file], { maxBuffer: 16 << 20 });
    const dumped = [...stdout.matchAll(/TABLE DATA public (\S+) /g)].map((m) => m[1]);
    if (!dumped.every((t) => tables.includes(t!))) throw backupError('foreign');
  } catch (err) {
    if (err instanceof Error && 'code' in err && typeof err.code === 'number') throw backupError('corrupt');
    throw err;
  }
};

/**
 * Replaces the rows of `tables` by the staged part's and empties `cleared`, in one transaction: a
 * crash leaves the old rows or the new ones, never a mix (docs/maintenance.md, "Restore").
 */
export const restoreRows = async (
  db: Db,
  file: string,
  tables: readonly string[],
  cleared: readonly string[],
  marker: { k: string; v: string; updated_at: number },
) => {
  if (db.dialect === 'sqlite') return restoreSqlite(db.kysely, file, tables, cleared, marker);
  if (!db.url) throw new Error('the PostgreSQL connection string is unknown');
  // Only the data of the replaced tables, as SQL text that is then checked statement by statement:
  // nothing of the package runs that is not a plain insert of literals (pg-script.ts).
  const { stdout: script } = await run(pgTool('pg_restore'), ['--data-only', '--file=-', file], {
    maxBuffer: 1 << 30,
  });
  const inserts = checkedInserts(script, tables);
  // A client of its own: the script sets session settings (search_path) that must not reach the pool.
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query('begin');
    const all = [...tables, ...cleared].map((t) => `public.${quote(t)}`);
    if (all.length) await client.query(`truncate ${all.join(', ')} cascade`);
    // The session as the checked text was read: standard strings, names qualified with public.
    await client.query(`set local standard_conforming_strings = on`);
    await client.query(`select pg_catalog.set_config('search_path', '', true)`);
    for (let i = 0; i < inserts.length; i += 20) await client.query(inserts.slice(i, i + 20).join(';\n'));
    await client.query(`select pg_catalog.set_config('search_path', 'public', true)`);
    // Identity counters past the restored ids (the dump's own values are those of its moment).
    const counters = await client.query<{ t: string; c: string }>(
      `select table_name as t, column_name as c from information_schema.columns
        where table_schema = 'public' and (is_identity = 'YES' or column_default like 'nextval(%')`,
    );
    for (const { t, c } of counters.rows.filter((r) => tables.includes(r.t))) {
      await client.query(
        `select setval(pg_get_serial_sequence($1, $2), coalesce(max(${quote(c)}), 0) + 1, false) from public.${quote(t)}`,
        [`public.${quote(t)}`, c],
      );
    }
    await client.query(markerSql, [marker.k, marker.v, marker.updated_at]);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
};

/** The files still to swap, written in the rows' own transaction (docs/maintenance.md, "Restore"). */
const markerSql =
  'insert into module_settings (k, v, updated_at) values ($1, $2, $3) on conflict (k) do update set v = excluded.v';

const restoreSqlite = async (
  kysely: Kysely<Database>,
  file: string,
  tables: readonly string[],
  cleared: readonly string[],
  marker: { k: string; v: string; updated_at: number },
) => {
  await sql`attach database ${file} as pkg`.execute(kysely);
  try {
    await kysely.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      // Every table emptied first: a delete cascades (ON DELETE CASCADE) into rows already restored.
      for (const t of [...cleared, ...tables]) await sql.raw(`delete from main.${quote(t)}`).execute(trx);
      for (const t of tables) {
        const info = await sql.raw<{ name: string }>(`pragma main.table_info(${quote(t)})`).execute(trx);
        const columns = info.rows.map((c) => quote(c.name)).join(', ');
        await sql.raw(`insert into main.${quote(t)} (${columns}) select ${columns} from pkg.${quote(t)}`).execute(trx);
      }
      await trx
        .insertInto('module_settings')
        .values(marker)
        .onConflict((oc) => oc.column('k').doUpdateSet({ v: marker.v }))
        .execute();
    });
  } finally {
    await sql`detach database pkg`.execute(kysely);
  }
};
