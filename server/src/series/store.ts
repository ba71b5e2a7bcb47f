import type { Resolution, RetentionSettings } from '@sitewatch/contract/series';
import type { Kysely } from 'kysely';
import { createPending, realTimers, type Timer, type Timers } from '../clock/timers.ts';
import type { Db } from '../db/kysely.ts';
import type { Database } from '../db/schema.ts';
import { createOpenBlocks, createSampleBuffer, writeBlocks } from './blocks.ts';
import type { RollupBucket, SeriesPoint } from './codec.ts';
import { type CompactionStats, createCompactor } from './compact.ts';
import { createSeriesReads } from './reads.ts';
import { inProcessWriter, type SqlWriter, startSqlWriter } from './writer.ts';

export type { RollupBucket, SeriesPoint } from './codec.ts';
export { chooseResolution, decodeChunk, encodeChunks, minMaxBuckets } from './codec.ts';
export type { CompactionStats } from './compact.ts';

export interface FlushStats {
  samples: number;
  /** Rows written: blocks by a started store's flush, chunks when the flush also compacted. */
  chunks: number;
  ms: number;
}

export interface SeriesStoreOptions {
  /** How often buffered samples are written (ms). */
  flushEveryMs?: number;
  /** A flush starts early when this many samples wait. */
  maxBuffered?: number;
  /** How often a started store compacts its blocks into chunks and roll-ups (ms). */
  compactEveryMs?: number;
  /** A compaction starts early when this many samples wait in blocks (about 20 bytes each in memory). */
  compactAtSamples?: number;
  /** Items per compaction transaction. */
  itemsPerSlice?: number;
  now?: () => number;
  onFlushError?: (err: unknown) => void;
  /** An item's samples the database refused were dropped (the rest of the flush was stored). */
  onDropped?: (drop: { itemId: number; samples: number; err: unknown }) => void;
  /**
   * Where a started store writes on SQLite: `thread` (default) a writer thread with its own
   * connection (writer.ts), `main` the server's connection. A store that was not started, and
   * PostgreSQL, always write through the server's connection.
   */
  writer?: 'thread' | 'main';
  log?: { warn(obj: object, msg: string): void };
  /** The flush and compaction timers (the composition root's). */
  timers?: Timers;
}

/**
 * The series store: every sample is kept. A flush appends the buffered samples as a few blocks
 * (`sample_blocks`, sorted by item then time), so its cost follows samples, not items; compaction
 * folds the blocks in the background into one chunk row per item (times and values as float64
 * arrays) and the per-minute and per-hour roll-ups (min, max, sum, count). Reads union the tables
 * with the blocks not yet compacted, pick the resolution for the range and return at most N points
 * (the min and max of each bucket). See docs/monitoring.md and docs/series-store.md.
 */
export interface SeriesStore {
  append(itemId: number, tsMs: number, value: number): void;
  /** Samples waiting for the next flush. */
  pending(): number;
  /**
   * Writes what is buffered: durable and seen by reads when it returns. A store that was not
   * started (no background compaction) also compacts, so it leaves no blocks behind.
   */
  flush(): Promise<FlushStats>;
  /**
   * Compacts blocks into chunks and roll-ups: a started store every block there is, one that was
   * not started those it wrote. Null when there was nothing.
   */
  compact(): Promise<CompactionStats | null>;
  start(): void;
  /**
   * Where other SQLite writes of the collection path go (the collector's item rows): the store's
   * writer thread while it runs, the server's connection otherwise.
   */
  writer(): SqlWriter;
  /** Stops the timers, writes what is buffered and compacts it. */
  stop(): Promise<void>;
  /**
   * Writes what is buffered and waits for the writes, compaction and start-up work in flight;
   * true when there was any (`Sitewatch.settled()`). Compaction itself stays on its timer.
   * `between` (two timers of the test clock): the buffer waits for its flush timer.
   */
  settled(between?: boolean): Promise<boolean>;
  /**
   * After a restore replaced the history tables: waits for the flush and compaction in flight,
   * forgets the blocks it held in memory and reads the tables' blocks again, so reads answer the
   * restored history (samples still buffered are written after, as new ones).
   */
  reload(): Promise<void>;
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
  /** Duration of the last compaction runs (ms), newest last. */
  compactionLatencies(): number[];
  /** Samples dropped since start because the database refused them (see onDropped). */
  dropped(): number;
}

