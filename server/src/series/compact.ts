import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { Database } from '../db/schema.ts';
import type { OpenBlock, OpenBlocks } from './blocks.ts';
import { decodeBlock, encodeChunks, lowerBound, type RollupBucket } from './codec.ts';
import { ChangesMismatch, inProcessWriter, type SqlStatement, type SqlWriter } from './writer.ts';

export interface CompactorOptions {
  /** Items per compaction transaction (a chunk and its roll-ups each). */
  itemsPerSlice?: number;
  onDropped?: (drop: { itemId: number; samples: number; err: unknown }) => void;
  /** Awaited between slices: a flush under way goes first (it waits for one slice at most). */
  yieldTo?: () => Promise<unknown>;
  /** Where the slices' transactions run (the store's writer thread on SQLite; writer.ts). */
  writer?: () => SqlWriter;
}

export interface CompactionStats {
  blocks: number;
  samples: number;
  chunks: number;
  ms: number;
}

/** Another store finished this slice first (same database): this run stops, nothing is written twice. */
class LostRace extends Error {}

const insertBatch = 1000;

interface SliceItem {
  itemId: number;
  n: number;
  chunk: { item_id: number; t0: number; t1: number; n: number; data: Uint8Array };
  minutes: RollupBucket[];
  hours: RollupBucket[];
}

/** Roll-ups of one item's time-ordered samples [from, to) into buckets of `width` seconds. */
const rollup = (
  itemId: number,
  ts: Float64Array,
  values: Float64Array,
  from: number,
  to: number,
  width: number,
): RollupBucket[] => {
  const out: RollupBucket[] = [];
  let agg: RollupBucket | null = null;
  for (let i = from; i < to; i++) {
    const s = Math.floor(ts[i]! / 1000);
    const bucket = s - (s % width);
    const v = values[i]!;
    if (!agg || agg.ts !== bucket) {
      agg = { item_id: itemId, ts: bucket, min: v, max: v, sum: v, count: 1 };
      out.push(agg);
    } else {
      if (v < agg.min) agg.min = v;
      if (v > agg.max) agg.max = v;
      agg.sum += v;
      agg.count += 1;
    }
  }
  return out;
};

/** Puts samples [from, to) in time order (rare: a sample flushed after later ones of its item). */
const sortByTime = (ts: Float64Array, values: Float64Array, from: number, to: number) => {
  for (let i = from + 1; i < to; i++) {
    if (ts[i]! >= ts[i - 1]!) continue;
    const order = Array.from({ length: to - from }, (_, k) => from + k).sort((x, y) => ts[x]! - ts[y]! || x - y);
    const t2 = order.map((k) => ts[k]!);
    const v2 = order.map((k) => values[k]!);
    ts.set(t2, from);
    values.set(v2, from);
    return;
  }
};

/**
 * The statements that store a slice: its chunks, then its minute and hour roll-ups (folded into the
 * stored ones by upsert). Multi-row inserts compiled once per table and row count and bound
 * positionally: building a query tree per row value cost more CPU than the database's own work (and
 * SQLite's prepared statements are kept by their text, see openDb).
 */
const createSliceSql = (db: Db) => {
  const lesser = db.dialect === 'postgres' ? 'least' : 'min';
  const greater = db.dialect === 'postgres' ? 'greatest' : 'max';
  const texts = new Map<string, string>();
  const insertText = (table: string, columns: string[], rows: number, conflict: string) => {
    const key = `${table}:${rows}`;
    let text = texts.get(key);
    if (text) return text;
    let p = 0;
    const tuple = () => `(${columns.map(() => (db.dialect === 'postgres' ? `$${++p}` : '?')).join(', ')})`;
    const values = Array.from({ length: rows }, tuple).join(', ');
    text = `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values ${values}${conflict}`;
    texts.set(key, text);
    return text;
  };
  const rollupConflict = (table: string) =>
    ` on conflict ("item_id", "ts") do update set "min" = ${lesser}(${table}."min", excluded."min"), ` +
    `"max" = ${greater}(${table}."max", excluded."max"), "sum" = ${table}."sum" + excluded."sum", ` +
    `"count" = ${table}."count" + excluded."count"`;
  const rollupColumns = ['item_id', 'ts', 'min', 'max', 'sum', 'count'];

  const upsertRollups = (out: SqlStatement[], table: 'samples_1m' | 'samples_1h', rows: RollupBucket[]) => {
    for (let i = 0; i < rows.length; i += insertBatch) {
      const part = rows.slice(i, i + insertBatch);
      const params: unknown[] = [];
      for (const r of part) params.push(r.item_id, r.ts, r.min, r.max, r.sum, r.count);
      out.push({ sql: insertText(table, rollupColumns, part.length, rollupConflict(table)), params });
    }
  };

  return (items: SliceItem[]): SqlStatement[] => {
    const work: SqlStatement[] = [];
    const chunks = items.map((s) => s.chunk);
    for (let i = 0; i < chunks.length; i += insertBatch) {
      const part = chunks.slice(i, i + insertBatch);
      const params: unknown[] = [];
      for (const c of part) params.push(c.item_id, c.t0, c.t1, c.n, c.data);
      work.push({ sql: insertText('sample_chunks', ['item_id', 't0', 't1', 'n', 'data'], part.length, ''), params });
    }
    upsertRollups(
      work,
      'samples_1m',
      items.flatMap((s) => s.minutes),
    );
    upsertRollups(
      work,
      'samples_1h',
      items.flatMap((s) => s.hours),
    );
    return work;
  };
};

