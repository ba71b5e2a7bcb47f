import type { RollupBucket } from '../../series/store.ts';
import type { CounterEvent, EnergyBucket } from './counters.ts';

const hour = 3600;
const minute = 60;

/** A reading holds until the next one at most this long (s): a meter polled every quarter-hour, late. */
export const powerHoldSeconds = 20 * minute;

export interface PowerOptions {
  /** Two readings at most this far apart (s): the first holds until the second; further, a gap. */
  holdSeconds: number;
  /** Now (epoch s): nothing is booked after it. */
  now: number;
}

/**
 * Energy of an active-power (kW) meter per hour (docs/energy.md "Power meters"). Pure: minute
 * roll-ups in, energy per hour and the gaps out. Each minute with samples is a reading of its mean
 * kW at the minute's start. A reading holds until the next one when that comes within
 * `holdSeconds`; otherwise it counts for its own minute only and the time up to the next reading is
 * a gap: nothing booked, a `gap` event at the next reading. Nothing is booked after `now`, so the
 * current hour holds only its elapsed part, and a later run completes it. An hour whose minute
 * roll-ups are gone (pruned: fewer samples than in its hourly roll-up) is its mean kW × 1 h, marked
 * estimated. Negative power (a feeder exporting) is not consumption.
 */
export const powerEnergy = (minutes: RollupBucket[], hourly: RollupBucket[], options: PowerOptions) => {
  const { holdSeconds, now } = options;
  const buckets = new Map<number, EnergyBucket>();
  const events: CounterEvent[] = [];
  /** Books `kw` held over [t0, t1) into the hours it crosses. */
  const book = (t0: number, t1: number, kw: number) => {
    for (let start = t0; start < t1; ) {
      const bucket = start - (start % hour);
      const end = Math.min(t1, bucket + hour);
      const b = buckets.get(bucket) ?? { ts: bucket, kwh: 0, estimated: false };
      b.kwh += (kw * (end - start)) / hour;
      buckets.set(bucket, b);
      start = end;
    }
  };
  const readings = minutes.filter((m) => m.count > 0).map((m) => ({ ...m, ts: Number(m.ts) }));
  const kwOf = (m: RollupBucket) => Math.max(0, m.sum / m.count);
  /** Samples per hour seen in the minutes, against the hourly roll-ups' counts. */
  const seen = new Map<number, number>();
  for (let i = 0; i < readings.length; i++) {
    const r = readings[i]!;
    const h = r.ts - (r.ts % hour);
    seen.set(h, (seen.get(h) ?? 0) + r.count);
    const next = readings[i + 1];
    let end = r.ts + minute;
    if (next && next.ts - r.ts <= holdSeconds) end = next.ts;
    else if (next) events.push({ ts: next.ts, since: r.ts, rule: 'gap', from: kwOf(r), to: kwOf(next), kwh: 0 });
    book(r.ts, Math.min(end, now), kwOf(r));
  }
  for (const r of hourly) {
    const ts = Number(r.ts);
    if (r.count > (seen.get(ts) ?? 0)) buckets.set(ts, { ts, kwh: kwOf(r), estimated: true });
  }
  return { buckets: [...buckets.values()].sort((a, b) => a.ts - b.ts), events };
};
