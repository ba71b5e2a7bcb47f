import type { ChangedIds } from '../changed-ids.ts';
import type { Db } from '../db/kysely.ts';
import type { SqlStatement, SqlWriter } from '../series/writer.ts';

interface LiveRow {
  value: number | null;
  state: number;
  last_check: number;
  info: string;
}

/** Item rows written per transaction (500 × 5 parameters): each holds the thread ~10–20 ms. */
const persistBatch = 500;
/** The row counts of one statement: a batch of 500 is one statement; a rest, a few. */
const rowCounts = [500, 100, 20, 5, 1];

const texts = new Map<string, string>();
/** The update of `rows` items' values and states, built once per dialect and row count. */
const updateText = (pg: boolean, rows: number): string => {
  const key = `${pg}:${rows}`;
  let text = texts.get(key);
  if (text) return text;
  let n = 0;
  const p = () => (pg ? `$${++n}` : '?');
  // PostgreSQL types a VALUES list from its parameters: each is cast to its column's type.
  const tuple = pg
    ? () =>
        `(cast(${p()} as integer), cast(${p()} as double precision), cast(${p()} as integer), cast(${p()} as bigint), cast(${p()} as varchar))`
    : () => `(${p()}, ${p()}, ${p()}, ${p()}, ${p()})`;
  const values = Array.from({ length: rows }, tuple).join(', ');
  text = `update items set value = v.column2, state = v.column3, last_check = v.column4, info = v.column5 from (values ${values}) as v where items.id = v.column1`;
  texts.set(key, text);
  return text;
};

/**
 * Writes the changed items' values and states: one statement per 500 rows, each its own
 * transaction, yielding to the event loop between them, so 100 000 items never hold the server
 * (a row-by-row transaction stalled /readyz 1.7 s every 5 s, issue 18). A failed batch is kept
 * for the next write.
 */
export const createItemRowWriter = (
  db: Db,
  /** The series store's writer while it runs (its thread on SQLite), else the server's connection. */
  writer: () => SqlWriter,
  liveItems: Map<number, LiveRow>,
  dirtyItems: ChangedIds,
  log?: { warn(obj: object, msg: string): void },
  /** Told of each row written, with the state written (the live slots' `saved`). */
  wroteState?: (itemId: number, state: number) => void,
) => {
  let persisting: Promise<void> | null = null;
  const pg = db.dialect === 'postgres';
  // Bound positionally into statements whose text is built once per row count (a few counts, so
  // SQLite's statement cache keeps them): a query tree of five nodes per row was ~2.5 M objects per
  // write of 100 000 items, promoted and dropped in the old generation (issue 18, memory).
  const writeRows = async (ids: number[]) => {
    const statements: SqlStatement[] = [];
    let params: unknown[] = [];
    let rows = 0;
    const close = () => {
      statements.push({ sql: updateText(pg, rows), params });
      params = [];
      rows = 0;
    };
    const states: number[] = [];
    let left = ids.reduce((n, id) => (liveItems.has(id) ? n + 1 : n), 0);
    let size = 0;
    for (const id of ids) {
      const s = liveItems.get(id);
      if (!s) continue;
      if (rows === 0) size = rowCounts.find((c) => c <= left)!;
      params.push(id, s.value, s.state, s.last_check, s.info);
      states.push(id, s.state);
      left--;
      if (++rows === size) close();
    }
    if (statements.length === 0) return;
    // On SQLite while the series store runs: its writer thread (series/writer.ts), off the main thread.
    await writer().transaction(statements);
    if (wroteState) for (let i = 0; i < states.length; i += 2) wroteState(states[i]!, states[i + 1]!);
  };
  return async () => {
    while (persisting) await persisting;
    if (dirtyItems.size === 0) return;
    const ids = dirtyItems.take().filter((id) => liveItems.has(id));
    persisting = (async () => {
      for (let i = 0; i < ids.length; i += persistBatch) {
        const part = ids.slice(i, i + persistBatch);
        try {
          await writeRows(part);
        } catch (err) {
          for (const id of part) dirtyItems.add(id);
          log?.warn({ err }, 'could not save item values');
        }
        if (i + persistBatch < ids.length) await new Promise((resolve) => setImmediate(resolve));
      }
    })().finally(() => {
      persisting = null;
    });
    await persisting;
  };
};
