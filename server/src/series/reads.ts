import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { OpenBlocks } from './blocks.ts';
import { chooseResolution, decodeBlock, decodeChunk, meanOf, minMaxBuckets, type RollupBucket } from './codec.ts';

/**
 * The store's reads: the tables (chunks and roll-ups) joined with the blocks not yet compacted, which
 * the store keeps in memory; a read that overlapped a compaction commit is repeated.
 */
export const createSeriesReads = (kysely: Kysely<Database>, open: OpenBlocks) => {
  /**
   * A read of the tables joined with the open blocks: repeated when a compaction commit overlapped
   * it (the slice would be counted in both, or in neither).
   */
  const consistent = async <T>(fromDb: () => Promise<T[]>, fromBlocks: () => T[]): Promise<T[]> => {
    for (let attempt = 0; ; attempt++) {
      if (open.size() === 0) return fromDb();
      const v = open.state.version;
      if (v % 2 === 1 && attempt < 100) {
        // Real time: the commit waited for runs on the writer thread, whatever clock drives the store.
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      const rows = await fromDb();
      if (open.state.version === v || attempt >= 100) return [...rows, ...fromBlocks()];
    }
  };

  const raw = async (itemId: number, t1: number, t2: number) => {
    const t1ms = t1 * 1000;
    const t2ms = t2 * 1000 + 999;
    const out = await consistent(
      async () => {
        const rows = await kysely
          .selectFrom('sample_chunks')
          .select(['t0', 'n', 'data'])
          .where('item_id', '=', itemId)
          .where('t1', '>=', t1ms)
          .where('t0', '<=', t2ms)
          .orderBy('t0')
          .execute();
        const samples: Array<{ tsMs: number; value: number }> = [];
        for (const row of rows) {
          const { ts, values } = decodeChunk(row.data, row.n);
          for (let i = 0; i < ts.length; i++) {
            const t = ts[i]!;
            if (t >= t1ms && t <= t2ms) samples.push({ tsMs: t, value: values[i]! });
          }
        }
        return samples;
      },
      () => open.raw(itemId, t1ms, t2ms),
    );
    out.sort((a, b) => a.tsMs - b.tsMs);
    return out;
  };

  const rollups = async (itemIds: number[], table: 'minute' | 'hour', t1: number, t2: number) => {
    if (itemIds.length === 0) return [];
    const width = table === 'minute' ? 60 : 3600;
    const rows = await consistent<RollupBucket>(
      () =>
        kysely
          .selectFrom(table === 'minute' ? 'samples_1m' : 'samples_1h')
          .select(['item_id', 'ts', 'min', 'max', 'sum', 'count'])
          .where('item_id', 'in', itemIds)
          .where('ts', '>=', t1 - (t1 % width))
          .where('ts', '<=', t2)
          .orderBy('item_id')
          .orderBy('ts')
          .execute(),
      () => open.rollups(itemIds, width, t1, t2).map((r) => ({ ...r, open: true })),
    );
    if (rows.length === 0 || !('open' in rows[rows.length - 1]!)) return rows;
    // Buckets of the open blocks merge into the stored ones of the same item and time.
    const merged = new Map<string, RollupBucket>();
    for (const r of rows) {
      const key = `${r.item_id}:${r.ts}`;
      const agg = merged.get(key);
      if (!agg) {
        merged.set(key, { item_id: r.item_id, ts: Number(r.ts), min: r.min, max: r.max, sum: r.sum, count: r.count });
        continue;
      }
      agg.min = Math.min(agg.min, r.min);
      agg.max = Math.max(agg.max, r.max);
      agg.sum += r.sum;
      agg.count += r.count;
    }
    return [...merged.values()].sort((a, b) => a.item_id - b.item_id || a.ts - b.ts);
  };

  const read = async (itemId: number, t1: number, t2: number, maxPoints: number) => {
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
      ts: Number(r.ts),
      min: r.min,
      max: r.max,
      avg: meanOf(r),
    }));
    return { resolution, points: minMaxBuckets(rows, t1, t2, maxPoints) };
  };

  /**
   * Blocks left by a stopped or crashed server are read back, so reads see them until compacted;
   * `again` (after a restore replaced the tables) forgets the blocks held first.
   */
  const loadLeftovers = async (again = false) => {
    if (again) open.clear();
    const progress = await kysely
      .selectFrom('series_compaction')
      .select('next_item')
      .where('id', '=', 1)
      .executeTakeFirst();
    const rows = await kysely
      .selectFrom('sample_blocks')
      .select(['seq', 'claimed', 'item_lo', 'item_hi', 't0', 't1', 'n', 'data'])
      .orderBy('seq')
      .execute();
    if (rows.length === 0) return;
    open.state.version += 1;
    if (progress?.next_item !== null && progress?.next_item !== undefined) {
      open.state.claimed = new Set(rows.filter((r) => r.claimed === 1).map((r) => Number(r.seq)));
      open.state.nextItem = Number(progress.next_item);
    }
    for (const r of rows) {
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
    open.state.version += 1;
  };

  return { raw, rollups, read, loadLeftovers };
};
