import type { ItemSource } from '@sitewatch/contract/monitoring';
import type { Driver, DriverItem, ReadResult } from '../driver.ts';
import { type LoadProfile, profileHours, profilePower } from './load-profile.ts';

type SimSource = Extract<ItemSource, { kind: 'simulator' }>;

export interface SimulatorOptions {
  now?: () => number;
  /** Chance that one poll of a device goes unanswered (a flaky link); 0 in tests. */
  commFaultRate?: number;
  random?: () => number;
}

/** A stable pseudo-random phase per item, so devices of one kind do not move in lockstep. */
const phaseOf = (id: number) => ((Math.sin(id * 12.9898) * 43758.5453) % 1) * 2 * Math.PI;

/**
 * An analog point's slow bounded drift (within ±30 % of its spread), a function of the item and the
 * time: two slow waves of per-item phases. A random walk needed a state object per item (~120 B
 * each, 12 MB at 100 000 items, issue 18 memory); this needs none and still wanders off the cycle.
 */
const driftOf = (id: number, spread: number, tMs: number) => {
  const t = tMs / 1000;
  const phase = phaseOf(id);
  return (
    spread *
    0.3 *
    (0.6 * Math.sin((2 * Math.PI * t) / 10_800 + 2.1 * phase) + 0.4 * Math.sin((2 * Math.PI * t) / 2_820 + 3.7 * phase))
  );
};

/** Counters count from here (the same value whenever the server starts). */
const counterEpoch = Date.UTC(2025, 0, 1);
/** How far a counter's power swings around its mean over a day (0.15: ±15 %). */
const counterSwing = 0.15;

/**
 * A simulated energy counter (kWh) at `tMs`: the integral since a fixed epoch of a power of `perHour`
 * kW on average swinging ±15 % over the day (or following a load profile), so that it grows like a
 * real meter, never runs backwards and does not start again when the server does (docs/energy.md
 * "Demo meters").
 */
export const counterValue = (id: number, perHour: number, tMs: number, profile?: LoadProfile) => {
  // A profiled counter (the demo's energy meters) follows its day, weekday, season and year.
  if (profile) return 1000 + (id % 97) * 37 + perHour * profileHours(profile, tMs);
  const t = (tMs - counterEpoch) / 1000;
  const day = 86_400;
  const phase = phaseOf(id);
  const wave = ((counterSwing * day) / (2 * Math.PI)) * (Math.sin((2 * Math.PI * t) / day + phase) - Math.sin(phase));
  return 1000 + (id % 97) * 37 + (perHour * (t + wave)) / 3600;
};

const gauss = (random: () => number) => {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
};

const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};

/**
 * Realistic values without hardware: analog points follow a daily-like cycle with noise and a
 * slow bounded drift and now and then an excursion; counters (energy) grow with time; status
 * points (leak, smoke, door, switches, alarms) sit at their normal value and now and then flip for
 * a few minutes. Writes override an item's value (setpoints, switches).
 */
export const createSimulatorDriver = (options: SimulatorOptions = {}): Driver => {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const commFaultRate = options.commFaultRate ?? 0;
  // Per-item state only where there is some: an item in an excursion (until when) and a written
  // value; the drift is computed (driftOf), so 100 000 idle items hold nothing here.
  const faultUntil = new Map<number, number>();
  const overrides = new Map<number, number>();
  const inFault = (id: number, t: number) => {
    const until = faultUntil.get(id);
    if (until === undefined) return false;
    if (t < until) return true;
    faultUntil.delete(id);
    return false;
  };

  const sample = (item: DriverItem, source: SimSource, t: number, deviceId: number): number => {
    const override = overrides.get(item.id);
    if (override !== undefined) return override;
    switch (source.model) {
      case 'counter':
        return round(counterValue(item.id, source.base, t, source.profile), source.decimals);
      case 'status': {
        const normal = source.base;
        if (inFault(item.id, t)) return normal ? 0 : 1;
        if (source.fault_rate > 0 && random() < source.fault_rate) {
          faultUntil.set(item.id, t + (30 + random() * 270) * 1000);
          return normal ? 0 : 1;
        }
        return normal;
      }
      case 'analog': {
        // Items of one group (a meter's phases) share their cycle and drift: a key of their own.
        const key = source.group === undefined ? item.id : 1e7 + deviceId * 1000 + source.group;
        // A profiled value (a demo meter's power or current) is its mean times the profile's power at
        // the instant, what the meter's profiled energy counter integrates (load-profile.ts).
        const cycle = source.profile ? 0 : Math.sin((2 * Math.PI * (t / 1000)) / source.period_s + phaseOf(key));
        const middle = source.profile ? source.base * profilePower(source.profile, t) : source.base;
        const drift = source.profile ? 0 : driftOf(key, source.spread, t);
        let v = middle + source.spread * cycle + drift + gauss(random) * source.noise;
        if (inFault(item.id, t)) v += source.spread * 3;
        else if (source.fault_rate > 0 && random() < source.fault_rate) faultUntil.set(item.id, t + 120_000);
        return round(v, source.decimals);
      }
    }
  };

  return {
    name: 'simulator',
    sourceKind: 'simulator',
    // A clock or dice of a test's own cannot cross to a worker thread: such a driver polls in-process.
    ...(options.now || options.random ? {} : { workerOptions: { commFaultRate } }),
    async connect(device) {
      return {
        async read(items) {
          if (commFaultRate > 0 && random() < commFaultRate)
            throw new Error(`simulated device ${device.id} did not answer`);
          const t = now();
          const result: ReadResult = { values: new Map(), errors: new Map() };
          for (const item of items) {
            if (item.source.kind !== 'simulator') result.errors.set(item.id, 'not a simulator item');
            else result.values.set(item.id, sample(item, item.source, t, device.id));
          }
          return result;
        },
        async write(item, value) {
          if (item.source.kind !== 'simulator') throw new Error('not a simulator item');
          overrides.set(item.id, value);
        },
        async close() {},
      };
    },
  };
};
