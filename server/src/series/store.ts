import type { Resolution, RetentionSettings } from '@sitewatch/contract/series';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { Database } from '../db/schema.ts';

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

export interface FlushStats {
  samples: number;
  chunks: number;
  ms: number;
}

export interface SeriesStoreOptions {
  /** How often buffered samples are written (ms). */
  flushEveryMs?: number;
  /** A flush starts early when this many samples wait. */
  maxBuffered?: number;
  now?: () => number;
  onFlushError?: (err: unknown) => void;
  /** An item's samples the database refused were dropped (the rest of the flush was stored). */
  onDropped?: (drop: { itemId: number; samples: number; err: unknown }) => void;
}

/**
 * The series store: every sample is kept, written in batches as one chunk row per item per flush
 * (times and values as float64 arrays), sorted by item; per-minute and per-hour roll-ups (min, max,
 * sum, count) are folded in by the same transaction. Reads pick the resolution for the range and
 * return at most N points (the min and max of each bucket). See docs/monitoring.md.
 */
export interface SeriesStore {
  append(itemId: number, tsMs: number, value: number): void;
  /** Samples waiting for the next flush. */
  pending(): number;
  flush(): Promise<FlushStats>;
  start(): void;
  /** Stops the timer and writes what is buffered. */
  stop(): Promise<void>;
  read(
    itemId: number,
    t1: number,
    t2: number,
    maxPoints: number,
  ): Promise<{ resolution: Resolution; points: SeriesPoint[] }>;
  /** Raw samples (epoch ms and value) of an item over [t1, t2] seconds. */
  raw(itemId: number, t1: number, t2: number): Promise<Array<{ tsMs: number; value: number }>>;
  rollups(itemIds: number[], table: 'minute' | 'hour', t1: number, t2: number): Promise<RollupBucket[]>;
  prune(retention: RetentionSettings): Promise<{ chunks: number; minutes: number; hours: number }>;
  /** Latency of the last flushes (ms), newest last, for metrics and the benchmark. */
  flushLatencies(): number[];
  /** Samples dropped since start because the database refused them (see onDropped). */
  dropped(): number;
}

interface Buffer {
  ts: number[];
  values: number[];
}

const insertBatch = 1000;
/** Items written per transaction of a flush (a chunk and two roll-up statements of 1 000 rows). */
const itemsPerTransaction = 1000;

export const encodeChunk = (ts: number[], values: number[]): Uint8Array => {
  const n = ts.length;
  const out = new Float64Array(n * 2);
  out.set(ts, 0);
  out.set(values, n);
  return new Uint8Array(out.buffer);
};

