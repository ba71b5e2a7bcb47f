import { type ModbusDataType, modbusByteOrders } from '@sitewatch/contract/monitoring';
import { describe, expect, it } from 'vitest';
import { scaleValue } from './driver.ts';
import { decodeRegisters, encodeRegisters, float32Value, planReads } from './drivers/modbus-common.ts';

const bytesOf = (regs: number[]) => {
  const bytes = Buffer.alloc(regs.length * 2);
  regs.forEach((r, i) => {
    bytes.writeUInt16BE(r, i * 2);
  });
  return bytes;
};

describe('modbus registers', () => {
  const values: Array<[ModbusDataType, number]> = [
    ['int16', -123],
    ['uint16', 65535],
    ['int32', -70000],
    ['uint32', 3_000_000_000],
    ['int64', -5_000_000_000_123],
    ['uint64', 2 ** 53 - 1],
    ['float32', 229.5],
    ['float64', 230.100006],
  ];
  for (const byte_order of modbusByteOrders) {
    it.each(values)(`%s in ${byte_order} round-trips %d`, (data_type, value) => {
      const regs = encodeRegisters(value, { data_type, byte_order });
      expect(decodeRegisters(bytesOf(regs), 0, { data_type, byte_order })).toBe(value);
    });
  }

  it('a float32 reads as the shortest decimal that is the same float32, a float64 as it is', () => {
    for (const v of [230.1, 0.1, 4e-7, 3.4e38, -1.5, 123456.79]) {
      const regs = encodeRegisters(v, { data_type: 'float32' });
      expect(decodeRegisters(bytesOf(regs), 0, { data_type: 'float32' })).toBe(v);
    }
    // What rounding to 6 decimals made 230.123457 and 0.
    for (const v of [230.123456789, 4e-7]) {
      expect(decodeRegisters(bytesOf(encodeRegisters(v, { data_type: 'float64' })), 0, { data_type: 'float64' })).toBe(
        v,
      );
    }
    expect(float32Value(Math.fround(230.1))).toBe(230.1);
    expect([float32Value(Number.NaN), float32Value(Number.POSITIVE_INFINITY)]).toEqual([Number.NaN, Infinity]);
  });

  it('scales without rounding; a decimal scale divides by its whole inverse', () => {
    expect(scaleValue(2351, 0.1)).toBe(235.1);
    expect(2351 * 0.1).not.toBe(235.1);
    expect(scaleValue(1_234_567_891_234, 0.001)).toBe(1_234_567_891.234);
    expect(scaleValue(4, 1e-7)).toBe(4e-7);
    expect(scaleValue(3, 1e-5)).toBe(3e-5);
    expect(scaleValue(230.123456789, 1)).toBe(230.123456789);
    expect(scaleValue(7, 2.5)).toBe(17.5);
    expect(scaleValue(-3, 0.5)).toBe(-1.5);
    expect(scaleValue(12, 10)).toBe(120);
  });

  it('names the four byte orders of 0x11223344 as a device sends them', () => {
    const wire = (byte_order: (typeof modbusByteOrders)[number]) =>
      encodeRegisters(0x11223344, { data_type: 'uint32', byte_order }).map((r) => r.toString(16).padStart(4, '0'));
    expect(wire('ABCD')).toEqual(['1122', '3344']);
    expect(wire('CDAB')).toEqual(['3344', '1122']);
    expect(wire('BADC')).toEqual(['2211', '4433']);
    expect(wire('DCBA')).toEqual(['4433', '2211']);
  });

  it('reads a bit of a register, or the register as a flag', () => {
    const bytes = bytesOf([0b1010]);
    expect(decodeRegisters(bytes, 0, { data_type: 'bit', bit: 1 })).toBe(1);
    expect(decodeRegisters(bytes, 0, { data_type: 'bit', bit: 2 })).toBe(0);
    expect(decodeRegisters(bytes, 0, { data_type: 'bit', bit: null })).toBe(1);
  });

  const item = (id: number, fn: 1 | 3 | 4, register: number, data_type: ModbusDataType) => ({
    id,
    value_type: 1 as const,
    source: {
      kind: 'modbus' as const,
      function: fn,
      register,
      data_type,
      byte_order: 'ABCD' as const,
      bit: null,
      scale: 1,
    },
  });
  const points = [item(1, 3, 0, 'int16'), item(2, 3, 4, 'float32'), item(3, 3, 200, 'int16'), item(4, 4, 0, 'int16')];
  const plan = { modbus_merge: true, modbus_merge_gap: 8, modbus_max_block: 100, modbus_address_base: 0 as const };

  it('reads neighbouring registers of one function together within the gap', () => {
    expect(planReads(points, plan).spans.map((s) => [s.fn, s.start, s.end])).toEqual([
      [3, 0, 6],
      [3, 200, 201],
      [4, 0, 1],
    ]);
    // The default gap 0 merges adjacent points only.
    expect(planReads(points, { ...plan, modbus_merge_gap: 0 }).spans).toHaveLength(4);
  });

  it('reads every point alone with merging off, and limits the block length', () => {
    const adjacent = [item(1, 3, 0, 'int16'), item(2, 3, 1, 'int16'), item(3, 3, 2, 'float64')];
    expect(planReads(adjacent, { ...plan, modbus_merge: false }).spans).toHaveLength(3);
    expect(planReads(adjacent, { ...plan, modbus_max_block: 2 }).spans.map((s) => [s.start, s.end])).toEqual([
      [0, 2],
      [2, 6],
    ]);
  });

  it('subtracts a 1-based address base and refuses register 0 there', () => {
    const { spans, invalid } = planReads([item(1, 3, 1, 'int16'), item(2, 3, 0, 'int16')], {
      ...plan,
      modbus_address_base: 1,
    });
    expect(spans.map((s) => [s.start, s.end])).toEqual([[0, 1]]);
    expect(invalid.get(2)).toBe('register 0 does not exist with 1-based addressing');
  });
});
