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
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

// The server's database, never a new one: a thread that starts late must not make the file again.
const sqlite = new SQLite(workerData.file, { fileMustExist: true });
// The same settings as the main connection (db/kysely.ts): a commit is durable when answered.
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = FULL');
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('busy_timeout = 5000');
// SQLite's own default page cache (2 MB), not better-sqlite3's 16 MB: the item rows of 100 000 items
// filled it within a write, ~20 MB of this thread's malloc arena kept for good (issue 18, memory
// per item). It buys little here: in WAL mode a connection drops its whole cache whenever another
// connection (the server's) has committed since its last read.
sqlite.pragma('cache_size = -2000');

// Statements kept by their text (the store's multi-row texts repeat every flush), least recently
// used out, while their texts add up to at most statementChars: a prepared statement costs ~29 bytes
// of this thread's memory per character of its text (a 1 000-row roll-up upsert ~0.6 MB), and the
// compaction's texts differ by row count, so 200 of them could hold ~100 MB. Preparing one again
// costs ~1 ms (issue 18, memory per item).
const statementChars = 131_072;
const statements = new Map();
let cachedChars = 0;
const prepare = (text) => {
  let stmt = statements.get(text);
  if (stmt) statements.delete(text);
  else {
    stmt = sqlite.prepare(text);
    cachedChars += text.length;
    while (statements.size > 0 && (statements.size >= 200 || cachedChars > statementChars)) {
      const oldest = statements.keys().next().value;
      statements.delete(oldest);
      cachedChars -= oldest.length;
    }
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

// SITEWATCH_MEMORY_LOG=<seconds>: this thread's own V8 heap on stderr, as the collector worker's.
const memoryLogS = Number(process.env.SITEWATCH_MEMORY_LOG ?? 0);
if (memoryLogS > 0)
  setInterval(() => {
    const h = getHeapStatistics();
    const mb = (n) => Math.round(n / 1e5) / 10;
    console.error(
      `series writer heap: used ${mb(h.used_heap_size)} MB, total ${mb(h.total_heap_size)} MB, physical ${mb(h.total_physical_size)} MB, external ${mb(h.external_memory)} MB; ${statements.size} statements kept (${cachedChars} characters)`,
    );
  }, memoryLogS * 1000).unref();
