import { describe, expect, it } from 'vitest';
import { chooseResolution, decodeChunk, encodeChunk, minMaxBuckets } from './store.ts';

describe('series store pieces', () => {
  it('round-trips a chunk, also from an unaligned view', () => {
    const data = encodeChunk([1000, 2000, 3000], [1.5, -2, 3.25]);
    const shifted = new Uint8Array(data.length + 3);
    shifted.set(data, 3);
    const { ts, values } = decodeChunk(shifted.subarray(3), 3);
    expect([...ts]).toEqual([1000, 2000, 3000]);
    expect([...values]).toEqual([1.5, -2, 3.25]);
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
});
