import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';

interface LiveRow {
  value: number | null;
  state: number;
  last_check: number;
  info: string;
}

/** Item rows written per statement (500 × 5 parameters): each statement holds the thread ~10–20 ms. */
const persistBatch = 500;

/**
 * Writes the changed items' values and states: one statement per 500 rows, each its own
 * transaction, yielding to the event loop between them, so 100 000 items never hold the server
 * (a row-by-row transaction stalled /readyz 1.7 s every 5 s, issue 18). A failed batch is kept
 * for the next write.
 */
export const createItemRowWriter = (
  db: Db,
  liveItems: Map<number, LiveRow>,
  dirtyItems: Set<number>,
  log?: { warn(obj: object, msg: string): void },
) => {
  let persisting: Promise<void> | null = null;
  const pg = db.dialect === 'postgres';
  const writeRows = async (ids: number[]) => {
    const rows = [];
    for (const id of ids) {
      const s = liveItems.get(id);
      if (!s) continue;
      // PostgreSQL types a VALUES list from its parameters: each is cast to its column's type.
      rows.push(
        pg
          ? sql`(cast(${id} as integer), cast(${s.value} as double precision), cast(${s.state} as integer), cast(${s.last_check} as bigint), cast(${s.info} as varchar))`
          : sql`(${id}, ${s.value}, ${s.state}, ${s.last_check}, ${s.info})`,
      );
    }
    if (rows.length === 0) return;
    await sql`update items set value = v.column2, state = v.column3, last_check = v.column4, info = v.column5 from (values ${sql.join(rows)}) as v where items.id = v.column1`.execute(
      db.kysely,
    );
  };
  return async () => {
    while (persisting) await persisting;
    if (dirtyItems.size === 0) return;
    const ids = [...dirtyItems].filter((id) => liveItems.has(id));
    dirtyItems.clear();
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
