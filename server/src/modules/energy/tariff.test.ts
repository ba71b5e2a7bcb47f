import type { TariffInput } from '@sitewatch/contract/energy';
import { describe, expect, it } from 'vitest';
import { costHours, type Tariff, type TariffPeriod, tariffProblems, toCents, zoneClock } from './tariff.ts';

const shanghai = zoneClock('Asia/Shanghai');
/** Epoch seconds of a Shanghai wall-clock hour (UTC+8, no DST). */
const local = (y: number, mo: number, d: number, h: number) => Date.UTC(y, mo - 1, d, h) / 1000 - 8 * 3600;
const bill = (hours: Array<{ ts: number; kwh: number }>, periods: TariffPeriod[]) =>
  toCents(costHours(hours, periods, shanghai).reduce((s, h) => s + (h.cost ?? 0), 0));
const from0 = (tariff: Tariff): TariffPeriod[] => [{ validFrom: 0, tariff }];

const stair: Tariff = {
  mode: 'stair',
  summer_months: [],
  gradients: [
    { season: 'all', start: 0, end: 100, price: 0.5 },
    { season: 'all', start: 100, end: null, price: 0.8 },
  ],
  slots: [],
};
const tou: Tariff = {
  mode: 'time_share',
  summer_months: [],
  gradients: [],
  slots: [
    { season: 'all', start: '08:30', end: '22:00', band: 'peak', price: 1 },
    { season: 'all', start: '22:00', end: '08:30', band: 'valley', price: 0.3 },
  ],
};
const flat = (price: number): Tariff => ({
  mode: 'time_share',
  summer_months: [],
  gradients: [],
  slots: [{ season: 'all', start: '00:00', end: '24:00', band: 'flat', price }],
});
const stairTou: Tariff = {
  mode: 'stair_time_share',
  summer_months: [7, 8],
  gradients: [
    { season: 'summer', start: 0, end: 200, price: 0 },
    { season: 'summer', start: 200, end: null, price: 0.3 },
    { season: 'non_summer', start: 0, end: 100, price: 0 },
    { season: 'non_summer', start: 100, end: null, price: 0.3 },
  ],
  slots: [
    { season: 'summer', start: '00:00', end: '12:00', band: 'flat', price: 0.6 },
    { season: 'summer', start: '12:00', end: '00:00', band: 'peak', price: 1.2 },
    { season: 'non_summer', start: '00:00', end: '00:00', band: 'flat', price: 0.6 },
  ],
};

