// The series store's SQLite writer (docs/series-store.md, "The store's writer"): a worker thread
// with its own better-sqlite3 connection to the server's database file, so the store's block
// appends, compaction slices and roll-up upserts and the collector's item rows run on their own
// thread, not between the main thread's requests. Plain JavaScript: started from source it needs
// no TypeScript loader (the build bundles it as dist/series-writer.js).
//
// Messages: { id, statements: [{ sql, params, expectChanges? }] } → one immediate transaction;
// answers { id, results: [{ changes, rows }] } or { id, error: { message, code, mismatch } }.
// A statement whose changes differ from expectChanges (a compare-and-set that found another
// store's progress) rolls the whole transaction back. { close: true } closes and exits.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const sqlite = new SQLite(workerData.file);
// The same settings as the main connection (db/kysely.ts): a commit is durable when answered.
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = FULL');
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('busy_timeout = 5000');

// Statements kept by their text (the store's multi-row texts repeat every flush), least recently used out.
const statements = new Map();
const prepare = (text) => {
  let stmt = statements.get(text);
  if (stmt) statements.delete(text);
  else {
    stmt = sqlite.prepare(text);
    if (statements.size >= 200) statements.delete(statements.keys().next().value);
  }
  statements.set(text, stmt);
  return stmt;
};

class Mismatch extends Error {}

// A blob arrives as a Uint8Array (structured clone of a Buffer or Uint8Array); better-sqlite3 binds Buffers.
const bindable = (params) =>
  params.map((p) =>
    p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p,
  );

const run = sqlite.transaction((list) =>
  list.map(({ sql, params, expectChanges }) => {
    const stmt = prepare(sql);
    const args = bindable(params);
    if (stmt.reader) {
      const rows = stmt.all(args);
      return { changes: rows.length, rows };
    }
    const { changes } = stmt.run(args);
    if (expectChanges !== undefined && changes !== expectChanges) {
      throw new Mismatch(`expected ${expectChanges} changed rows, got ${changes}`);
    }
    return { changes, rows: [] };
  }),
);

parentPort.on('message', (m) => {
  if (m.close) {
    sqlite.close();
    parentPort.close();
    return;
  }
  try {
    // Immediate: takes the write lock first, waiting (busy_timeout) for the main connection's.
    parentPort.postMessage({ id: m.id, results: run.immediate(m.statements) });
  } catch (err) {
    parentPort.postMessage({
      id: m.id,
      error: { message: String(err?.message ?? err), code: err?.code, mismatch: err instanceof Mismatch },
    });
  }
});
