import { describe, expect, it } from 'vitest';
import { checkWrite, rawRangeOf } from './ranges.ts';
import type { ItemSource } from './sources.ts';

const holding = (data_type: string, scale = 1) =>
  ({ kind: 'modbus', function: 3, register: 0, data_type, byte_order: 'ABCD', bit: null, scale }) as ItemSource;

describe('write ranges', () => {
  it('reads the range from the data type name, byte-order suffixes and new widths included', () => {
    expect(rawRangeOf('int16')).toMatchObject({ min: -32768, max: 32767, integer: true });
    expect(rawRangeOf('uint16')).toMatchObject({ min: 0, max: 65535 });
    expect(rawRangeOf('uint32_le')).toMatchObject({ min: 0, max: 4294967295 });
    expect(rawRangeOf('int8')).toMatchObject({ min: -128, max: 127 });
    // Above 2^53 the nearest double below the true maximum, so the maximum itself stays writable.
    expect(rawRangeOf('uint64').max).toBe(2 ** 64 - 2048);
    expect(rawRangeOf('int64')).toMatchObject({ min: -(2 ** 63), max: 2 ** 63 - 1024 });
    expect(rawRangeOf('float32')).toMatchObject({ max: 3.4028234663852886e38, integer: false });
    expect(rawRangeOf('float64').max).toBe(Number.MAX_VALUE);
    expect(rawRangeOf('bit')).toMatchObject({ min: 0, max: 1 });
  });

  it('checks the value divided by the scale, rounded for integers, and names the range in item units', () => {
    expect(checkWrite(holding('uint16'), 70000)).toEqual({
      ok: false,
      type: 'uint16',
      min: 0,
      max: 65535,
      binary: false,
    });
    expect(checkWrite(holding('uint16'), -5)).toMatchObject({ ok: false });
    expect(checkWrite(holding('uint16'), 65535.4)).toEqual({ ok: true });
    expect(checkWrite(holding('uint16'), 65535.5)).toMatchObject({ ok: false });
    expect(checkWrite(holding('uint16', 0.1), 6553.5)).toEqual({ ok: true });
    expect(checkWrite(holding('uint16', 0.1), 6553.6)).toMatchObject({ ok: false, min: 0, max: 6553.5 });
    // A negative scale turns the range round.
    expect(checkWrite(holding('uint16', -1), 5)).toMatchObject({ ok: false, min: -65535, max: 0 });
    expect(checkWrite(holding('int16'), -32769)).toMatchObject({ ok: false, min: -32768, max: 32767 });
    expect(checkWrite(holding('float32'), 3.5e38)).toMatchObject({ ok: false });
    expect(checkWrite(holding('float32'), Number.NaN)).toMatchObject({ ok: false });
  });

  it('takes 0 or 1 for coils and bits, whatever the scale', () => {
    const coil = { kind: 'modbus', function: 1, register: 0, data_type: 'bit', scale: 10 } as ItemSource;
    expect(checkWrite(coil, 1)).toEqual({ ok: true });
    expect(checkWrite(coil, 0.5)).toEqual({ ok: false, type: 'coil', min: 0, max: 1, binary: true });
    expect(checkWrite(holding('bit'), 2)).toMatchObject({ ok: false, binary: true });
  });

  it('bounds SNMP SETs to Integer32 and leaves MQTT and the simulator to the setpoint limit', () => {
    const oid = { kind: 'snmp', oid: '1.3.6.1.4.1.1.0', scale: 0.1 } as ItemSource;
    expect(checkWrite(oid, 214748364.7)).toEqual({ ok: true });
    expect(checkWrite(oid, 214748364.8)).toMatchObject({ ok: false, type: 'Integer32' });
    const mqtt = { kind: 'mqtt', topic: 'a', json_path: '', scale: 1, command_topic: 'b' } as ItemSource;
    expect(checkWrite(mqtt, 1e30)).toEqual({ ok: true });
    expect(checkWrite(mqtt, Number.POSITIVE_INFINITY)).toMatchObject({ ok: false });
  });
});
