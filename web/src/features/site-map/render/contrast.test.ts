// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  averageLuminance,
  contrastRatio,
  parseColour,
  relativeLuminance,
  sceneBackdrop,
  toneFor,
  toneOfColour,
  toneText,
} from './contrast.ts';

const rgba = (css: string) => parseColour(css)!;
/** `n` pixels of one colour, as ImageData's data. */
const pixels = (css: string, n = 16) => {
  const c = rgba(css);
  return Uint8ClampedArray.from({ length: 4 * n }, (_, i) => [c.r, c.g, c.b, Math.round(c.a * 255)][i % 4]!);
};
const backdrop = rgba(sceneBackdrop);

describe('label contrast', () => {
  it('reads CSS colours', () => {
    expect(parseColour('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColour('#0b1a2e')).toEqual({ r: 11, g: 26, b: 46, a: 1 });
    expect(parseColour('#00000080')?.a).toBeCloseTo(0.5, 2);
    expect(parseColour('rgba(0, 0, 0, 0.45)')).toEqual({ r: 0, g: 0, b: 0, a: 0.45 });
    expect(parseColour('rgb(255 255 255 / 50%)')).toEqual({ r: 255, g: 255, b: 255, a: 0.5 });
    expect(parseColour('red')).toBeNull();
  });

  it('measures luminance and contrast as WCAG 2 does', () => {
    expect(relativeLuminance(rgba('#000'))).toBe(0);
    expect(relativeLuminance(rgba('#fff'))).toBeCloseTo(1, 10);
    expect(contrastRatio(rgba('#000'), rgba('#fff'))).toBeCloseTo(21, 5);
    // The old default, white on a light floor plan: nearly invisible.
    expect(contrastRatio(rgba('#e6f4ff'), rgba('#f5f5f5'))).toBeLessThan(1.2);
  });

  it('picks dark labels on a light background and light ones on a dark one, each readable', () => {
    for (const [bg, tone] of [
      ['#ffffff', 'dark'],
      ['#f0f2f5', 'dark'],
      ['#d9d9d9', 'dark'],
      ['#8c8c8c', 'dark'],
      ['#595959', 'light'],
      ['#0b1a2e', 'light'],
      ['#000000', 'light'],
    ] as const) {
      const l = relativeLuminance(rgba(bg));
      expect(toneFor(l), bg).toBe(tone);
      // The chosen tone always reaches at least 4.5 : 1 (WCAG AA for text) on a flat background.
      expect(contrastRatio(rgba(toneText[toneFor(l)]), rgba(bg)), bg).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('averages an image’s pixels, transparent ones seen over the scene’s backdrop', () => {
    expect(averageLuminance(pixels('#ffffff'), backdrop)).toBeCloseTo(1, 5);
    // A fully transparent picture is the dark backdrop: light labels.
    const clear = averageLuminance(pixels('#ffffff00'), backdrop)!;
    expect(clear).toBeCloseTo(relativeLuminance(backdrop), 5);
    expect(toneFor(clear)).toBe('light');
    // Half white, half navy: the mean of the two.
    const half = Uint8ClampedArray.from([...pixels('#ffffff', 8), ...pixels('#0b1a2e', 8)]);
    expect(averageLuminance(half, backdrop)).toBeCloseTo((1 + relativeLuminance(backdrop)) / 2, 5);
    expect(toneFor(averageLuminance(half, backdrop)!)).toBe('dark');
    expect(averageLuminance(new Uint8ClampedArray(0), backdrop)).toBeNull();
  });

  it('takes the tone of a plain background colour, light when it cannot read it', () => {
    expect(toneOfColour('#0b1a2e')).toBe('light');
    expect(toneOfColour('#ffffff')).toBe('dark');
    expect(toneOfColour('var(--x)')).toBe('light');
  });
});
