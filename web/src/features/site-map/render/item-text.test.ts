// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { itemText } from './component-view.tsx';

const item = (fields: Partial<Parameters<typeof itemText>[0]>) => ({
  item_id: 1,
  name: 't',
  item_cell_name: 'temp1',
  value: 23.456,
  unit: '°C',
  decimals: 1,
  purpose: '' as const,
  info: '',
  alarm: false,
  ...fields,
});

describe('the /map Items box', () => {
  it('shows a value with its display decimals and unit', () => {
    expect(itemText(item({}))).toBe('23.5 °C');
    expect(itemText(item({ value: 230.100006, unit: 'V', decimals: 2 }))).toBe('230.10 V');
    expect(itemText(item({ value: 12, unit: 'kWh', decimals: null }))).toBe('12 kWh');
  });

  it('shows a bare value without a unit, a dash without a value, and a state text as it is', () => {
    expect(itemText(item({ unit: '', decimals: null }))).toBe('23.456');
    expect(itemText(item({ value: null }))).toBe('—');
    expect(itemText(item({ info: '正常', value: 1 }))).toBe('正常');
  });
});
