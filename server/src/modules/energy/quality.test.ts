import { describe, expect, it } from 'vitest';
import { frequencyCheck, powerFactor, powerFactorPQ, thd, unbalance, vufFromLineVoltages } from './quality.ts';

const r = (x: number | null, d = 3) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);

describe('electrical quality from known phase values', () => {
  it.each([
    // mean 230: largest deviation 10 → 4.348 %
    { name: 'voltages 220/230/240', v: [220, 230, 240], pct: 4.348 },
    { name: 'balanced', v: [230, 230, 230], pct: 0 },
    // currents 100/80/90: mean 90, deviation 10 → 11.111 %
    { name: 'currents 100/80/90', v: [100, 80, 90], pct: 11.111 },
    { name: 'no load', v: [0, 0, 0], pct: null },
  ])('NEMA unbalance: $name', ({ v, pct }) => expect(r(unbalance(v[0]!, v[1]!, v[2]!))).toBe(pct));

  it('IEC VUF is 0 for balanced line voltages and matches the sequence components of a known case', () => {
    expect(r(vufFromLineVoltages(400, 400, 400))).toBe(0);
    // Line voltages 400, 390, 410 V: V2/V1 of the triangle's symmetrical components, computed apart, is 2.888 %.
    expect(r(vufFromLineVoltages(400, 390, 410), 2)).toBe(2.89);
  });

  it.each([
    { p: 80, s: 100, pf: 0.8 },
    { p: 0, s: 0, pf: null },
  ])('PF = P/S: $p kW / $s kVA', ({ p, s, pf }) => expect(r(powerFactor(p, s))).toBe(pf));

  it('PF from P and Q, signed by Q', () => {
    expect(r(powerFactorPQ(80, 60))).toBe(0.8);
    expect(r(powerFactorPQ(80, -60))).toBe(-0.8);
  });

  it('THD from harmonics: 3rd 10 V and 5th 5 V on 230 V → 4.861 %', () => {
    expect(r(thd(230, [10, 5]))).toBe(4.861);
  });

  it('frequency inside ±0.2 Hz', () => {
    expect(frequencyCheck(50.15).ok).toBe(true);
    expect(frequencyCheck(49.7).ok).toBe(false);
  });
});
