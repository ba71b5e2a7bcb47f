// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { alphaAt, colourOf, heatPixels, idwAt, legendStops, reachPx } from './idw.ts';

describe('heat map interpolation', () => {
  it('answers a sensor’s own value on it and the weighted mean between two', () => {
    const sensors = [
      { x: 0, y: 0, value: 20 },
      { x: 100, y: 0, value: 30 },
    ];
    expect(idwAt(sensors, 0, 0)).toEqual({ value: 20, nearest: 0 });
    expect(idwAt(sensors, 50, 0)?.value).toBeCloseTo(25);
    // Closer to the warm sensor: warmer, by inverse squared distance (1/25² vs 1/75²: 9 to 1).
    expect(idwAt(sensors, 75, 0)?.value).toBeCloseTo((20 * 1 + 30 * 9) / 10);
  });

  it('leaves stale sensors out, and knows nothing without a fresh one', () => {
    expect(idwAt([{ x: 0, y: 0, value: null }], 10, 10)).toBeNull();
    expect(
      idwAt(
        [
          { x: 0, y: 0, value: null },
          { x: 100, y: 0, value: 24 },
        ],
        0,
        0,
      )?.value,
    ).toBe(24);
  });

  it('colours on the fixed scale, clamped at its ends', () => {
    expect(colourOf(-5)).toEqual([...legendStops[0]!.rgb]);
    expect(colourOf(50)).toEqual([...legendStops[legendStops.length - 1]!.rgb]);
    expect(colourOf(22)).toEqual([116, 196, 118]);
    expect(colourOf(20)).toEqual([93, 157, 149]);
  });

  it('fades out with distance from the nearest fresh sensor', () => {
    expect(alphaAt(0)).toBeCloseTo(0.55);
    expect(alphaAt(reachPx)).toBe(0);
    expect(alphaAt(reachPx / 2)).toBeGreaterThan(alphaAt(reachPx * 0.9));
    const px = heatPixels([{ x: 4, y: 4, value: 35 }], 100, 1, 8);
    expect([...px.slice(0, 4)]).toEqual([165, 0, 38, 140]);
    // Cell 99 is 792 px away: transparent.
    expect(px[99 * 4 + 3]).toBe(0);
  });
});
