import { describe, expect, it } from 'vitest';
import { popupToShow } from './popup.ts';

describe('trial pop-up (000 §4.6)', () => {
  const trial = (remain_days: number) => ({ status: 'trial' as const, remain_days });
  it('shows at most once a day', () => {
    expect(popupToShow(trial(20), 1, null, '2026-01-05')).toBe('reminder');
    expect(popupToShow(trial(20), 1, '2026-01-05', '2026-01-05')).toBeNull();
    expect(popupToShow(trial(19), 1, '2026-01-05', '2026-01-06')).toBe('reminder');
  });
  it('daily in the last 3 days, or never', () => {
    expect(popupToShow(trial(4), 2, null, 'd')).toBeNull();
    expect(popupToShow(trial(3), 2, null, 'd')).toBe('reminder');
    expect(popupToShow(trial(3), 3, null, 'd')).toBeNull();
  });
  it('alerts when less than a day is left, and when expired; never when activated', () => {
    expect(popupToShow(trial(0), 2, null, 'd')).toBe('expiring');
    expect(popupToShow({ status: 'expired', remain_days: 0 }, 1, null, 'd')).toBe('expired');
    expect(popupToShow({ status: 'activated', remain_days: -1 }, 1, null, 'd')).toBeNull();
  });
});
