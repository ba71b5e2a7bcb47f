import { describe, expect, it } from 'vitest';
import { binMeans, chunkSeconds, oneDecimal } from './curve.ts';

describe('home curve helpers', () => {
  it('averages points into buckets of the chosen interval', () => {
    const points = [
      { ts: 0, value: 1 },
      { ts: 60, value: 3 },
      { ts: 120, value: 10 },
      { ts: 3599, value: 20 },
    ];
    expect(binMeans(points, 120)).toEqual([
      { ts: 0, value: 2 },
      { ts: 120, value: 10 },
      { ts: 3480, value: 20 },
    ]);
    expect(binMeans(points, 3600)).toEqual([{ ts: 0, value: 8.5 }]);
  });
  it('keeps the store buckets within the interval', () => {
    // 1000 points are 500 buckets of min and max: 500 two-minute buckets are 60 000 s.
    expect(chunkSeconds(120)).toBe(60_000);
  });
  it('rounds to one decimal', () => {
    expect(oneDecimal(23.456)).toBe(23.5);
    expect(oneDecimal(-0.04)).toBe(-0);
  });
});
