import type { EnergyQuery } from '@sitewatch/contract/energy';
import type { RollupBucket } from '../../series/store.ts';
import { type CounterEvent, counterEnergy, type Reading } from './counters.ts';
import type { LocalClock } from './tariff.ts';

const hour = 3600;
const minute = 60;

/**
 * Hourly energy of a counter meter from its item's hourly roll-ups. An hour closes at its highest
 * reading (the last one of a rising counter) and carries its lowest (after a reset, the new
 * counter's first reading); the differences of the closings go through the counter rules. `first`,
 * the item's first reading (given when the roll-ups start at the item's first hour), is the
 * baseline of that first, partial hour.
 */
export const counterHours = (
  meter: { rollover_at: number | null; max_power_kw: number | null },
  rows: RollupBucket[],
  first: Reading | null,
) => {
  const readings: Reading[] = rows.map((r) => ({ ts: Number(r.ts) + hour, value: r.max, low: r.min }));
  if (first) readings.unshift(first);
  return counterEnergy(readings, {
    rolloverAt: meter.rollover_at,
    maxPowerKw: meter.max_power_kw,
    gapSeconds: 1.5 * hour,
    bucketSeconds: hour,
  });
};

/**
 * When the reading that showed a counter event was taken (epoch s), from the item's raw samples
 * from the hour before the event's baseline to the end of the event's hour; null when they are gone. A
 * spike: its highest reading. The other rules: the first reading after the baseline's, for a drop
 * (reset, rollover, dip) the first one below it.
 */
export const eventTime = (e: CounterEvent, samples: Array<{ tsMs: number; value: number }>): number | null => {
  const at = (s: { tsMs: number }) => Math.floor(s.tsMs / 1000);
  if (e.rule === 'spike') {
    const peak = samples.find((s) => at(s) >= e.ts - hour && at(s) < e.ts && s.value === e.to);
    return peak ? at(peak) : null;
  }
  // The baseline is an hour's closing (stamped at the hour's end) or the item's first minute; its
  // last sample, as a counter that stood still before a gap repeats it.
  const base = samples.findLastIndex((s) => at(s) >= e.since - hour && at(s) < e.since + minute && s.value === e.from);
  if (base < 0) return null;
  const drop = e.rule !== 'gap';
  const shown = samples.slice(base + 1).find((s) => !drop || s.value < e.from);
  return shown && at(shown) < e.ts ? at(shown) : null;
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
