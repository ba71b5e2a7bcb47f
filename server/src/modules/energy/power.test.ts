import { describe, expect, it } from 'vitest';
import type { RollupBucket } from '../../series/store.ts';
import { powerEnergy, powerHoldSeconds } from './power.ts';

const h = 3600;
const min = 60;
/** A minute roll-up of `count` samples of `kw` each. */
const minute = (ts: number, kw: number, count = 1): RollupBucket => ({
  item_id: 1,
  ts,
  min: kw,
  max: kw,
  sum: kw * count,
  count,
});
/** One reading every `every` seconds over [from, to) at `kw`. */
const every = (every: number, from: number, to: number, kw: number) =>
  Array.from({ length: Math.ceil((to - from) / every) }, (_, i) => minute(from + i * every, kw));
const run = (minutes: RollupBucket[], now: number, hourly: RollupBucket[] = []) => {
  const { buckets, events } = powerEnergy(minutes, hourly, { holdSeconds: powerHoldSeconds, now });
  return {
    hours: buckets.map((b) => [b.ts, Math.round(b.kwh * 1e6) / 1e6, b.estimated]),
    events: events.map((e) => [e.rule, e.ts, e.from, e.to, e.kwh]),
  };
};

/** Power meters book mean kW × the time their readings cover (docs/energy.md "Power meters"). */
describe('powerEnergy', () => {
  it('books the elapsed part of the current hour, not a whole hour at its mean', () => {
    // 150 kW read every 10 s from 00:00:00 to 00:01:30: six samples in the first minute, four in
    // the second; now is 00:01:30. The meter booked 150 kWh here.
    const minutes = [minute(0, 150, 6), minute(min, 150, 4)];
    expect(run(minutes, 90).hours).toEqual([[0, 3.75, false]]);
    // The same minutes looked at later: the last reading counts for its minute, no more.
    expect(run(minutes, 10 * min).hours).toEqual([[0, 5, false]]);
  });

  it('closes the hour when it ends: a reading holds until the next one, across the hour', () => {
    // 120 kW every 10 minutes from 00:00 to 01:00 (a quarter-hour poll would do as well).
    const minutes = every(10 * min, 0, h + 1, 120);
    expect(run(minutes, h + 30).hours).toEqual([
      [0, 120, false],
      [h, 1, false],
    ]);
    // Readings 20 minutes apart across 01:00 (the longest hold): 10 minutes in each hour.
    expect(run([minute(50 * min, 60), minute(h + 10 * min, 60)], 2 * h).hours).toEqual([
      [0, 10, false],
      [h, 11, false],
    ]);
  });

  it('does not fill a gap beyond the hold: the reading before it counts for its minute only', () => {
    // 60 kW at 00:00 and 00:05, nothing until 00:45, then every 5 minutes to 01:00.
    const minutes = [...every(5 * min, 0, 6 * min, 60), ...every(5 * min, 45 * min, h + 1, 60)];
    const { hours, events } = run(minutes, h + min);
    // Covered: 00:00-00:06 (the 00:05 reading's own minute) and 00:45-01:00: 21 minutes.
    expect(hours).toEqual([
      [0, 21, false],
      [h, 1, false],
    ]);
    expect(events).toEqual([['gap', 45 * min, 60, 60, 0]]);
  });

  it('books an hour whose minutes were pruned as its mean over the whole hour, estimated', () => {
    const hourly = [{ item_id: 1, ts: 0, min: 40, max: 60, sum: 200, count: 4 }];
    expect(run([], 2 * h, hourly).hours).toEqual([[0, 50, true]]);
    // With its minutes kept (as many samples as its hourly roll-up) they count, measured.
    const kept = [...every(15 * min, 0, h + 1, 50)];
    expect(run(kept, 2 * h, hourly).hours).toEqual([
      [0, 50, false],
      [h, 0.833333, false],
    ]);
  });

  it('never books negative power (a feeder exporting) nor anything after now', () => {
    const minutes = [...every(min, 0, 10 * min, -20), ...every(min, 10 * min, 20 * min, 30)];
    expect(run(minutes, 15 * min).hours).toEqual([[0, 2.5, false]]);
    expect(run([minute(2 * h, 100)], h).hours).toEqual([]);
  });
});
