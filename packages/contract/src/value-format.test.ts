import { describe, expect, it } from 'vitest';
import { formatValue } from './value-format.ts';

describe('formatValue', () => {
  it("shows the item's display decimals", () => {
    expect(formatValue(230.100006, { decimals: 2, unit: 'V' })).toBe('230.10 V');
    expect(formatValue(24, { decimals: 1, unit: '℃' })).toBe('24.0 ℃');
    expect(formatValue(1234.5, { decimals: 0 })).toBe('1235');
  });
  it('shows the value as read without a setting, or rounded to the most decimals a page allows', () => {
    expect(formatValue(230.100006, { unit: 'V' })).toBe('230.100006 V');
    expect(formatValue(230.100006, { maxDecimals: 2 })).toBe('230.1');
    expect(formatValue(230.100006, { decimals: 3, maxDecimals: 2 })).toBe('230.100');
  });
  it('shows a dash for no value and 0 for a small negative rounded away', () => {
    expect(formatValue(null, { unit: 'V' })).toBe('—');
    expect(formatValue(Number.NaN)).toBe('—');
    expect(formatValue(-0.001, { decimals: 2 })).toBe('0.00');
  });
});
