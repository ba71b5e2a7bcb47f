import { describe, expect, it } from 'vitest';
import type { TariffInput, TariffMode } from '../energy.ts';
import { tariffProblems } from './tariff.ts';

const tariff = (patch: Partial<TariffInput>): TariffInput => ({
  name: 't',
  summer_months: [],
  gradients: [],
  slots: [],
  ...patch,
});
const g = (start: number, end: number | null, season: 'all' | 'summer' | 'non_summer' = 'all') => ({
  season,
  start,
  end,
  price: 0.5,
});
const s = (start: string, end: string, season: 'all' | 'summer' | 'non_summer' = 'all') => ({
  season,
  start,
  end,
  band: 'flat' as const,
  price: 0.5,
});
const keys = (mode: TariffMode, input: TariffInput) =>
  tariffProblems(mode, input).map((p) => `${p.path} ${p.key.replace('energy.validation.', '')}`);

describe('tariffProblems (002 §5.1)', () => {
  it.each<[string, TariffMode, Partial<TariffInput>, string[]]>([
    ['a stair needs a gradient', 'stair', {}, ['gradients gradientRequired']],
    ['an end below its start', 'stair', { gradients: [g(0, 100), g(100, 50)] }, ['gradients.1.end endBelowStart']],
    ['tiers from 0, open last', 'stair', { gradients: [g(0, 100), g(100, null)] }, []],
    ['a hole between tiers', 'stair', { gradients: [g(0, 100), g(120, null)] }, ['gradients gradientsContiguous']],
    ['a closed last tier', 'stair', { gradients: [g(0, 100)] }, ['gradients gradientsOpenEnd']],
    ['slots in a stair', 'stair', { gradients: [g(0, null)], slots: [s('00:00', '24:00')] }, ['slots noSlots']],
    ['a day covered across midnight', 'time_share', { slots: [s('08:00', '22:00'), s('22:00', '08:00')] }, []],
    ['an hour left out', 'time_share', { slots: [s('08:00', '22:00'), s('23:00', '08:00')] }, ['slots slotsCoverDay']],
    [
      'gradients in a time-share',
      'time_share',
      { gradients: [g(0, null)], slots: [s('00:00', '24:00')] },
      ['gradients noGradients'],
    ],
    [
      'summer months want seasons',
      'stair_time_share',
      { summer_months: [7], gradients: [g(0, null)], slots: [s('00:00', '24:00', 'summer')] },
      ['gradients.0.season season'],
    ],
    [
      'each season whole',
      'stair_time_share',
      {
        summer_months: [7, 8],
        gradients: [g(0, null, 'summer'), g(0, null, 'non_summer')],
        slots: [s('00:00', '24:00', 'summer'), s('00:00', '12:00', 'non_summer')],
      },
      ['slots slotsCoverDay'],
    ],
  ])('%s', (_name, mode, patch, expected) => {
    expect(keys(mode, tariff(patch))).toEqual(expected);
  });
});
