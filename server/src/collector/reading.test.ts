import { describe, expect, it } from 'vitest';
import { valueAtPath } from './drivers/mqtt.ts';
import { checkReading, parseNumberText } from './reading.ts';

describe('the one check of every reading', () => {
  it.each([
    [Number.NaN, 'value is not a number (NaN)'],
    [Number.POSITIVE_INFINITY, 'value is infinite (+Infinity)'],
    [Number.NEGATIVE_INFINITY, 'value is infinite (-Infinity)'],
    ['12', 'value is not a number (string)'],
    [null, 'value is not a number (null)'],
    [undefined, 'value is not a number (undefined)'],
    [{}, 'value is not a number (object)'],
    [true, 'value is not a number (boolean)'],
  ])('refuses %s with its reason', (value, reason) => {
    expect(checkReading(value)).toEqual({ ok: false, reason });
  });

  it('passes finite numbers and bigints, -0 as 0', () => {
    expect(checkReading(23.5)).toEqual({ ok: true, value: 23.5 });
    expect(checkReading(-0)).toEqual({ ok: true, value: 0 });
    expect(checkReading(Number.MAX_VALUE)).toEqual({ ok: true, value: Number.MAX_VALUE });
    expect(checkReading(2n ** 40n)).toEqual({ ok: true, value: 2 ** 40 });
  });
});

describe('strict number text', () => {
  it.each([
    ['7.5', 7.5],
    [' 7.5 ', 7.5],
    ['\t-12\n', -12],
    ['+3', 3],
    ['1e3', 1000],
    ['2.5E-2', 0.025],
    ['.5', 0.5],
    ['12.', 12],
    ['0', 0],
  ])('reads %j as %d', (text, value) => {
    expect(parseNumberText(text)).toEqual({ ok: true, value });
  });

  it.each(['12,5', '0x1A', '7 V', '', ' ', 'NaN', 'Infinity', '-', '.', '1e', '1.2.3', '1_000', '٣'])(
    'refuses %j with the text in the reason',
    (text) => {
      expect(parseNumberText(text)).toEqual({ ok: false, reason: `text is not a number: ${JSON.stringify(text)}` });
    },
  );

  it('refuses a number too large for a double', () => {
    expect(parseNumberText('1e999')).toEqual({ ok: false, reason: 'number out of range: "1e999"' });
  });
});

describe('MQTT payload paths', () => {
  it('reads numbers, booleans and number text at a path; refuses the rest with the reason', () => {
    expect(valueAtPath({ data: { temp: 21.5 } }, 'data.temp')).toEqual({ ok: true, value: 21.5 });
    expect(valueAtPath({ on: true }, 'on')).toEqual({ ok: true, value: 1 });
    expect(valueAtPath(' 7.5 ', '')).toEqual({ ok: true, value: 7.5 });
    expect(valueAtPath({ v: '12,5' }, 'v')).toEqual({ ok: false, reason: 'text is not a number: "12,5"' });
    expect(valueAtPath('0x1A', '')).toEqual({ ok: false, reason: 'text is not a number: "0x1A"' });
    expect(valueAtPath({ v: 1 }, 'w')).toBeNull();
    expect(valueAtPath(5, 'v.w')).toBeNull();
    expect(valueAtPath({ v: { w: 1 } }, 'v')).toEqual({ ok: false, reason: 'value is not a number (object)' });
    expect(valueAtPath({ v: null }, 'v')).toEqual({ ok: false, reason: 'value is not a number (null)' });
  });
});