export const decodeChunk = (data: Uint8Array, n: number): { ts: Float64Array; values: Float64Array } => {
  // Copy into an aligned buffer: drivers may hand back views at any byte offset.
  const copy = new Uint8Array(n * 16);
  copy.set(data.subarray(0, n * 16));
  const all = new Float64Array(copy.buffer);
  return { ts: all.subarray(0, n), values: all.subarray(n, 2 * n) };
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

export const createSeriesStore = (db: Db, options: SeriesStoreOptions = {}): SeriesStore => {
  const kysely: Kysely<Database> = db.kysely;
  const flushEveryMs = options.flushEveryMs ?? 1000;
  const maxBuffered = options.maxBuffered ?? 500_000;
  let buffer = new Map<number, Buffer>();
  let buffered = 0;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<FlushStats> | null = null;
  const latencies: number[] = [];
  let droppedSamples = 0;
  const lesser = db.dialect === 'postgres' ? 'least' : 'min';
  const greater = db.dialect === 'postgres' ? 'greatest' : 'max';

  const fold = (target: Map<string, RollupBucket>, itemId: number, bucket: number, v: number) => {
    const key = `${itemId}:${bucket}`;
    const agg = target.get(key);
    if (agg) {
      if (v < agg.min) agg.min = v;
      if (v > agg.max) agg.max = v;
      agg.sum += v;
      agg.count += 1;
    } else target.set(key, { item_id: itemId, ts: bucket, min: v, max: v, sum: v, count: 1 });
  };

  const upsertRollups = async (trx: Kysely<Database>, table: 'samples_1m' | 'samples_1h', rows: RollupBucket[]) => {
    for (let i = 0; i < rows.length; i += insertBatch) {
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + insertBatch))
        .onConflict((oc) =>
          oc.columns(['item_id', 'ts']).doUpdateSet({
            min: sql`${sql.raw(lesser)}(${sql.ref(`${table}.min`)}, excluded.min)`,
            max: sql`${sql.raw(greater)}(${sql.ref(`${table}.max`)}, excluded.max)`,
            sum: sql`${sql.ref(`${table}.sum`)} + excluded.sum`,
            count: sql`${sql.ref(`${table}.count`)} + excluded.count`,
          }),
        )
        .execute();
    }
  };

  const doFlush = async (): Promise<FlushStats> => {
    if (buffered === 0) return { samples: 0, chunks: 0, ms: 0 };
    const started = performance.now();
    const batch = buffer;
    const samples = buffered;
    buffer = new Map();
    buffered = 0;
    const ids = [...batch.keys()].sort((a, b) => a - b);
    const chunks: Array<{ item_id: number; t0: number; t1: number; n: number; data: Uint8Array }> = [];
    const minutes = new Map<string, RollupBucket>();
    const hours = new Map<string, RollupBucket>();
    for (const itemId of ids) {
      const b = batch.get(itemId)!;
      // Samples of one item arrive in time order from its device loop; sort only if they did not.
      let ordered = true;
      for (let i = 1; i < b.ts.length; i++) if (b.ts[i]! < b.ts[i - 1]!) ordered = false;
      if (!ordered) {
        const order = b.ts.map((_, i) => i).sort((x, y) => b.ts[x]! - b.ts[y]!);
        b.ts = order.map((i) => b.ts[i]!);
        b.values = order.map((i) => b.values[i]!);
      }
      chunks.push({
        item_id: itemId,
        t0: b.ts[0]!,
        t1: b.ts[b.ts.length - 1]!,
        n: b.ts.length,
        data: encodeChunk(b.ts, b.values),
      });
      for (let i = 0; i < b.ts.length; i++) {
        const s = Math.floor(b.ts[i]! / 1000);
        const v = b.values[i]!;
        fold(minutes, itemId, s - (s % 60), v);
        fold(hours, itemId, s - (s % 3600), v);
      }
    }
    type Chunk = (typeof chunks)[number];
    const write = (part: Chunk[], mins: RollupBucket[], hrs: RollupBucket[]) =>
      kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < part.length; i += insertBatch) {
          await trx
            .insertInto('sample_chunks')
            .values(part.slice(i, i + insertBatch))
            .execute();
        }
        await upsertRollups(trx, 'samples_1m', mins);
        await upsertRollups(trx, 'samples_1h', hrs);
      });
    const stored = new Set<number>();
    /**
     * A failed write is split in halves until the items the database refuses stand alone: those
     * are dropped (logged, counted), the rest stored, so one bad sample never stops all storage.
     * When the database itself does not answer nothing is dropped: what is not stored goes back to
     * the buffer for the next flush.
     */
    const writeIsolating = async (part: Chunk[], mins: RollupBucket[], hrs: RollupBucket[]): Promise<void> => {
      try {
        await write(part, mins, hrs);
        for (const c of part) stored.add(c.item_id);
      } catch (err) {
        if (part.length === 1) {
          // Throws when the database is down; a passing conflict gets one more try.
          await db.ping();
          const c = part[0]!;
          const again = await write(part, mins, hrs).then(
            () => null,
            (e: unknown) => e ?? err,
          );
          stored.add(c.item_id);
          if (again === null) return;
          droppedSamples += c.n;
          options.onDropped?.({ itemId: c.item_id, samples: c.n, err: again });
          return;
        }
        const half = Math.ceil(part.length / 2);
        for (const side of [part.slice(0, half), part.slice(half)]) {
          const ids = new Set(side.map((c) => c.item_id));
          await writeIsolating(
            side,
            mins.filter((r) => ids.has(r.item_id)),
            hrs.filter((r) => ids.has(r.item_id)),
          );
        }
      }
    };
    try {
      // One transaction per slice of items (each item's chunk with its roll-ups), yielding between
      // them: a flush of 100 000 items held the only SQLite connection, and with it every request
      // that reads the database (/readyz included), for its whole length (issue 18).
      const mins = [...minutes.values()];
      const hrs = [...hours.values()];
      let m = 0;
      let h = 0;
      for (let i = 0; i < chunks.length; i += itemsPerTransaction) {
        const part = chunks.slice(i, i + itemsPerTransaction);
        // Chunks are sorted by item and the roll-ups were folded in that order: contiguous runs.
        const last = part[part.length - 1]!.item_id;
        const m0 = m;
        const h0 = h;
        while (m < mins.length && mins[m]!.item_id <= last) m += 1;
        while (h < hrs.length && hrs[h]!.item_id <= last) h += 1;
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        await writeIsolating(part, mins.slice(m0, m), hrs.slice(h0, h));
      }
    } catch (err) {
      // The database does not answer: keep what was not stored for the next attempt.
      for (const [itemId, b] of batch) {
        if (stored.has(itemId)) continue;
        for (let i = 0; i < b.ts.length; i++) append(itemId, b.ts[i]!, b.values[i]!);
      }
      throw err;
    }
    const ms = performance.now() - started;
    latencies.push(ms);
    if (latencies.length > 10_000) latencies.splice(0, latencies.length - 10_000);
    return { samples, chunks: chunks.length, ms };
  };

  const flush = async (): Promise<FlushStats> => {
    while (flushing) await flushing.catch(() => undefined);
    flushing = doFlush();
    try {
      return await flushing;
    } finally {
      flushing = null;
    }
  };

  const append = (itemId: number, tsMs: number, value: number) => {
    if (!Number.isFinite(value) || !Number.isFinite(tsMs)) return;
    let b = buffer.get(itemId);
    if (!b) {
      b = { ts: [], values: [] };
      buffer.set(itemId, b);
    }
    b.ts.push(tsMs);
    b.values.push(value);
    buffered += 1;
    if (buffered >= maxBuffered && !flushing) void flush().catch((err) => options.onFlushError?.(err));
  };

  const raw = async (itemId: number, t1: number, t2: number) => {
    const t1ms = t1 * 1000;
    const t2ms = t2 * 1000 + 999;
    const rows = await kysely
      .selectFrom('sample_chunks')
      .select(['t0', 'n', 'data'])
      .where('item_id', '=', itemId)
      .where('t1', '>=', t1ms)
      .where('t0', '<=', t2ms)
      .orderBy('t0')
      .execute();
    const out: Array<{ tsMs: number; value: number }> = [];
    for (const row of rows) {
      const { ts, values } = decodeChunk(row.data, row.n);
      for (let i = 0; i < ts.length; i++) {
        const t = ts[i]!;
        if (t >= t1ms && t <= t2ms) out.push({ tsMs: t, value: values[i]! });
      }
    }
    out.sort((a, b) => a.tsMs - b.tsMs);
    return out;
  };

  const rollups = async (itemIds: number[], table: 'minute' | 'hour', t1: number, t2: number) => {
    if (itemIds.length === 0) return [];
    return kysely
      .selectFrom(table === 'minute' ? 'samples_1m' : 'samples_1h')
      .select(['item_id', 'ts', 'min', 'max', 'sum', 'count'])
      .where('item_id', 'in', itemIds)
      .where('ts', '>=', t1 - (t1 % (table === 'minute' ? 60 : 3600)))
      .where('ts', '<=', t2)
      .orderBy('item_id')
      .orderBy('ts')
      .execute();
  };

  return {
    append,
    pending: () => buffered,
    flush,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        void flush().catch((err) => options.onFlushError?.(err));
      }, flushEveryMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
    async read(itemId, t1, t2, maxPoints) {
      const resolution = chooseResolution(t1, t2, maxPoints);
      if (resolution === 'raw') {
        const samples = await raw(itemId, t1, t2);
        const rows = samples.map((s) => {
          const ts = Math.floor(s.tsMs / 1000);
          return { ts, min: s.value, max: s.value, avg: s.value };
        });
        return { resolution, points: minMaxBuckets(rows, t1, t2, maxPoints) };
      }
      const rows = (await rollups([itemId], resolution, t1, t2)).map((r) => ({
        ts: r.ts,
        min: r.min,
        max: r.max,
        avg: r.sum / r.count,
      }));
      return { resolution, points: minMaxBuckets(rows, t1, t2, maxPoints) };
    },
    raw,
    rollups,
    async prune(retention) {
      const now = Math.floor((options.now?.() ?? Date.now()) / 1000);
      const result = { chunks: 0, minutes: 0, hours: 0 };
      if (retention.raw_days > 0) {
        const r = await kysely
          .deleteFrom('sample_chunks')
          .where('t1', '<', (now - retention.raw_days * 86_400) * 1000)
          .executeTakeFirst();
        result.chunks = Number(r.numDeletedRows);
      }
      if (retention.minute_days > 0) {
        const r = await kysely
          .deleteFrom('samples_1m')
          .where('ts', '<', now - retention.minute_days * 86_400)
          .executeTakeFirst();
        result.minutes = Number(r.numDeletedRows);
      }
      if (retention.hour_days > 0) {
        const r = await kysely
          .deleteFrom('samples_1h')
          .where('ts', '<', now - retention.hour_days * 86_400)
          .executeTakeFirst();
        result.hours = Number(r.numDeletedRows);
      }
      return result;
    },
    flushLatencies: () => [...latencies],
    dropped: () => droppedSamples,
  };
};
