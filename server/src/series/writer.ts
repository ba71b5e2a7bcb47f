import { Worker } from 'node:worker_threads';
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/kysely.ts';

/** One statement of a writer's transaction, compiled for the database's dialect. */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
  /** The transaction is rolled back (`ChangesMismatch`) when the statement changes another number of rows. */
  expectChanges?: number;
}

export interface SqlResult {
  changes: number;
  rows: Array<Record<string, unknown>>;
}

/** A compare-and-set statement found the row changed by someone else: nothing was written. */
export class ChangesMismatch extends Error {}

/**
 * Runs the series store's writes (and the collector's item rows) as whole transactions: on SQLite
 * in a worker thread with its own connection (writer-worker.mjs), so their statements and commits
 * (fsync) do not hold the main thread; elsewhere (PostgreSQL, whose I/O is already asynchronous;
 * an in-memory database) through the server's own connection.
 */
export interface SqlWriter {
  readonly thread: 'worker' | 'main';
  transaction(statements: SqlStatement[]): Promise<SqlResult[]>;
  close(): Promise<void>;
}

/** Through the server's connection: one Kysely transaction. */
export const inProcessWriter = (db: Db): SqlWriter => ({
  thread: 'main',
  transaction: (statements) =>
    db.kysely.transaction().execute(async (trx) => {
      const out: SqlResult[] = [];
      for (const s of statements) {
        const r = await trx.executeQuery(CompiledQuery.raw(s.sql, [...s.params]));
        const changes = Number(r.numAffectedRows ?? r.rows.length);
        if (s.expectChanges !== undefined && changes !== s.expectChanges) {
          throw new ChangesMismatch(`expected ${s.expectChanges} changed rows, got ${changes}`);
        }
        out.push({ changes, rows: r.rows as Array<Record<string, unknown>> });
      }
      return out;
    }),
  close: async () => undefined,
});

/** The SQLite file of the server's connection; null for PostgreSQL or an in-memory database. */
const sqliteFile = async (db: Db): Promise<string | null> => {
  if (db.dialect !== 'sqlite') return null;
  const r = await db.kysely.executeQuery<{ name: string; file: string }>(CompiledQuery.raw('pragma database_list'));
  const file = r.rows.find((row) => row.name === 'main')?.file;
  return file ? file : null;
};

type Answer =
  | { id: number; results: SqlResult[] }
  | { id: number; error: { message: string; code?: string; mismatch: boolean } };

/**
 * The worker's code: from source writer-worker.mjs (plain JavaScript, no loader needed); from the
 * build dist/series-writer.js beside dist/main.js (server/build.mjs).
 */
const workerUrl = () =>
  new URL(import.meta.url.endsWith('.ts') ? './writer-worker.mjs' : './series-writer.js', import.meta.url);

/** The writer thread's young generation (V8: three times a semi-space), MB. */
const writerYoungMb = 6;

/**
 * Starts the writer thread for a SQLite file; the server's connection otherwise, or when the
 * thread cannot start (logged). A thread that dies fails its transactions in flight (their
 * callers keep what they wrote for the next try) and the writes go on through the server's
 * connection.
 */
export const startSqlWriter = async (db: Db, log?: { warn(obj: object, msg: string): void }): Promise<SqlWriter> => {
  const file = await sqliteFile(db);
  if (!file) return inProcessWriter(db);
  const fallback = inProcessWriter(db);
  const pending = new Map<number, { resolve: (r: SqlResult[]) => void; reject: (err: unknown) => void }>();
  let nextId = 1;
  let alive = true;
  let worker: Worker;
  try {
    worker = new Worker(workerUrl(), {
      workerData: { file },
      // A young generation of 6 MB (2 MB semi-spaces) instead of the server's 8 MB semi-spaces: what
      // it gets (a transaction's statements and parameters) dies when the transaction is answered.
      // The old generation is not capped: a thread out of heap would fail every write in flight.
      resourceLimits: { maxYoungGenerationSizeMb: writerYoungMb },
    });
    await new Promise<void>((resolve, reject) => {
      worker.once('online', resolve);
      worker.once('error', reject);
    });
  } catch (err) {
    log?.warn({ err }, 'the series writer thread could not start; writing on the main thread');
    return fallback;
  }
  const failAll = (err: unknown) => {
    alive = false;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (m: Answer) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if ('results' in m) return p.resolve(m.results);
    const err = m.error.mismatch ? new ChangesMismatch(m.error.message) : new Error(m.error.message);
    if (m.error.code) Object.assign(err, { code: m.error.code });
    p.reject(err);
  });
  worker.on('error', (err) => {
    log?.warn({ err }, 'the series writer thread failed; writing on the main thread');
    failAll(err);
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      failAll(new Error('the series writer thread stopped'));
      resolve();
    }),
  );
  return {
    get thread() {
      return alive ? ('worker' as const) : ('main' as const);
    },
    transaction(statements) {
      if (!alive) return fallback.transaction(statements);
      const id = nextId++;
      return new Promise<SqlResult[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, statements });
      });
    },
    async close() {
      if (!alive) return;
      // Messages are taken in order: everything sent before is committed (or answered) first.
      worker.postMessage({ close: true });
      await exited;
    },
  };
};
