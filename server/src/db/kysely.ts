import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type PgModule from 'pg';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Checks that the database answers (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** `postgres://…` selects PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside `dataDir`. */
  fileName?: string;
}

/**
 * pg, loaded when a PostgreSQL database is opened: a server on SQLite never needs it (issue 18,
 * memory). Synchronously (openDb is), by Node's require: pg is a CommonJS package.
 */
let pgModule: typeof PgModule | null = null;
const loadPg = (): typeof PgModule => {
  if (pgModule) return pgModule;
  const pg = createRequire(import.meta.url)('pg') as typeof PgModule;
  // pg returns BIGINT (int8) and NUMERIC as strings by default; our counts and epoch seconds fit
  // in a double, so read them as numbers to match SQLite.
  pg.types.setTypeParser(20, (v) => Number(v));
  pg.types.setTypeParser(1700, (v) => Number(v));
  pgModule = pg;
  return pg;
};

export const openDb = (options: DbOptions): Db => {
  if (options.databaseUrl?.startsWith('postgres')) {
    const pool = new (loadPg().Pool)({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server ends (a restart, an administrator's terminate) is reported here;
    // without a listener it would end the process. The pool opens a new one for the next query.
    pool.on('error', () => undefined);
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
      ping: async () => {
        await sql`select 1`.execute(kysely);
      },
      close: () => kysely.destroy(),
    };
  }
  // The data dir holds the database, the login key and the secrets key: only the owner reads it
  // (issue 11, finding 7: the files were 0644). Tightened on every start, also for an existing dir.
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(options.dataDir, 0o700);
  const file = path.join(options.dataDir, options.fileName ?? 'sitewatch.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // SQLite makes -wal and -shm with the database file's mode, so 0600 here covers all three.
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  // better-sqlite3 defaults WAL databases to NORMAL, which may roll back the last commits on a
  // power loss; acknowledged configuration, alarms and logs must survive it (DESIGN.md).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Prepared statements are kept by their SQL text and reused: Kysely prepares every query afresh,
  // and preparing the series store's 1 000-row inserts and upserts was 14% of a busy server's CPU
  // (issue 18). One connection and Kysely's connection lock: a statement never runs twice at once.
  const statements = new Map<string, SQLite.Statement>();
  const database = {
    close: () => sqlite.close(),
    prepare: (sqlText: string) => {
      // The series store's writer thread is a second connection (series/writer.ts): a transaction
      // that read before writing would fail at once (SQLITE_BUSY) if that thread committed in
      // between; taking the write lock at its start waits for it instead (busy_timeout).
      const text = sqlText === 'begin' ? 'begin immediate' : sqlText;
      let stmt = statements.get(text);
      if (stmt) {
        // Most recently used last: the oldest is the first to go.
        statements.delete(text);
      } else {
        stmt = sqlite.prepare(text);
        if (statements.size >= 500) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, stmt);
      return stmt;
    },
  };
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    kysely,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
    close: () => kysely.destroy(),
  };
};
