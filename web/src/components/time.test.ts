import { describe, expect, it } from 'vitest';
import { formatTime } from './time.ts';

describe('formatTime', () => {
  it('shows epoch seconds as YYYY-MM-DD HH:mm:ss whatever the language', () => {
    const t = new Date(2026, 10, 23, 4, 27, 45).getTime() / 1000;
    expect(formatTime(t)).toBe('2026-11-23 04:27:45');
  });
  it('shows a dash, or what it is told, for no time', () => {
    expect(formatTime(0)).toBe('—');
    expect(formatTime(null, '')).toBe('');
  });
});
