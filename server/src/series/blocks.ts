import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { type BlockData, encodeBlock, lowerBound, type RollupBucket } from './codec.ts';
import type { SqlWriter } from './writer.ts';

/**
 * Samples waiting for the next flush, in arrival order, as three growable typed arrays: an object
 * and two arrays per item per flush (120 000 items a second at full Modbus load) lived across the
 * flush interval, were promoted and made much of the main thread's GC (issue 18, event-loop lag).
 */
export const createSampleBuffer = (initial = 1 << 16) => {
  let ids = new Int32Array(initial);
  let ts = new Float64Array(initial);
  let values = new Float64Array(initial);
  let n = 0;
  return {
    size: () => n,
    push(itemId: number, tsMs: number, value: number) {
      if (n === ids.length) {
        const grow = <T extends Int32Array | Float64Array>(a: T, make: (len: number) => T): T => {
          const b = make(a.length * 2);
          b.set(a);
          return b;
        };
        ids = grow(ids, (len) => new Int32Array(len));
        ts = grow(ts, (len) => new Float64Array(len));
        values = grow(values, (len) => new Float64Array(len));
      }
      ids[n] = itemId;
      ts[n] = tsMs;
      values[n] = value;
      n += 1;
    },
    /** Packs what is buffered into blocks (copies) and empties the buffer. */
    take(): Array<Omit<OpenBlock, 'seq'>> {
      const blocks = packBlocks(ids, ts, values, n);
      n = 0;
      return blocks;
    },
  };
};

/** A flush block written to `sample_blocks` and not yet compacted, kept in memory for reads. */
export interface OpenBlock extends BlockData {
  seq: number;
  n: number;
  itemLo: number;
  itemHi: number;
  t0: number;
  t1: number;
}

/** Samples per block row (20 bytes each: about 1.3 MB). */
export const blockSamples = 65_536;

/** Arrival indices sorted by item id, then arrival (stable). */
const orderByItem = (ids: Int32Array, n: number): Uint32Array => {
  const order = new Uint32Array(n);
  let plain = n < 1 << 21;
  for (let i = 0; i < n && plain; i++) if (ids[i]! < 0) plain = false;
  if (plain) {
    // One key per sample, id × 2^21 + arrival index (exact below 2^52): a native numeric sort, no comparator calls.
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = ids[i]! * 2_097_152 + i;
    keys.sort();
    for (let i = 0; i < n; i++) order[i] = keys[i]! % 2_097_152;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => ids[a]! - ids[b]! || a - b);
};

/**
 * Packs a flush's buffered samples into blocks sorted by item then time (an item's samples arrive
 * in time order from its device loop; an item's run is sorted by time only when they did not).
 */
export const packBlocks = (
  ids: Int32Array,
  ts: Float64Array,
  values: Float64Array,
  samples: number,
): Array<Omit<OpenBlock, 'seq'>> => {
  const order = orderByItem(ids, samples);
  for (let a = 0; a < samples; ) {
    const id = ids[order[a]!]!;
    let b = a + 1;
    let ordered = true;
    for (; b < samples && ids[order[b]!] === id; b++) if (ts[order[b]!]! < ts[order[b - 1]!]!) ordered = false;
    if (!ordered) order.subarray(a, b).sort((x, y) => ts[x]! - ts[y]! || x - y);
    a = b;
  }
  const out: Array<Omit<OpenBlock, 'seq'>> = [];
  for (let from = 0; from < samples; from += blockSamples) {
    const n = Math.min(blockSamples, samples - from);
    const block: BlockData = { ids: new Int32Array(n), ts: new Float64Array(n), values: new Float64Array(n) };
    let t0 = Number.POSITIVE_INFINITY;
    let t1 = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < n; k++) {
      const i = order[from + k]!;
      const t = ts[i]!;
      block.ids[k] = ids[i]!;
      block.ts[k] = t;
      block.values[k] = values[i]!;
      if (t < t0) t0 = t;
      if (t > t1) t1 = t;
    }
    out.push({ ...block, n, itemLo: block.ids[0]!, itemHi: block.ids[n - 1]!, t0, t1 });
  }
  return out;
};

