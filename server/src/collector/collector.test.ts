import { describe, expect, it } from 'vitest';
import { decodeRegisters, encodeRegisters, planReads } from './drivers/modbus-common.ts';

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
