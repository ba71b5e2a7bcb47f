import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { compareShift, rangeBounds } from './time-ranges.ts';

// Wednesday 2026-03-18 15:30:00 local time.
const now = dayjs('2026-03-18T15:30:00').valueOf();
const t2 = Math.floor(now / 1000);
const local = (s: string) => dayjs(s).unix();

describe('curve time ranges', () => {
  it('calendar ranges start at the local start of the day, Monday, month and year', () => {
    expect(rangeBounds('today', now)).toEqual([local('2026-03-18T00:00:00'), t2]);
    expect(rangeBounds('week', now)).toEqual([local('2026-03-16T00:00:00'), t2]);
    expect(rangeBounds('month', now)).toEqual([local('2026-03-01T00:00:00'), t2]);
    expect(rangeBounds('year', now)).toEqual([local('2026-01-01T00:00:00'), t2]);
  });

  it('a Sunday belongs to the week that began on the Monday before', () => {
    const sunday = dayjs('2026-03-22T10:00:00').valueOf();
    expect(rangeBounds('week', sunday)[0]).toBe(local('2026-03-16T00:00:00'));
  });

  it('rolling ranges end now', () => {
    expect(rangeBounds('last4h', now)).toEqual([t2 - 4 * 3600, t2]);
    expect(rangeBounds('last24h', now)).toEqual([t2 - 86_400, t2]);
    expect(rangeBounds('last3d', now)).toEqual([t2 - 3 * 86_400, t2]);
    expect(rangeBounds('last7d', now)).toEqual([t2 - 7 * 86_400, t2]);
    expect(rangeBounds('custom', now, [100, 200])).toEqual([100, 200]);
  });

  it('the compared period is the previous calendar period or the previous span', () => {
    const [m1, m2] = rangeBounds('month', now);
    expect(m1 - compareShift('month', m1, m2)).toBe(local('2026-02-01T00:00:00'));
    const [y1, y2] = rangeBounds('year', now);
    expect(y1 - compareShift('year', y1, y2)).toBe(local('2025-01-01T00:00:00'));
    const [w1, w2] = rangeBounds('week', now);
    expect(w1 - compareShift('week', w1, w2)).toBe(local('2026-03-09T00:00:00'));
    expect(compareShift('last7d', t2 - 7 * 86_400, t2)).toBe(7 * 86_400);
  });
});
