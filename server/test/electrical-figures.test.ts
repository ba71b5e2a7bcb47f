import { defaultSafetyLimits } from '@sitewatch/contract/electrical-safety';
import { describe, expect, it } from 'vitest';
import { autoMapping, figuresOf, issuesOf, switchStateOf } from '../src/modules/electrical-safety/figures.ts';
import * as formulas from '../src/modules/energy/quality.ts';

const limits = defaultSafetyLimits;
const item = (id: number, cell: string, name = cell) => ({ id, name, item_cell_name: cell });

/** The pure part of electrical safety (docs/electrical-safety.md): mapping by cell names, figures, issues. */
describe('electrical figures', () => {
  it('reads roles and numbered switches from cell names, telling alike switch names apart', () => {
    const m = autoMapping([
      item(1, 'Ua'),
      item(2, 'UB'),
      item(3, 'uc'),
      item(4, 'FREQ'),
      item(5, 'UTHD'),
      item(6, 'SW2', '开关状态'),
      item(7, 'SW10', '开关状态'),
      item(8, 'SW1', '开关状态'),
      item(9, 'TEMP'),
    ]);
    expect(m.points).toMatchObject({ ua: 1, ub: 2, uc: 3, f: 4, thd_u: 5, ia: null, p: null });
    expect(m.switches).toEqual([
      { item_id: 8, name: '开关状态 SW1' },
      { item_id: 6, name: '开关状态 SW2' },
      { item_id: 7, name: '开关状态 SW10' },
    ]);
    expect(autoMapping([item(1, 'SW1', 'Main'), item(2, 'SW2', 'UPS')]).switches).toEqual([
      { item_id: 1, name: '' },
      { item_id: 2, name: '' },
    ]);
  });

  it.each([
    // [readings, expected figures (subset)]
    [
      { ua: 230, ub: 220, uc: 210 },
      { voltage_unbalance: 4.545, voltage_deviation: 4.545, vuf: null },
    ],
    [{ ia: 10, ib: 10, ic: 13 }, { current_unbalance: 18.182 }],
    [
      { pf: -0.85, p: 10, s: 20 },
      { pf: -0.85, pf_source: 'item' },
    ],
    [
      { p: 8, s: 10 },
      { pf: 0.8, pf_source: 'p_s' },
    ],
    [
      { p: 8, q: -6 },
      { pf: -0.8, pf_source: 'p_q' },
    ],
    [{ f: 49.7 }, { frequency: 49.7, frequency_deviation: -0.3 }],
    [{ uab: 400, ubc: 380, uca: 380 }, { voltage_unbalance: 3.448 }],
  ] as const)('figures of %o', (readings, expected) => {
    expect(figuresOf(readings, limits, formulas)).toMatchObject(expected);
  });

  it('gives the IEC unbalance from line voltages (CIGRÉ) and none without three values', () => {
    const f = figuresOf({ uab: 400, ubc: 380, uca: 380 }, limits, formulas);
    expect(f.vuf).toBeCloseTo(formulas.vufFromLineVoltages(400, 380, 380)!, 3);
    // V2/V1 is close to NEMA's 3.45 % at this small unbalance, but not equal.
    expect(f.vuf).toBeGreaterThan(3.4);
    expect(f.vuf).toBeLessThan(3.55);
    expect(figuresOf({ ua: 230, ub: 220 }, limits, formulas).voltage_unbalance).toBeNull();
  });

  it('names each figure beyond its limit', () => {
    const f = figuresOf(
      { ua: 245, ub: 220, uc: 220, ia: 10, ib: 10, ic: 10, pf: 0.7, f: 50.3, thd_u: 4, thd_i: 25 },
      limits,
      formulas,
    );
    expect(issuesOf(f, limits).map((i) => i.issue)).toEqual([
      'voltage',
      'voltage_unbalance',
      'thd_i',
      'pf',
      'frequency',
    ]);
    expect(issuesOf(figuresOf({ ua: 220, ub: 221, uc: 219, pf: 0.95, f: 50.1 }, limits, formulas), limits)).toEqual([]);
  });

  it('reads a switch item as closed, open or unknown', () => {
    expect(switchStateOf(1, 1)).toBe('on');
    expect(switchStateOf(0, 2)).toBe('off');
    expect(switchStateOf(1, 4)).toBe('unknown');
    expect(switchStateOf(null, 1)).toBe('unknown');
    expect(switchStateOf(0.5, 1)).toBe('unknown');
  });
});