/**
 * The samples of a run's claimed blocks, item by item in id order from `resumeAt`, cut into slices
 * of `itemsPerSlice` items with each item's chunk and roll-ups.
 */
const createSliceGatherer = (blocks: OpenBlock[], resumeAt: number, itemsPerSlice: number) => {
  // Each block is ordered by item: a cursor per block, and the next item to compact is the smallest
  // id under the cursors. Merged as it goes, never listed and sorted up front (that sort, of one id
  // per item per block, blocked the event loop 270-350 ms per run at 120 000 values/s).
  const cursors = blocks.map((b) => lowerBound(b.ids, resumeAt));
  const nextItem = (): number | null => {
    let min = Number.POSITIVE_INFINITY;
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k]!;
      const i = cursors[k]!;
      if (i < b.n && b.ids[i]! < min) min = b.ids[i]!;
    }
    return min === Number.POSITIVE_INFINITY ? null : min;
  };
  // A slice's samples, item after item, in arrays kept across slices (they grow as needed): an
  // array pair and a buffer per item made the run a garbage collection storm at 120 000 values/s.
  let ts = new Float64Array(4096);
  let values = new Float64Array(4096);
  const grow = (need: number) => {
    const size = Math.max(need, ts.length * 2);
    const t2 = new Float64Array(size);
    const v2 = new Float64Array(size);
    t2.set(ts);
    v2.set(values);
    ts = t2;
    values = v2;
  };
  let itemId = nextItem();
  return {
    /** The next slice (null when every item is taken), and where the run's progress goes after it. */
    next(): { slice: SliceItem[]; samples: number; to: number } | null {
      if (itemId === null) return null;
      const ids: number[] = [];
      const bounds = [0];
      let n = 0;
      for (let taken = 0; itemId !== null && taken < itemsPerSlice; taken++, itemId = nextItem()) {
        const from = n;
        for (let k = 0; k < blocks.length; k++) {
          const b = blocks[k]!;
          let i = cursors[k]!;
          for (; i < b.n && b.ids[i] === itemId; i++, n++) {
            if (n === ts.length) grow(n + 1);
            ts[n] = b.ts[i]!;
            values[n] = b.values[i]!;
          }
          cursors[k] = i;
        }
        sortByTime(ts, values, from, n);
        ids.push(itemId);
        bounds.push(n);
      }
      const data = encodeChunks(ts, values, bounds);
      const slice: SliceItem[] = ids.map((id, k) => {
        const from = bounds[k]!;
        const to = bounds[k + 1]!;
        return {
          itemId: id,
          n: to - from,
          // The bounds in whole milliseconds (integer columns); the samples keep their own times.
          chunk: { item_id: id, t0: Math.floor(ts[from]!), t1: Math.ceil(ts[to - 1]!), n: to - from, data: data[k]! },
          minutes: rollup(id, ts, values, from, to, 60),
          hours: rollup(id, ts, values, from, to, 3600),
        };
      });
      // Up to the next item to compact, or past the last one.
      const to = itemId ?? slice[slice.length - 1]!.itemId + 1;
      return { slice, samples: n, to };
    },
  };
};

