import { describe, expect, it } from 'vitest';
import { rootFontSize } from './root-font.ts';

describe('root font size (000 §9)', () => {
  it.each([
    [1920, 100],
    [1366, 71.14583333333333],
    [960, 50],
    [3840, 200],
    [7680, 200],
  ])('window %i px → %f px', (width, size) => {
    expect(rootFontSize(width)).toBeCloseTo(size, 6);
  });
});
