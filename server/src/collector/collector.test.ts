import { describe, expect, it } from 'vitest';
import { type CollectorItem, evaluateItem } from './collector.ts';
import { decodeRegisters, encodeRegisters, planReads } from './drivers/modbus-common.ts';

const numeric = (over: Partial<CollectorItem> = {}): CollectorItem => ({
  id: 1,
  device_id: 1,
  value_type: 1,
  source: {
    kind: 'simulator',
    model: 'analog',
    base: 0,
    spread: 0,
    noise: 0,
    period_s: 60,
    fault_rate: 0,
    decimals: 0,
  },
  threshold_min: 10,
  threshold_max: 30,
  status_threshold: '',
  recovery_point: 1,
  overrun_point: 2,
  ...over,
});

describe('item state', () => {
  it('turns abnormal beyond the overrun point and normal only past the recovery point', () => {
    const item = numeric();
    expect(evaluateItem(item, 31, 1)).toBe(1); // inside max + overrun
    expect(evaluateItem(item, 32.5, 1)).toBe(2);
    expect(evaluateItem(item, 29.5, 2)).toBe(2); // not yet below max − recovery
    expect(evaluateItem(item, 28.5, 2)).toBe(1);
    expect(evaluateItem(item, 7.9, 1)).toBe(2);
  });
  it('compares status items with the status threshold', () => {
    const item = numeric({ value_type: 0, status_threshold: '1' });
    expect(evaluateItem(item, 1, 1)).toBe(2);
    expect(evaluateItem(item, 0, 2)).toBe(1);
  });
});

describe('modbus registers', () => {
  it.each([
    ['int16', -123],
    ['uint16', 65535],
    ['int32', -70000],
    ['uint32', 3_000_000_000],
    ['float32', 229.5],
    ['int32_le', -5],
    ['uint32_le', 123_456_789],
    ['float32_le', 12.25],
  ] as const)('%s round-trips %d', (type, value) => {
    const regs = encodeRegisters(value, type);
    const bytes = Buffer.alloc(regs.length * 2);
    regs.forEach((r, i) => {
      bytes.writeUInt16BE(r, i * 2);
    });
    expect(decodeRegisters(bytes, 0, type)).toBe(value);
  });
  it('reads neighbouring registers of one function together', () => {
    const item = (id: number, fn: 1 | 3 | 4, register: number, data_type: 'int16' | 'float32' | 'bool') => ({
      id,
      value_type: 1 as const,
      source: { kind: 'modbus' as const, function: fn, register, data_type, scale: 1 },
    });
    const spans = planReads([
      item(1, 3, 0, 'int16'),
      item(2, 3, 4, 'float32'),
      item(3, 3, 200, 'int16'),
      item(4, 4, 0, 'int16'),
    ]);
    expect(spans.map((s) => [s.fn, s.start, s.end])).toEqual([
      [3, 0, 6],
      [3, 200, 201],
      [4, 0, 1],
    ]);
  });
});
