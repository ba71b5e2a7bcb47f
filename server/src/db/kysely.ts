import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import type PgModule from 'pg';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the connection string (pg_dump and pg_restore of a backup use it). */
  url?: string;
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
export const loadPg = (): typeof PgModule => {
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
    // A connection ended while checked out (between the statements of a transaction) reports on
    // itself, where nobody listens: it would end the process too. Its next statement fails instead.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
      url: options.databaseUrl,
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
  // SQLite's default 2 MB page cache, not better-sqlite3's 16 MB: reads of 100 000 item rows filled
  // it (~6 MB of malloc heap kept; issue 18), and with the series writer thread committing every
  // flush, WAL drops this connection's whole cache at its next read anyway.
  sqlite.pragma('cache_size = -2000');
  // No synchronous busy wait on the server's thread: a statement that finds the database locked by
  // the series store's writer thread is retried after an asynchronous pause (WaitingSqliteDriver),
  // so the event loop goes on meanwhile (issue 18: /readyz stalls of ~0.5 s during flushes).
  sqlite.pragma('busy_timeout = 0');
  // Prepared statements are kept by their SQL text and reused: Kysely prepares every query afresh,
  // and preparing the series store's 1 000-row inserts and upserts was 14% of a busy server's CPU
  // (issue 18). One connection and Kysely's connection lock: a statement never runs twice at once.
  const statements = new Map<string, SQLite.Statement>();
  const statementChars = 262_144;
  let cachedChars = 0;
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
        cachedChars += text.length;
        // Bounded by their texts too: a prepared statement holds ~29 bytes per character of its SQL
        // (series/writer-worker.mjs), and texts that differ by a list's length (`in (?, ?, …)`) add up.
        while (statements.size > 0 && (statements.size >= 500 || cachedChars > statementChars)) {
          const oldest = statements.keys().next().value!;
          statements.delete(oldest);
          cachedChars -= oldest.length;
        }
      }
      statements.set(text, stmt);
      return stmt;
    },
  };
  const kysely = new Kysely<Database>({ dialect: new WaitingSqliteDialect({ database }, () => sqlite.inTransaction) });
  return {
    kysely,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
    close: () => kysely.destroy(),
  };
};

/** How long a statement waits in all for a database locked by another connection, as busy_timeout did. */
const lockedWaitMs = 5000;

/** SqliteDialect whose statements wait for a locked database without blocking the event loop. */
class WaitingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #inTransaction: () => boolean;
  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.#config = config;
    this.#inTransaction = inTransaction;
  }
  override createDriver(): Driver {
    return new WaitingSqliteDriver(this.#config, this.#inTransaction);
  }
}

/**
 * A statement refused with SQLITE_BUSY outside a transaction (a `begin immediate`, or a statement on
 * its own) changed nothing, so it is run again after a pause of 1, 2, 4 then 8 ms, for up to
 * lockedWaitMs; only then is the error thrown. Inside a transaction (which holds the write lock from
 * its `begin immediate`) an error is thrown at once, as before.
 */
class WaitingSqliteDriver extends SqliteDriver {
  readonly #inTransaction: () => boolean;
  constructor(config: SqliteDialectConfig, inTransaction: () => boolean) {
    super(config);
    this.#inTransaction = inTransaction;
  }
  #waiting: DatabaseConnection | undefined;
  /**
   * Who waits for the one connection, first come first served. Kysely's own lock wakes every
   * waiter at each release and all but one wait again: a burst of 6 000 queries (an alarm storm's
   * lookups) spent seconds of the main thread in those wake-ups. Behind this queue its lock is
   * always free when taken.
   */
  #queue: Array<() => void> = [];
  #held = false;
  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) await new Promise<void>((resolve) => this.#queue.push(resolve));
    else this.#held = true;
    const connection = await super.acquireConnection();
    const inTransaction = this.#inTransaction;
    // SQLite has one connection: it is wrapped once.
    this.#waiting ??= {
      async executeQuery(query) {
        const started = performance.now();
        for (let pause = 1; ; pause = Math.min(pause * 2, 8)) {
          try {
            return await connection.executeQuery(query);
          } catch (error) {
            const code = (error as { code?: unknown }).code;
            const busy = typeof code === 'string' && code.startsWith('SQLITE_BUSY');
            if (!busy || inTransaction() || performance.now() - started > lockedWaitMs) throw error;
            await new Promise((resolve) => setTimeout(resolve, pause));
          }
        }
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.#waiting;
  }
  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    // Handed to the next in line: the connection stays held.
    const next = this.#queue.shift();
    if (next) next();
    else this.#held = false;
  }
}
