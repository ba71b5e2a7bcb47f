import { describe, expect, it } from 'vitest';
import { formatBytes, formatSeconds, hostReasonKey } from './format.ts';

describe('system page formats', () => {
  it('sizes with a unit, durations in days, hours and minutes, a text key for each host reason', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(783_155)).toBe('764.8 KB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB');
    const t = ((_key: string, o: { days: number; hours: number; minutes: number }) =>
      `${o.days}/${o.hours}/${o.minutes}`) as unknown as Parameters<typeof formatSeconds>[1];
    expect(formatSeconds(90_061, t)).toBe('1/1/1');
    expect(hostReasonKey('binaryMissing')).toBe('systemUi.reason.binaryMissing');
    expect(hostReasonKey('notPermitted')).toBe('systemUi.reason.notPermitted');
    expect(hostReasonKey('noLogSource')).toBe('systemUi.reason.noLogSource');
  });
});