describe('bills computed by hand equal the product’s to the fen', () => {
  const cases: Array<{
    name: string;
    hours: Array<{ ts: number; kwh: number }>;
    periods: TariffPeriod[];
    cents: number;
  }> = [
    {
      // 10 h × 15 kWh = 150 kWh: 100 × 0.5 + 50 × 0.8 = 90.00; hour 7 crosses the edge (90 → 105).
      name: 'stair: the tier edge crossed inside an hour',
      hours: Array.from({ length: 10 }, (_, i) => ({ ts: local(2026, 3, 1, i), kwh: 15 })),
      periods: from0(stair),
      cents: 9000,
    },
    {
      // Stair counts per calendar month: 80 kWh in March and 80 in April stay in the first tier.
      name: 'stair: the month starts the tiers again',
      hours: [
        { ts: local(2026, 3, 31, 23), kwh: 80 },
        { ts: local(2026, 4, 1, 0), kwh: 80 },
      ],
      periods: from0(stair),
      cents: 8000,
    },
    {
      // 08:00–09:00 with 6 kWh: 30 min valley 3 × 0.3 + 30 min peak 3 × 1.0 = 3.90; 12:00 2 kWh × 1 = 2.00.
      name: 'time-share: an hour split at 08:30 between valley and peak',
      hours: [
        { ts: local(2026, 3, 2, 8), kwh: 6 },
        { ts: local(2026, 3, 2, 12), kwh: 2 },
      ],
      periods: from0(tou),
      cents: 590,
    },
    {
      // June 30 22:00 (non-summer, flat 0.6): 120 kWh = 100 × 0.6 + 20 × 0.9 = 78.00;
      // July 1 00:00 (summer, new month, flat 0.6, first tier): 120 × 0.6 = 72.00;
      // July 1 12:00 (summer peak 1.2): 100 kWh, crossing 200 at 80: 80 × 1.2 + 20 × 1.5 = 126.00.
      name: 'stair + time-share: the summer boundary and a tier crossed inside a peak period',
      hours: [
        { ts: local(2026, 6, 30, 22), kwh: 120 },
        { ts: local(2026, 7, 1, 0), kwh: 120 },
        { ts: local(2026, 7, 1, 12), kwh: 100 },
      ],
      periods: from0(stairTou),
      cents: 7800 + 7200 + 12_600,
    },
    {
      // 0.5 until Jan 15 00:00, then 0.8: 10 kWh each side = 5.00 + 8.00; the hour before any tariff is not costed.
      name: 'a tariff change mid-month',
      hours: [
        { ts: local(2025, 12, 31, 23), kwh: 10 },
        { ts: local(2026, 1, 14, 23), kwh: 10 },
        { ts: local(2026, 1, 15, 0), kwh: 10 },
      ],
      periods: [
        { validFrom: local(2026, 1, 1, 0), tariff: flat(0.5) },
        { validFrom: local(2026, 1, 15, 0), tariff: flat(0.8) },
      ],
      cents: 1300,
    },
    {
      // 0.6523 × 1.234 kWh = 0.8049382 → 0.80 (rounded once, at the end; floats would drift over a year).
      name: 'four-decimal prices and fractional kWh round once',
      hours: Array.from({ length: 1000 }, (_, i) => ({ ts: local(2026, 5, 1, 0) + i * 3600, kwh: 1.234 })),
      periods: from0(flat(0.6523)),
      cents: 80_494,
    },
  ];
  for (const c of cases) it(c.name, () => expect(bill(c.hours, c.periods)).toBe(c.cents));

  it('an hour before the first tariff has no cost', () => {
    const [h] = costHours([{ ts: 10, kwh: 1 }], [{ validFrom: 3600, tariff: flat(1) }], shanghai);
    expect(h!.cost).toBeNull();
  });
});

describe('tariff rules (002 §5.1)', () => {
  const base: TariffInput = { name: 'x', summer_months: [], gradients: [], slots: [] };
  const cases: Array<{ name: string; mode: Tariff['mode']; input: Partial<TariffInput>; keys: string[] }> = [
    { name: 'a stair needs a gradient', mode: 'stair', input: {}, keys: ['gradientRequired'] },
    {
      name: 'end below start',
      mode: 'stair',
      input: { gradients: [{ season: 'all', start: 100, end: 50, price: 1 }] },
      keys: ['endBelowStart'],
    },
    { name: 'a valid stair', mode: 'stair', input: { gradients: stair.gradients }, keys: [] },
    {
      name: 'tiers with a hole',
      mode: 'stair',
      input: {
        gradients: [
          { season: 'all', start: 0, end: 100, price: 1 },
          { season: 'all', start: 150, end: null, price: 1 },
        ],
      },
      keys: ['gradientsContiguous'],
    },
    { name: 'a valid time-share', mode: 'time_share', input: { slots: tou.slots }, keys: [] },
    {
      name: 'time slots leaving a gap',
      mode: 'time_share',
      input: { slots: [{ season: 'all', start: '08:00', end: '22:00', band: 'peak', price: 1 }] },
      keys: ['slotsCoverDay'],
    },
    { name: 'a valid stair + time-share with seasons', mode: 'stair_time_share', input: stairTou, keys: [] },
    {
      name: 'summer months given but a slot for all seasons',
      mode: 'stair_time_share',
      input: { ...stairTou, slots: [{ season: 'all', start: '00:00', end: '00:00', band: 'flat', price: 1 }] },
      keys: ['season'],
    },
  ];
  for (const c of cases)
    it(c.name, () =>
      expect(tariffProblems(c.mode, { ...base, ...c.input }).map((p) => p.key.split('.').pop())).toEqual(c.keys),
    );
});
