import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { type BlockData, encodeBlock, lowerBound, type RollupBucket } from './codec.ts';
import type { SqlWriter } from './writer.ts';

/** Samples of one item waiting for the next flush, in arrival order. */
export interface ItemBuffer {
  ts: number[];
  values: number[];
}

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

/**
 * Packs a flush's buffered samples into blocks sorted by item then time (an item's samples arrive
 * in time order from its device loop; they are sorted only when they did not).
 */
export const packBlocks = (batch: Map<number, ItemBuffer>, samples: number): Array<Omit<OpenBlock, 'seq'>> => {
  const ids = [...batch.keys()].sort((a, b) => a - b);
  const out: Array<Omit<OpenBlock, 'seq'>> = [];
  let size = Math.min(samples, blockSamples);
  let block: BlockData = { ids: new Int32Array(size), ts: new Float64Array(size), values: new Float64Array(size) };
  let k = 0;
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  let left = samples;
  const close = () => {
    out.push({ ...block, n: k, itemLo: block.ids[0]!, itemHi: block.ids[k - 1]!, t0, t1 });
    left -= k;
    size = Math.min(left, blockSamples);
    block = { ids: new Int32Array(size), ts: new Float64Array(size), values: new Float64Array(size) };
    k = 0;
    t0 = Number.POSITIVE_INFINITY;
    t1 = Number.NEGATIVE_INFINITY;
  };
  for (const itemId of ids) {
    const b = batch.get(itemId)!;
    let ordered = true;
    for (let i = 1; i < b.ts.length; i++) if (b.ts[i]! < b.ts[i - 1]!) ordered = false;
    const order = ordered ? null : b.ts.map((_, i) => i).sort((x, y) => b.ts[x]! - b.ts[y]!);
    for (let j = 0; j < b.ts.length; j++) {
      const i = order ? order[j]! : j;
      const t = b.ts[i]!;
      block.ids[k] = itemId;
      block.ts[k] = t;
      block.values[k] = b.values[i]!;
      if (t < t0) t0 = t;
      if (t > t1) t1 = t;
      k += 1;
      if (k === size) close();
    }
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
