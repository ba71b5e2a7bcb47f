import { describe, expect, it } from 'vitest';
import { type CounterOptions, counterEnergy, type Reading } from './counters.ts';

const h = 3600;
const q = 900;
const opts: CounterOptions = { rolloverAt: null, maxPowerKw: 100, gapSeconds: 2 * h, bucketSeconds: h };
/** Readings every 15 minutes from t=0 with the given values. */
const quarter = (...values: number[]): Reading[] => values.map((value, i) => ({ ts: i * q, value }));
const round = (x: number) => Math.round(x * 1e6) / 1e6;

describe('counterEnergy', () => {
  const cases: Array<{
    name: string;
    readings: Reading[];
    options?: Partial<CounterOptions>;
    total: number;
    rules: string[];
    buckets?: Array<[number, number, boolean]>;
  }> = [
    {
      name: 'a steady counter: each difference in its hour',
      readings: quarter(100, 105, 110, 115, 120, 125),
      total: 25,
      rules: [],
      buckets: [
        [0, 20, false],
        [h, 5, false],
      ],
    },
    {
      name: 'a reset to zero counts the energy since the reset',
      readings: quarter(500, 510, 3, 8),
      total: 10 + 3 + 5,
      rules: ['reset'],
    },
    {
      name: 'a replaced meter with a high start value: negative difference, nothing counted for the step',
      readings: quarter(500, 510, 300, 305),
      total: 10 + 5,
      rules: ['reset'],
    },
    {
      name: 'a rollover of a 99 999.9 register counts across the wrap',
      readings: quarter(99_990, 99_997, 2.1, 9.1),
      options: { rolloverAt: 99_999.9 },
      total: 7 + (99_999.9 - 99_997 + 2.1) + 7,
      rules: ['rollover'],
    },
    {
      name: 'a dip within 1 % is jitter: the baseline is held, nothing negative, nothing twice',
      readings: quarter(1000, 1005, 1004, 1010),
      total: 10,
      rules: ['dip'],
    },
    {
      name: 'a spike that comes back is dropped',
      readings: quarter(1000, 1005, 90_000, 1010),
      total: 10,
      rules: ['spike'],
    },
    {
      name: 'a gap of 3 h is spread over its hours, estimated',
      readings: [
        { ts: 0, value: 0 },
        { ts: h, value: 10 },
        { ts: 4 * h, value: 40 },
        { ts: 5 * h, value: 50 },
      ],
      total: 50,
      rules: ['gap'],
      buckets: [
        [0, 10, false],
        [h, 10, true],
        [2 * h, 10, true],
        [3 * h, 10, true],
        [4 * h, 10, false],
      ],
    },
    {
      name: 'a new level that holds (meter swapped without a reset) is re-based, its jump not counted',
      readings: quarter(1000, 1005, 50_000, 50_006, 50_010),
      total: 5 + 6 + 4,
      rules: ['spike'],
    },
    {
      name: 'no maximum power: a reset counts from zero only when the new value is small',
      readings: quarter(500, 510, 20, 25),
      options: { maxPowerKw: null },
      total: 10 + 20 + 5,
      rules: ['reset'],
    },
    {
      // Hourly closings carry the hour's lowest reading: the counter was reset early in the third
      // hour, whose closing is still the old counter's highest and whose lowest is the new one's first.
      name: 'no maximum power: a reset inside an hour keeps what the new counter counted (issue 28)',
      readings: [
        { ts: h, value: 1000, low: 900 },
        { ts: 2 * h, value: 1100, low: 1001 },
        { ts: 3 * h, value: 1110, low: 1.5 },
        { ts: 4 * h, value: 151, low: 60 },
      ],
      options: { maxPowerKw: null },
      // 151 > 10 % of 1110 used to book 0: now 151 - 1.5 counted by the new counter, and its first
      // 1.5 kWh from zero (small against the old reading: a reset).
      total: 100 + 10 + 151,
      rules: ['reset'],
      buckets: [
        [h, 100, false],
        [2 * h, 10, false],
        [3 * h, 151, true],
      ],
    },
    {
      name: 'no maximum power: a meter replaced by one with a start value of its own counts from its first reading',
      readings: [
        { ts: h, value: 1000, low: 900 },
        { ts: 2 * h, value: 1100, low: 1001 },
        { ts: 3 * h, value: 800, low: 700 },
      ],
      options: { maxPowerKw: null },
      total: 100 + 100,
      rules: ['reset'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = counterEnergy(c.readings, { ...opts, ...c.options });
      expect(round(result.total)).toBe(round(c.total));
      expect(result.events.map((e) => e.rule)).toEqual(c.rules);
      expect(round(result.buckets.reduce((s, b) => s + b.kwh, 0))).toBe(round(c.total));
      for (const b of result.buckets) expect(b.kwh).toBeGreaterThanOrEqual(0);
      if (c.buckets) expect(result.buckets.map((b) => [b.ts, round(b.kwh), b.estimated])).toEqual(c.buckets);
    });
  }

  it('never books negative energy whatever the readings', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 50; run++) {
      const readings = Array.from({ length: 40 }, (_, i) => ({ ts: i * q, value: Math.floor(rand() * 1000) }));
      const result = counterEnergy(readings, { ...opts, rolloverAt: 1000 });
      for (const b of result.buckets) expect(b.kwh).toBeGreaterThanOrEqual(0);
    }
  });
});