const keepLast = (list: number[], value: number) => {
  list.push(value);
  if (list.length > 10_000) list.splice(0, list.length - 10_000);
};

export const createSeriesStore = (db: Db, options: SeriesStoreOptions = {}): SeriesStore => {
  const kysely: Kysely<Database> = db.kysely;
  const flushEveryMs = options.flushEveryMs ?? 1000;
  const maxBuffered = options.maxBuffered ?? 500_000;
  const compactEveryMs = options.compactEveryMs ?? 60_000;
  const compactAtSamples = options.compactAtSamples ?? 3_000_000;
  const buffer = createSampleBuffer();
  const timers = options.timers ?? realTimers;
  const starting = createPending();
  let timer: Timer | null = null;
  let started = false;
  let flushing: Promise<FlushStats> | null = null;
  let compacting: Promise<CompactionStats | null> | null = null;
  let lastCompaction = timers.monotonic();
  const latencies: number[] = [];
  const compactions: number[] = [];
  const open = createOpenBlocks();
  // The writer thread while started (SQLite); the server's connection before it is up and after stop.
  const mainWriter = inProcessWriter(db);
  let writer: SqlWriter = mainWriter;
  let writerStarting: Promise<void> | null = null;
  const { raw, rollups, read, loadLeftovers } = createSeriesReads(kysely, open);
  const compactor = createCompactor(db, open, {
    itemsPerSlice: options.itemsPerSlice,
    onDropped: options.onDropped,
    writer: () => writer,
    yieldTo: async () => {
      while (flushing) await flushing.catch(() => undefined);
    },
  });

  /** Appends the buffered samples as blocks; on failure they go back to the buffer. */
  const doFlushBlocks = async (): Promise<FlushStats> => {
    if (buffer.size() === 0) return { samples: 0, chunks: 0, ms: 0 };
    const startedAt = performance.now();
    const samples = buffer.size();
    const blocks = buffer.take();
    try {
      const seqs = await writeBlocks(kysely, writer, blocks).catch(async (err: unknown) => {
        // A block holds no per-item constraint: a refusal is the database's, tried once more
        // after a health check (which throws when the database is down).
        await db.ping();
        void err;
        return writeBlocks(kysely, writer, blocks);
      });
      for (let i = 0; i < blocks.length; i++) open.add({ ...blocks[i]!, seq: seqs[i]! });
    } catch (err) {
      // Nothing was stored: the samples wait for the next attempt (an item's run is put in time order when packed).
      for (const b of blocks) for (let i = 0; i < b.n; i++) append(b.ids[i]!, b.ts[i]!, b.values[i]!);
      throw err;
    }
    const ms = performance.now() - startedAt;
    keepLast(latencies, ms);
    return { samples, chunks: blocks.length, ms };
  };

  const flushBlocks = async (): Promise<FlushStats> => {
    while (flushing) await flushing.catch(() => undefined);
    flushing = doFlushBlocks();
    try {
      return await flushing;
    } finally {
      flushing = null;
    }
  };

  /** One compaction run at a time in this store. */
  const compactOnce = async (): Promise<CompactionStats | null> => {
    while (compacting) await compacting.catch(() => undefined);
    compacting = compactor.run(started ? undefined : open.seqs());
    try {
      const stats = await compacting;
      lastCompaction = timers.monotonic();
      if (stats) keepLast(compactions, stats.ms);
      return stats;
    } finally {
      compacting = null;
    }
  };

  /** Runs until no block is left (a resumed run leaves the blocks written since for another). */
  const compactAll = async (): Promise<CompactionStats | null> => {
    let total: CompactionStats | null = null;
    for (let i = 0; i < 4; i++) {
      const stats = await compactOnce();
      if (!stats) break;
      total = total
        ? {
            blocks: total.blocks + stats.blocks,
            samples: total.samples + stats.samples,
            chunks: total.chunks + stats.chunks,
            ms: total.ms + stats.ms,
          }
        : stats;
    }
    if (!started && open.size() > 0) {
      // Blocks another store's run compacted (it claimed them first) are in the tables now: reads
      // must stop counting them from memory.
      const seqs = open.seqs();
      const left = await kysely.selectFrom('sample_blocks').select('seq').where('seq', 'in', seqs).execute();
      const kept = new Set(left.map((r) => Number(r.seq)));
      open.state.version += 2;
      for (const seq of seqs) if (!kept.has(seq)) open.remove(seq);
    }
    return total;
  };

  const flush = async (): Promise<FlushStats> => {
    const written = await flushBlocks();
    if (started) return written;
    const startedAt = performance.now();
    const compacted = await compactAll();
    return {
      samples: written.samples,
      chunks: compacted?.chunks ?? 0,
      ms: written.ms + (performance.now() - startedAt),
    };
  };

  const append = (itemId: number, tsMs: number, value: number) => {
    if (!Number.isFinite(value) || !Number.isFinite(tsMs)) return;
    buffer.push(itemId, tsMs, value);
    if (buffer.size() >= maxBuffered && !flushing) void flushBlocks().catch((err) => options.onFlushError?.(err));
  };

  return {
    append,
    pending: () => buffer.size(),
    flush,
    compact: compactAll,
    writer: () => writer,
    start() {
      if (timer) return;
      started = true;
      lastCompaction = timers.monotonic();
      if (options.writer !== 'main') {
        writerStarting = startSqlWriter(db, options.log)
          .then((w) => {
            // Stopped before the thread was online: stop() waits for it to close (through
            // writerStarting), or the thread would open the database file after its owner had closed
            // and removed it, and make it again (docs/series-store-log.md, "A late writer thread").
            if (!started) return w.close();
            writer = w;
          })
          // Not started (the file could not be named): the server's connection goes on writing.
          .catch((err: unknown) => options.log?.warn({ err }, 'the series writer thread could not start'));
        void starting.track(writerStarting);
      }
      void starting.track(loadLeftovers().catch((err) => options.onFlushError?.(err)));
      timer = timers.setInterval(
        () =>
          flushBlocks()
            .then(() => {
              const due = timers.monotonic() - lastCompaction >= compactEveryMs || open.samples() >= compactAtSamples;
              if (due && !compacting) return compactOnce();
              return null;
            })
            .catch((err) => options.onFlushError?.(err)),
        flushEveryMs,
      );
      timer.unref();
    },
    async settled(between = false) {
      let busy = await starting.settled();
      if (compacting) {
        busy = true;
        await compacting.catch(() => undefined);
      }
      // A flush in flight is its timer's work, which the app waits for.
      if (between || (buffer.size() === 0 && !flushing)) return busy;
      await flushBlocks().catch((err) => options.onFlushError?.(err));
      return true;
    },
    async reload() {
      for (await starting.settled(); flushing || compacting; ) await Promise.allSettled([flushing, compacting]);
      await loadLeftovers(true);
    },
    async stop() {
      timers.clearInterval(timer);
      timer = null;
      started = false;
      await compacting?.catch(() => undefined);
      await writerStarting?.catch(() => undefined);
      writerStarting = null;
      try {
        await flushBlocks();
        await compactAll();
      } finally {
        // Everything sent to the thread is committed before it closes; later writes use the server's connection.
        const w = writer;
        writer = mainWriter;
        await w.close();
      }
    },
    read,
    raw,
    rollups,
    async prune(retention) {
      const now = Math.floor((options.now?.() ?? Date.now()) / 1000);
      const before = (days: number) => now - days * 86_400;
      // Through the writer, as the store's other writes: on SQLite a large delete holds the thread
      // that runs it (50 ms measured at 120 000 values/s), and that is not the main thread.
      const deletes = {
        chunks:
          retention.raw_days > 0
            ? kysely
                .deleteFrom('sample_chunks')
                .where('t1', '<', before(retention.raw_days) * 1000)
                .compile()
            : null,
        minutes:
          retention.minute_days > 0
            ? kysely.deleteFrom('samples_1m').where('ts', '<', before(retention.minute_days)).compile()
            : null,
        hours:
          retention.hour_days > 0
            ? kysely.deleteFrom('samples_1h').where('ts', '<', before(retention.hour_days)).compile()
            : null,
      };
      const kinds = (['chunks', 'minutes', 'hours'] as const).filter((kind) => deletes[kind]);
      const result = { chunks: 0, minutes: 0, hours: 0 };
      if (kinds.length === 0) return result;
      const results = await writer.transaction(
        kinds.map((kind) => ({ sql: deletes[kind]!.sql, params: deletes[kind]!.parameters })),
      );
      kinds.forEach((kind, i) => {
        result[kind] = results[i]!.changes;
      });
      return result;
    },
    flushLatencies: () => [...latencies],
    compactionLatencies: () => [...compactions],
    dropped: () => compactor.dropped(),
  };
};