/**
 * Compaction: folds the flush blocks into the per-item `sample_chunks` (one row per item per run)
 * and the `samples_1m` / `samples_1h` roll-ups, then deletes the blocks.
 *
 * A run claims every block there is (`claimed = 1`) and walks their items in id order, one
 * transaction per slice of items; each slice advances the run's progress (`series_compaction.
 * next_item`) in the same transaction, by compare-and-set, so a crash repeats a slice and never
 * half of one, and two stores on one database never write a slice twice. The last transaction
 * deletes the claimed blocks. A slice the database refuses is split down to single items; an item
 * still refused (after a health check passes and one more try) has its samples dropped (counted,
 * reported) and the run goes on. When the database does not answer the run stops where it is and
 * the next one resumes it.
 */
export const createCompactor = (db: Db, open: OpenBlocks, options: CompactorOptions = {}) => {
  const kysely: Kysely<Database> = db.kysely;
  const itemsPerSlice = options.itemsPerSlice ?? 250;
  let dropped = 0;
  const writer = options.writer ?? (() => inProcessWriter(db));
  const sliceStatements = createSliceSql(db);

  /**
   * Runs `work` in one transaction of the writer that moves the run's progress from `from` to `to`
   * (null: the run is done), compare-and-set: another store's progress there is a lost race. Reads
   * wait out the commit and `committed`, which brings this store's state in line (`version` odd),
   * wherever the writer runs it.
   */
  const commitProgress = async (
    from: number,
    to: number | null,
    work: SqlStatement[],
    committed: () => void,
  ): Promise<void> => {
    const cas = kysely
      .updateTable('series_compaction')
      .set({ next_item: to })
      .where('id', '=', 1)
      .where('next_item', '=', from)
      .compile();
    open.state.version += 1;
    try {
      await writer()
        .transaction([{ sql: cas.sql, params: cas.parameters, expectChanges: 1 }, ...work])
        .catch((err: unknown) => {
          throw err instanceof ChangesMismatch ? new LostRace('another store moved this run on') : err;
        });
      committed();
    } finally {
      open.state.version += 1;
    }
  };
  const commit = (from: number, to: number, work: SqlStatement[]) =>
    commitProgress(from, to, work, () => {
      open.state.nextItem = to;
    });

  const writeSlice = (from: number, to: number, items: SliceItem[]) => commit(from, to, sliceStatements(items));

  /** Writes items[i..j) with the progress `from` → `to`, isolating what the database refuses. */
  const writeIsolating = async (items: SliceItem[], from: number, to: number): Promise<number> => {
    try {
      await writeSlice(from, to, items);
      return items.length;
    } catch (err) {
      if (err instanceof LostRace) throw err;
      if (items.length === 1) {
        // Throws when the database is down: the run stops here and the next one resumes it.
        await db.ping();
        const again = await writeSlice(from, to, items).then(
          () => null,
          (e: unknown) => e ?? err,
        );
        if (again === null) return 1;
        if (again instanceof LostRace) throw again;
        const item = items[0]!;
        await commit(from, to, []);
        dropped += item.n;
        options.onDropped?.({ itemId: item.itemId, samples: item.n, err: again });
        return 0;
      }
      const half = Math.ceil(items.length / 2);
      const mid = items[half]!.itemId;
      const stored = await writeIsolating(items.slice(0, half), from, mid);
      return stored + (await writeIsolating(items.slice(half), mid, to));
    }
  };

  /**
   * Claims the blocks of a new run, or finds the run in progress; returns where it stands. One
   * transaction of the writer (not the main thread: setting `claimed` makes SQLite read and write
   * back each block's whole row, ~60 MB at 3 M samples, 25-80 ms that held the event loop). Its
   * statements are fixed, so the choice is made in SQL: a new run marks its progress -1 while it
   * claims, then sets 0 (blocks claimed) or back to null (none). Compare-and-set: of two stores
   * starting at once, one claims and the other reads the run's progress and resumes it.
   */
  const begin = async (only?: number[]): Promise<number | null> => {
    const claiming = -1;
    const progress = () => kysely.updateTable('series_compaction').where('id', '=', 1);
    let claim = kysely
      .updateTable('sample_blocks')
      .set({ claimed: 1 })
      .where('claimed', '=', 0)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('series_compaction').select('id').where('id', '=', 1).where('next_item', '=', claiming)),
      );
    if (only) claim = claim.where('seq', 'in', only.length > 0 ? only : [-1]);
    // 0 when blocks were claimed, else null (CASE without ELSE).
    const claimedAny = sql<number | null>`case when exists (select 1 from sample_blocks where claimed = 1) then 0 end`;
    const statements = [
      progress().set({ next_item: claiming }).where('next_item', 'is', null).compile(),
      claim.compile(),
      progress().set({ next_item: claimedAny }).where('next_item', '=', claiming).compile(),
      kysely.selectFrom('series_compaction').select('next_item').where('id', '=', 1).compile(),
    ];
    const results = await writer().transaction(statements.map((q) => ({ sql: q.sql, params: q.parameters })));
    const next = results[3]?.rows[0]?.next_item;
    return next === null || next === undefined ? null : Number(next);
  };

  /** The claimed blocks, from memory or (written by another store, or before a restart) the database. */
  const loadClaimed = async (): Promise<OpenBlock[]> => {
    const rows = await kysely.selectFrom('sample_blocks').select(['seq', 'claimed']).orderBy('seq').execute();
    const inDb = new Set(rows.map((r) => Number(r.seq)));
    const newest = rows.length > 0 ? Number(rows[rows.length - 1]!.seq) : 0;
    // Blocks of this store that another store compacted meanwhile are gone: reads must not count
    // them (a block written since the select above is newer than any it saw, and stays).
    for (const seq of open.seqs()) if (seq <= newest && !inDb.has(seq)) open.remove(seq);
    const claimed = rows.filter((r) => r.claimed === 1).map((r) => Number(r.seq));
    const missing = claimed.filter((seq) => !open.get(seq));
    for (let i = 0; i < missing.length; i += 16) {
      const loaded = await kysely
        .selectFrom('sample_blocks')
        .select(['seq', 'item_lo', 'item_hi', 't0', 't1', 'n', 'data'])
        .where('seq', 'in', missing.slice(i, i + 16))
        .execute();
      for (const r of loaded) {
        open.add({
          seq: Number(r.seq),
          n: r.n,
          itemLo: Number(r.item_lo),
          itemHi: Number(r.item_hi),
          t0: Number(r.t0),
          t1: Number(r.t1),
          ...decodeBlock(r.data, r.n),
        });
      }
    }
    return claimed.map((seq) => open.get(seq)).filter((b): b is OpenBlock => b !== undefined);
  };

  /**
   * One run: claims (or resumes), compacts slice by slice, deletes the blocks. Null: nothing to do.
   * `only`: claim just these blocks (a store that was not started compacts what it wrote, and
   * leaves the blocks of the server's own store to it).
   */
  const run = async (only?: number[]): Promise<CompactionStats | null> => {
    const started = performance.now();
    const resumeAt = await begin(only);
    if (resumeAt === null) return null;
    const blocks = await loadClaimed();
    open.state.claimed = new Set(blocks.map((b) => b.seq));
    open.state.nextItem = resumeAt;
    let samples = 0;
    let chunks = 0;
    const slices = createSliceGatherer(blocks, resumeAt, itemsPerSlice);
    try {
      for (let next = slices.next(); next; next = slices.next()) {
        samples += next.samples;
        chunks += await writeIsolating(next.slice, open.state.nextItem, next.to);
        // Yield between slices: requests and flushes get the connection in between.
        await new Promise((resolve) => setImmediate(resolve));
        await options.yieldTo?.();
      }
      const drop = kysely.deleteFrom('sample_blocks').where('claimed', '=', 1).compile();
      await commitProgress(open.state.nextItem, null, [{ sql: drop.sql, params: drop.parameters }], () => {
        for (const b of blocks) open.remove(b.seq);
        open.state.claimed = new Set();
        open.state.nextItem = 0;
      });
    } catch (err) {
      if (!(err instanceof LostRace)) throw err;
      // Another store holds this run: its commits are in the tables, so this store's copies of
      // those blocks must not count in reads any more; the next run sees which blocks are left.
      for (const b of blocks) open.remove(b.seq);
      open.state.claimed = new Set();
      open.state.nextItem = 0;
      return null;
    }
    return { blocks: blocks.length, samples, chunks, ms: performance.now() - started };
  };

  return { run, dropped: () => dropped };
};

export type Compactor = ReturnType<typeof createCompactor>;
