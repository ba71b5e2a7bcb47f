// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createComponent } from '../../../editor/model/records.ts';
import { defaultFilter, isDimmed } from './filter.ts';

describe('functional filter', () => {
  const device = createComponent('a', 'Cdefault', { device_id: 3 });
  it('dims only devices of a filtered category that is not ticked', () => {
    expect(isDimmed(device, 'ups', defaultFilter)).toBe(false);
    expect(isDimmed(device, 'ups', { mode: 'standard', kinds: ['th'] })).toBe(true);
    expect(isDimmed(device, 'temp_hum', { mode: 'standard', kinds: ['th'] })).toBe(false);
    // A category the filter does not name, or no device: never dimmed.
    expect(isDimmed(device, 'smoke', { mode: 'standard', kinds: [] })).toBe(false);
    expect(isDimmed(createComponent('b', 'VText'), undefined, { mode: 'standard', kinds: [] })).toBe(false);
  });
  it('dims a bound camera when 视频 is not ticked', () => {
    const camera = createComponent('c', 'Cdefault', { video_id: 9 });
    expect(isDimmed(camera, undefined, { mode: 'standard', kinds: ['th'] })).toBe(true);
    expect(isDimmed(camera, undefined, defaultFilter)).toBe(false);
  });
});
