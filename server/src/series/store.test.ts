import { describe, expect, it } from 'vitest';
import { blockSamples, createSampleBuffer } from './blocks.ts';
import { decodeBlock, encodeBlock, fold, meanOf, type RollupBucket } from './codec.ts';
import { chooseResolution, decodeChunk, encodeChunks, minMaxBuckets } from './store.ts';

/** Values a float64 or a 64-bit integer carries that a rounding to 6 decimals changed or lost. */
const exact = [230.123456789, 4e-7, -4.9e-7, 9_007_199_254_740_991, -9_007_199_254_740_991, 5e-324, Number.MAX_VALUE];

describe('series store pieces', () => {
  it('round-trips a chunk, also from an unaligned view', () => {
    const data = encodeChunks(Float64Array.of(1000, 2000, 3000), Float64Array.of(1.5, -2, 3.25), [0, 3])[0]!;
    const shifted = new Uint8Array(data.length + 3);
    shifted.set(data, 3);
    const { ts, values } = decodeChunk(shifted.subarray(3), 3);
    expect([...ts]).toEqual([1000, 2000, 3000]);
    expect([...values]).toEqual([1.5, -2, 3.25]);
  });

  it('keeps float64 values bit for bit through a block and a chunk', () => {
    const n = exact.length;
    const ts = Float64Array.from(exact, (_, i) => 1_000 * (i + 1));
    const block = decodeBlock(encodeBlock({ ids: new Int32Array(n).fill(7), ts, values: Float64Array.from(exact) }), n);
    expect([...block.values]).toEqual(exact);
    const chunk = decodeChunk(encodeChunks(ts, block.values, [0, n])[0]!, n);
    expect([...chunk.values]).toEqual(exact);
  });

  it('a roll-up of one value answers it exactly, and a mean never leaves its bucket’s minimum and maximum', () => {
    const buckets = new Map<string, RollupBucket>();
    for (let i = 0; i < 3600; i++) for (const [k, v] of exact.entries()) fold(buckets, k + 1, 0, v);
    expect([...buckets.values()].map(meanOf)).toEqual(exact);
    // The plain quotient drifted below the minimum.
    expect(buckets.get('1:0')!.sum / 3600).not.toBe(230.123456789);
    const mixed = new Map<string, RollupBucket>();
    for (let i = 0; i < 3600; i++) fold(mixed, 1, 0, i % 2 ? 0.1 : 0.2);
    const bucket = mixed.get('1:0')!;
    expect(meanOf(bucket)).toBeCloseTo(0.15, 12);
    expect(meanOf({ min: 1, max: 2, sum: 2.0000000001, count: 1 })).toBe(2);
    expect(bucket.count).toBe(3600);
  });

  it('chooses raw, minute or hour by the bucket width', () => {
    expect(chooseResolution(0, 3600, 1000)).toBe('raw');
    expect(chooseResolution(0, 86_400, 1000)).toBe('minute');
    expect(chooseResolution(0, 365 * 86_400, 1000)).toBe('hour');
  });

  it('keeps each bucket’s minimum and maximum in time order and never more than the limit', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const v = i === 5_000 ? 100 : i === 7_000 ? -100 : Math.sin(i / 100);
      return { ts: i, min: v, max: v, avg: v };
    });
    const points = minMaxBuckets(rows, 0, 9_999, 100);
    expect(points.length).toBeLessThanOrEqual(100);
    expect(points.some((p) => p.value === 100 && p.ts === 5_000)).toBe(true);
    expect(points.some((p) => p.value === -100 && p.ts === 7_000)).toBe(true);
    for (let i = 1; i < points.length; i++) expect(points[i]!.ts).toBeGreaterThanOrEqual(points[i - 1]!.ts);
    expect(minMaxBuckets(rows.slice(0, 50), 0, 49, 100)).toHaveLength(50);
  });

  it('packs the buffer by item then time, in blocks of at most blockSamples, and empties it', () => {
    const buffer = createSampleBuffer(4);
    // 70 000 samples of 7 000 items in arrival order (items interleaved), one item's samples out of time order.
    for (let round = 0; round < 10; round++) {
      for (let item = 7_000; item >= 1; item--) buffer.push(item, 1_000 + round * 1000, item + round / 10);
    }
    buffer.push(42, 500, -1);
    buffer.push(42, 1_000, -2); // the same time as the first round's: kept after it (arrival order)
    expect(buffer.size()).toBe(70_002);
    const blocks = buffer.take();
    expect(buffer.size()).toBe(0);
    expect(blocks.map((b) => b.n)).toEqual([blockSamples, 70_002 - blockSamples]);
    const ids = blocks.flatMap((b) => [...b.ids]);
    const ts = blocks.flatMap((b) => [...b.ts]);
    let sorted = true;
    for (let i = 1; i < ids.length; i++) {
      if (!(ids[i]! > ids[i - 1]! || (ids[i] === ids[i - 1] && ts[i]! >= ts[i - 1]!))) sorted = false;
    }
    expect(sorted).toBe(true);
    const at = ids.indexOf(42);
    expect([...blocks[0]!.values.subarray(at, at + 12)]).toEqual([
      -1, 42, -2, 42.1, 42.2, 42.3, 42.4, 42.5, 42.6, 42.7, 42.8, 42.9,
    ]);
    expect(blocks[0]).toMatchObject({ itemLo: 1, t0: 500, t1: 10_000 });
    expect(blocks[1]).toMatchObject({ itemHi: 7_000 });

    // Ids the numeric key cannot hold take the comparator sort: the same order.
    buffer.push(5, 2, 1);
    buffer.push(-3, 1, 2);
    buffer.push(5, 1, 3);
    const [block] = buffer.take();
    expect([...block!.ids]).toEqual([-3, 5, 5]);
    expect([...block!.values]).toEqual([2, 3, 1]);
  });
});
