import { describe, expect, it } from 'vitest';
import { curveWindow, formatSize, riskOf, signalLevel } from './dashboard.ts';

describe('dashboard rules', () => {
  it('risk level follows 000 §4.1 thresholds on the rounded percentage', () => {
    expect(riskOf(0, 0)).toEqual({ percent: 0, level: 'low' });
    expect(riskOf(5, 100)).toEqual({ percent: 5, level: 'low' });
    expect(riskOf(54, 1000)).toEqual({ percent: 5, level: 'low' }); // 5.4 rounds to 5
    expect(riskOf(55, 1000)).toEqual({ percent: 6, level: 'medium' });
    expect(riskOf(20, 100).level).toBe('medium');
    expect(riskOf(21, 100).level).toBe('high');
    expect(riskOf(50, 100).level).toBe('high');
    expect(riskOf(51, 100).level).toBe('serious');
  });
  it('signal level is 0 up to 65, then ceil((s − 65) / 7)', () => {
    expect(signalLevel(0)).toBe(0);
    expect(signalLevel(65)).toBe(0);
    expect(signalLevel(66)).toBe(1);
    expect(signalLevel(72)).toBe(1);
    expect(signalLevel(73)).toBe(2);
    expect(signalLevel(100)).toBe(5);
  });
  it('sizes are texts with a T, G, M, K or B suffix', () => {
    expect(formatSize(512)).toBe('512B');
    expect(formatSize(1536)).toBe('1.5K');
    expect(formatSize(8 * 1024 ** 3)).toBe('8.0G');
    expect(formatSize(3.5 * 1024 ** 4)).toBe('3.5T');
    expect(formatSize(-1)).toBe('0B');
  });
  it('curve ranges start where 000 §4.2 says (local time, weeks from Monday)', () => {
    const now = new Date(2024, 4, 15, 13, 30).getTime(); // Wednesday 15 May 2024 13:30
    const s = (d: Date) => Math.floor(d.getTime() / 1000);
    const t2 = Math.floor(now / 1000);
    expect(curveWindow(0, now)).toEqual({ t1: t2 - 4 * 3600, t2 });
    expect(curveWindow(1, now).t1).toBe(s(new Date(2024, 4, 15)));
    expect(curveWindow(2, now).t1).toBe(s(new Date(2024, 4, 13)));
    expect(curveWindow(3, now).t1).toBe(s(new Date(2024, 4, 1)));
    expect(curveWindow(4, now).t1).toBe(s(new Date(2024, 0, 1)));
    expect(curveWindow(5, now, { t1: 10, t2: 20 })).toEqual({ t1: 10, t2: 20 });
    expect(curveWindow(6, now).t1).toBe(t2 - 86_400);
    expect(curveWindow(7, now).t1).toBe(t2 - 3 * 86_400);
    expect(curveWindow(8, now).t1).toBe(t2 - 7 * 86_400);
    // A Sunday belongs to the week that began the Monday before.
    expect(curveWindow(2, new Date(2024, 4, 19, 8).getTime()).t1).toBe(s(new Date(2024, 4, 13)));
  });
});
