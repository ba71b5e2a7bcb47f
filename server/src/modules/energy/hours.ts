import type { EnergyQuery } from '@sitewatch/contract/energy';
import type { RollupBucket } from '../../series/store.ts';
import { type CounterEvent, counterEnergy } from './counters.ts';
import type { LocalClock } from './tariff.ts';

const hour = 3600;

export interface HourlyEnergy {
  hours: Array<{ ts: number; kwh: number; estimated: boolean }>;
  events: CounterEvent[];
}

/**
 * Hourly energy of one meter from its item's hourly roll-ups. A counter's hour closes at the hour's
 * highest reading (the last one of a rising counter); the differences of those closings go through
 * the counter rules. A power item's hour is its mean kW over one hour.
 */
export const meterHours = (
  meter: { kind: string; rollover_at: number | null; max_power_kw: number | null },
  rows: RollupBucket[],
  t1: number,
  t2: number,
): HourlyEnergy => {
  if (meter.kind === 'power') {
    const hours = rows
      .filter((r) => r.ts >= t1 - (t1 % hour) && r.ts <= t2 && r.count > 0)
      .map((r) => ({ ts: r.ts, kwh: Math.max(0, r.sum / r.count), estimated: false }));
    return { hours, events: [] };
  }
  const result = counterEnergy(
    rows.map((r) => ({ ts: r.ts + hour, value: r.max })),
    { rolloverAt: meter.rollover_at, maxPowerKw: meter.max_power_kw, gapSeconds: 1.5 * hour, bucketSeconds: hour },
  );
  const from = t1 - (t1 % hour);
  return {
    hours: result.buckets.filter((b) => b.ts >= from && b.ts <= t2),
    events: result.events.filter((e) => e.ts > from && e.ts <= t2 + hour),
  };
};

/** Start of the interval holding `ts` on the local clock. */
export const intervalStart = (ts: number, interval: EnergyQuery['interval'], clock: LocalClock) => {
  if (interval === 'hour') return ts - (ts % hour);
  const off = clock.offsetMinutes(ts) * 60;
  const local = new Date((ts + off) * 1000);
  const y = local.getUTCFullYear();
  const start =
    interval === 'day'
      ? Date.UTC(y, local.getUTCMonth(), local.getUTCDate())
      : interval === 'month'
        ? Date.UTC(y, local.getUTCMonth(), 1)
        : Date.UTC(y, 0, 1);
  return start / 1000 - off;
};
