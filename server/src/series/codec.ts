import type { Resolution } from '@sitewatch/contract/series';

/** One point of a read: `ts` in epoch seconds. */
export interface SeriesPoint {
  ts: number;
  value: number;
}

export interface RollupBucket {
  item_id: number;
  ts: number;
  min: number;
  max: number;
  sum: number;
  count: number;
}

/**
 * Chunk rows' data, each the times (epoch ms) then the values of its samples, float64 each. The
 * chunks of several items in one buffer (a compaction slice's: one allocation, not one per
 * item): chunk k holds the samples [bounds[k], bounds[k + 1]) of `ts` and `values`.
 */
export const encodeChunks = (ts: Float64Array, values: Float64Array, bounds: ArrayLike<number>): Uint8Array[] => {
  const out = new Float64Array(2 * bounds[bounds.length - 1]!);
  const chunks: Uint8Array[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const from = bounds[k]!;
    const n = bounds[k + 1]! - from;
    const at = 2 * from;
    for (let i = 0; i < n; i++) {
      out[at + i] = ts[from + i]!;
      out[at + n + i] = values[from + i]!;
    }
    chunks.push(new Uint8Array(out.buffer, at * 8, n * 16));
  }
  return chunks;
};

export const decodeChunk = (data: Uint8Array, n: number): { ts: Float64Array; values: Float64Array } => {
  // Copy into an aligned buffer: drivers may hand back views at any byte offset.
  const copy = new Uint8Array(n * 16);
  copy.set(data.subarray(0, n * 16));
  const all = new Float64Array(copy.buffer);
  return { ts: all.subarray(0, n), values: all.subarray(n, 2 * n) };
};

/** The samples of one flush block, sorted by item then time. */
export interface BlockData {
  ids: Int32Array;
  ts: Float64Array;
  values: Float64Array;
}

/** A block row's data: times and values (float64), then item ids (int32), so both stay aligned. */
export const encodeBlock = (b: BlockData): Uint8Array => {
  const n = b.ids.length;
  const out = new Uint8Array(n * 20);
  out.set(new Uint8Array(b.ts.buffer, b.ts.byteOffset, n * 8), 0);
  out.set(new Uint8Array(b.values.buffer, b.values.byteOffset, n * 8), n * 8);
  out.set(new Uint8Array(b.ids.buffer, b.ids.byteOffset, n * 4), n * 16);
  return out;
};

export const decodeBlock = (data: Uint8Array, n: number): BlockData => {
  const copy = new Uint8Array(n * 20);
  copy.set(data.subarray(0, n * 20));
  return {
    ts: new Float64Array(copy.buffer, 0, n),
    values: new Float64Array(copy.buffer, n * 8, n),
    ids: new Int32Array(copy.buffer, n * 16, n),
  };
};

/** The first index in sorted `ids` holding an id ≥ `id`. */
export const lowerBound = (ids: Int32Array, id: number): number => {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/**
 * The mean of a roll-up bucket. A float64 sum of many values drifts in its last digits (3600
 * samples of 230.123456789 sum to a mean of 230.1234567889841, below their minimum): a bucket of
 * one value answers that value, and a mean never leaves [min, max].
 */
export const meanOf = (b: { min: number; max: number; sum: number; count: number }): number =>
  b.min === b.max ? b.min : Math.min(b.max, Math.max(b.min, b.sum / b.count));

/** Folds value `v` into the roll-up bucket of `itemId` starting at `bucket` (epoch seconds). */
export const fold = (target: Map<string, RollupBucket>, itemId: number, bucket: number, v: number) => {
  const key = `${itemId}:${bucket}`;
  const agg = target.get(key);
  if (agg) {
    if (v < agg.min) agg.min = v;
    if (v > agg.max) agg.max = v;
    agg.sum += v;
    agg.count += 1;
  } else target.set(key, { item_id: itemId, ts: bucket, min: v, max: v, sum: v, count: 1 });
};

/**
 * Down-samples ordered points to at most `maxPoints`: each bucket of time keeps its minimum and
 * maximum (in time order), so spikes survive; fewer points than the limit come back unchanged.
 */
export const minMaxBuckets = (
  rows: Array<{ ts: number; min: number; max: number; minTs?: number; maxTs?: number; avg: number }>,
  t1: number,
  t2: number,
  maxPoints: number,
): SeriesPoint[] => {
  if (rows.length <= maxPoints) return rows.map((r) => ({ ts: r.ts, value: r.avg }));
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const width = Math.max(1, (t2 - t1 + 1) / buckets);
  const out: SeriesPoint[] = [];
  let current = -1;
  let lo: SeriesPoint | null = null;
  let hi: SeriesPoint | null = null;
  const emit = () => {
    if (!lo || !hi) return;
    if (lo.ts === hi.ts && lo.value === hi.value) out.push(lo);
    else if (lo.ts <= hi.ts) out.push(lo, hi);
    else out.push(hi, lo);
  };
  for (const r of rows) {
    const b = Math.max(0, Math.min(buckets - 1, Math.floor((r.ts - t1) / width)));
    if (b !== current) {
      emit();
      current = b;
      lo = null;
      hi = null;
    }
    if (!lo || r.min < lo.value) lo = { ts: r.minTs ?? r.ts, value: r.min };
    if (!hi || r.max > hi.value) hi = { ts: r.maxTs ?? r.ts, value: r.max };
  }
  emit();
  return out;
};

/** The resolution a read of [t1, t2] into `maxPoints` points uses. */
export const chooseResolution = (t1: number, t2: number, maxPoints: number): Resolution => {
  const width = (t2 - t1) / Math.max(1, Math.floor(maxPoints / 2));
  if (width >= 3600) return 'hour';
  if (width >= 60) return 'minute';
  return 'raw';
};
