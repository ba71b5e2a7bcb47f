/**
 * Energy from a cumulative kWh counter (docs/energy.md "Counter rules"). Pure: readings in, energy
 * per bucket and the rules that fired out. A negative difference is never consumption: it is a
 * rollover (the register wrapped), a dip (meter jitter: the baseline is held), or a reset/replacement
 * (a new baseline, what the new counter counted kept); a jump above what the meter's maximum power allows is a spike (never counted);
 * a difference across a gap is spread over the gap's buckets and marked estimated.
 */

export type CounterRule = 'reset' | 'rollover' | 'dip' | 'spike' | 'gap';

export interface Reading {
  /** Epoch seconds of the reading. */
  ts: number;
  /** Counter value in kWh (after ratios and scaling). */
  value: number;
  /**
   * The lowest reading since the one before (an hourly roll-up's min): after a drop, the first
   * reading of the new counter, from which its energy is counted (docs/energy.md "reset").
   */
  low?: number;
}

export interface CounterOptions {
  /** The value at which the register wraps to 0 (null: it does not wrap, or not known). */
  rolloverAt: number | null;
  /** Highest plausible power in kW (null: no spike check). */
  maxPowerKw: number | null;
  /** Readings further apart than this (s) are a gap: their energy is spread and estimated. */
  gapSeconds: number;
  /** Bucket length in seconds (3600: hourly); buckets start at multiples of it. */
  bucketSeconds: number;
}

export interface EnergyBucket {
  ts: number;
  kwh: number;
  estimated: boolean;
}

export interface CounterEvent {
  ts: number;
  /** Time of the baseline the reading was judged against (for stamping the event, fill-read.ts). */
  since: number;
  rule: CounterRule;
  /** Baseline before and reading after. */
  from: number;
  to: number;
  /** Energy booked because of this rule (kWh; 0 when nothing was counted). */
  kwh: number;
}

export interface CounterResult {
  buckets: EnergyBucket[];
  events: CounterEvent[];
  total: number;
}

/** A dip within 1 % of the baseline is jitter (Home Assistant's band), not a reset. */
const dipBand = 0.01;

export const counterEnergy = (readings: Reading[], options: CounterOptions): CounterResult => {
  const { rolloverAt, maxPowerKw, gapSeconds, bucketSeconds } = options;
  const buckets = new Map<number, EnergyBucket>();
  const events: CounterEvent[] = [];
  let total = 0;

  /** Books `kwh` uniformly over (t0, t1] into the buckets it crosses. */
  const book = (t0: number, t1: number, kwh: number, estimated: boolean) => {
    if (kwh <= 0) return;
    total += kwh;
    if (t1 <= t0) t0 = t1 - 1;
    const span = t1 - t0;
    let start = t0;
    while (start < t1) {
      const bucket = Math.floor(start / bucketSeconds) * bucketSeconds;
      const end = Math.min(t1, bucket + bucketSeconds);
      const part = (kwh * (end - start)) / span;
      const b = buckets.get(bucket) ?? { ts: bucket, kwh: 0, estimated: false };
      b.kwh += part;
      b.estimated ||= estimated;
      buckets.set(bucket, b);
      start = end;
    }
  };
  const plausible = (kwh: number, dt: number) => maxPowerKw === null || kwh <= (maxPowerKw * dt) / 3600 + 1e-9;

  let base: Reading | null = null;
  /** The baseline before `base`: a low below it in base's own hour was a drop inside that hour. */
  let previous: Reading | null = null;
  /** A reading held back as a spike until the next one says whether the new level is real. */
  let held: Reading | null = null;
  for (const r of readings) {
    if (!Number.isFinite(r.value)) continue;
    if (base === null) {
      base = r;
      continue;
    }
    if (held) {
      const fromHeld = r.value - held.value;
      if (fromHeld >= 0 && plausible(fromHeld, r.ts - held.ts)) {
        // The new level holds (a replaced meter with another start value): re-based, the jump not counted.
        events.push({ ts: held.ts, since: base.ts, rule: 'spike', from: base.value, to: held.value, kwh: 0 });
        book(held.ts, r.ts, fromHeld, r.ts - held.ts > gapSeconds);
        previous = base;
        base = r;
        held = null;
        continue;
      }
      // An outlier: dropped, the next reading is read against the old baseline.
      events.push({ ts: held.ts, since: base.ts, rule: 'spike', from: base.value, to: held.value, kwh: 0 });
      held = null;
    }
    const dt = r.ts - base.ts;
    if (dt <= 0) continue;
    let delta = r.value - base.value;
    let rule: CounterRule | null = null;
    if (delta < 0) {
      if (rolloverAt !== null && base.value > 0.9 * rolloverAt && r.value < 0.1 * rolloverAt) {
        delta = rolloverAt - base.value + r.value;
        rule = 'rollover';
      } else if (-delta <= dipBand * base.value) {
        // Jitter: keep the higher baseline so the same energy is not counted twice.
        events.push({ ts: r.ts, since: base.ts, rule: 'dip', from: base.value, to: r.value, kwh: 0 });
        continue;
      } else {
        // Reset or replacement: what the new counter counted since its first reading is kept; that
        // first reading counts from zero too when plausible for the time elapsed (a reset, not a
        // meter with a start value of its own). Every reading of r's hour is below the baseline, so
        // after the drop; a low in the baseline's hour under the reading before it is after it too.
        const firstLow = base.low !== undefined && previous !== null && base.low < previous.value ? base.low : r.value;
        const first = Math.min(r.value, r.low ?? r.value, firstLow);
        const fromZero = maxPowerKw === null ? first <= 0.1 * base.value : plausible(first, dt);
        const kwh = r.value - first + (fromZero ? first : 0);
        events.push({ ts: r.ts, since: base.ts, rule: 'reset', from: base.value, to: r.value, kwh });
        book(base.ts, r.ts, kwh, true);
        previous = base;
        base = r;
        continue;
      }
    }
    if (!plausible(delta, dt)) {
      held = r;
      continue;
    }
    const gap = dt > gapSeconds;
    if (rule) events.push({ ts: r.ts, since: base.ts, rule, from: base.value, to: r.value, kwh: delta });
    if (gap) events.push({ ts: r.ts, since: base.ts, rule: 'gap', from: base.value, to: r.value, kwh: delta });
    book(base.ts, r.ts, delta, gap);
    previous = base;
    base = r;
  }
  if (held)
    events.push({
      ts: held.ts,
      since: base?.ts ?? held.ts,
      rule: 'spike',
      from: base?.value ?? 0,
      to: held.value,
      kwh: 0,
    });
  return { buckets: [...buckets.values()].sort((a, b) => a.ts - b.ts), events, total };
};