/** Writes a flush's blocks in one transaction (through the writer: see writer.ts); returns their sequence numbers. */
export const writeBlocks = async (
  kysely: Kysely<Database>,
  writer: SqlWriter,
  blocks: Array<Omit<OpenBlock, 'seq'>>,
): Promise<number[]> => {
  const statements = blocks.map((b) => {
    const q = kysely
      .insertInto('sample_blocks')
      .values({
        claimed: 0,
        item_lo: b.itemLo,
        item_hi: b.itemHi,
        // Whole milliseconds around the samples' own (float64) times: the columns are integers.
        t0: Math.floor(b.t0),
        t1: Math.ceil(b.t1),
        n: b.n,
        data: encodeBlock(b),
      })
      .returning('seq')
      .compile();
    return { sql: q.sql, params: q.parameters };
  });
  const results = await writer.transaction(statements);
  return results.map((r) => Number(r.rows[0]!.seq));
};

/**
 * The blocks not yet compacted, in memory, so reads see the newest samples before compaction
 * folds them into chunks and roll-ups. While a compaction run holds blocks (`claimed`), an item
 * below `nextItem` is already in the tables: its samples here are skipped. `version` is a sequence
 * lock: odd while a compaction commit is under way, bumped on each, so a read that overlapped one
 * is repeated (it would count a slice twice or not at all).
 */
export const createOpenBlocks = () => {
  const blocks = new Map<number, OpenBlock>();
  let samples = 0;
  const state = { claimed: new Set<number>(), nextItem: 0, version: 0 };
  const compacted = (b: OpenBlock, itemId: number) => state.claimed.has(b.seq) && itemId < state.nextItem;
  /** Calls `visit(ts, value)` for the item's samples in [t1ms, t2ms], block by block. */
  const each = (itemId: number, t1ms: number, t2ms: number, visit: (ts: number, value: number) => void) => {
    for (const b of blocks.values()) {
      if (itemId < b.itemLo || itemId > b.itemHi || b.t1 < t1ms || b.t0 > t2ms || compacted(b, itemId)) continue;
      for (let i = lowerBound(b.ids, itemId); i < b.n && b.ids[i] === itemId; i++) {
        const t = b.ts[i]!;
        if (t >= t1ms && t <= t2ms) visit(t, b.values[i]!);
      }
    }
  };
  return {
    state,
    add(block: OpenBlock) {
      if (blocks.has(block.seq)) return;
      blocks.set(block.seq, block);
      samples += block.n;
    },
    get: (seq: number) => blocks.get(seq),
    seqs: () => [...blocks.keys()],
    remove(seq: number) {
      const b = blocks.get(seq);
      if (!b) return;
      blocks.delete(seq);
      samples -= b.n;
    },
    /** Forgets every block and the compaction's progress (a restore replaced the tables). */
    clear() {
      blocks.clear();
      samples = 0;
      state.claimed = new Set();
      state.nextItem = 0;
      state.version += 2;
    },
    samples: () => samples,
    size: () => blocks.size,
    raw(itemId: number, t1ms: number, t2ms: number) {
      const out: Array<{ tsMs: number; value: number }> = [];
      each(itemId, t1ms, t2ms, (tsMs, value) => out.push({ tsMs, value }));
      return out;
    },
    /** Folds the open samples of `itemIds` into buckets of `width` seconds starting in [t1, t2]. */
    rollups(itemIds: number[], width: number, t1: number, t2: number): RollupBucket[] {
      if (blocks.size === 0) return [];
      const out: RollupBucket[] = [];
      const from = (t1 - (t1 % width)) * 1000;
      const to = t2 * 1000 + 999;
      for (const itemId of itemIds) {
        const buckets = new Map<number, RollupBucket>();
        each(itemId, from, to, (tsMs, v) => {
          const s = Math.floor(tsMs / 1000);
          const ts = s - (s % width);
          if (ts > t2) return;
          const agg = buckets.get(ts);
          if (!agg) buckets.set(ts, { item_id: itemId, ts, min: v, max: v, sum: v, count: 1 });
          else {
            if (v < agg.min) agg.min = v;
            if (v > agg.max) agg.max = v;
            agg.sum += v;
            agg.count += 1;
          }
        });
        out.push(...buckets.values());
      }
      return out;
    },
  };
};

export type OpenBlocks = ReturnType<typeof createOpenBlocks>;
