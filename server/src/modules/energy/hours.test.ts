import { describe, expect, it } from 'vitest';
import type { RollupBucket } from '../../series/store.ts';
import type { CounterEvent } from './counters.ts';
import { counterHours, eventTime } from './hours.ts';

const h = 3600;
const meter = { rollover_at: null, max_power_kw: null };
/** An hourly roll-up of a counter whose readings over the hour went from `min` to `max`. */
const hourRow = (ts: number, min: number, max: number): RollupBucket => ({
  item_id: 1,
  ts,
  min,
  max,
  sum: min + max,
  count: 2,
});
const sample = (s: number, value: number) => ({ tsMs: s * 1000, value });
const event = (e: Partial<CounterEvent>): CounterEvent => ({
  ts: 2 * h,
  since: h,
  rule: 'reset',
  from: 0,
  to: 0,
  kwh: 0,
  ...e,
});

describe('counterHours', () => {
  it("books a counter's first, partial hour from its first reading", () => {
    // The meter's item was first read at 00:20 (100 kWh); the hour closed at 107.5, the next at 117.5.
    const rows = [hourRow(0, 100, 107.5), hourRow(h, 110, 117.5)];
    const first = { ts: 20 * 60, value: 100 };
    expect(counterHours(meter, rows, first).buckets.map((b) => [b.ts, b.kwh])).toEqual([
      [0, 7.5],
      [h, 10],
    ]);
    // Without it (the roll-ups start later in the item's history) the first hour is the baseline.
    expect(counterHours(meter, rows, null).buckets.map((b) => [b.ts, b.kwh])).toEqual([[h, 10]]);
  });
});

/** Events are stamped at the reading that showed them, not at the end of their hour. */
describe('eventTime', () => {
  it('a reset: the first reading below the baseline, in the baseline hour or after it', () => {
    // The hour 01:00-02:00 closed at 1010 (01:30); the counter read 0.5 at 01:45.
    const samples = [sample(h, 1000), sample(h + 900, 1005), sample(h + 1800, 1010), sample(h + 2700, 0.5)];
    const reset = event({ ts: 3 * h, since: 2 * h, from: 1010, to: 9 });
    expect(eventTime(reset, [...samples, sample(2 * h, 3), sample(3 * h - 60, 9)])).toBe(h + 2700);
    // Reset at the hour's turn: the first reading of the next hour.
    expect(eventTime(reset, [...samples.slice(0, 3), sample(2 * h + 10, 0.1), sample(3 * h - 60, 9)])).toBe(2 * h + 10);
  });

  it('a gap: the first reading after it; a counter that stood still before it is read to its last sample', () => {
    const samples = [sample(0, 10), sample(900, 12), sample(1800, 12), sample(5 * h + 600, 40)];
    expect(eventTime(event({ rule: 'gap', ts: 6 * h, since: h, from: 12, to: 40 }), samples)).toBe(5 * h + 600);
  });

  it("a spike: its hour's highest reading; null when the samples are gone", () => {
    const samples = [sample(h, 1000), sample(h + 1200, 90_000), sample(h + 2400, 1002)];
    expect(eventTime(event({ rule: 'spike', ts: 2 * h, since: h, from: 1000, to: 90_000 }), samples)).toBe(h + 1200);
    expect(eventTime(event({ rule: 'spike', ts: 2 * h, since: h, from: 1000, to: 90_000 }), [])).toBeNull();
    expect(eventTime(event({ rule: 'reset', from: 1010 }), [])).toBeNull();
  });
});
