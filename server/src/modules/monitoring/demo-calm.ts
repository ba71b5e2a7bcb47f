import { type ItemSource, itemSource } from '@sitewatch/contract/monitoring';
import type { DemoScenario } from '../../area.ts';
import { demoFeeds } from '../../collector/drivers/load-profile.ts';
import type { Db } from '../../db/kysely.ts';

type SimSource = Extract<ItemSource, { kind: 'simulator' }>;

/** Fault rates of the templates divided by this in the `faults` scenario: a showroom, not a test bench. */
const demoFaultScale = 25;

/** Share of an item's threshold band kept clear on each side, beyond the value's widest reach. */
const bandMargin = 0.05;

/**
 * An analog source whose every value stays inside [min, max] with a margin: its widest reach is the
 * cycle plus the drift (1.3 × spread) and six standard deviations of noise, which a simulator's read
 * passes about once in 500 million; spread and noise shrink together until that reach fits.
 */
export const fitInside = (source: SimSource, min: number | null, max: number | null): SimSource => {
  if (source.model !== 'analog' || (min === null && max === null)) return source;
  const width = min !== null && max !== null ? max - min : 0;
  const lo = min === null ? Number.NEGATIVE_INFINITY : min + bandMargin * width;
  const hi = max === null ? Number.POSITIVE_INFINITY : max - bandMargin * width;
  const reach = 1.3 * source.spread + 6 * source.noise;
  if (reach === 0 || lo > hi) return source;
  const base = Math.min(hi, Math.max(lo, source.base));
  const room = Math.min(base - lo, hi - base);
  const scale = reach > room ? room / reach : 1;
  return { ...source, base, spread: source.spread * scale, noise: source.noise * scale };
};

/**
 * How each demo power meter's load divides among its phases (fractions of the mean, summing to
 * 0), by its number on the site (PM-01 … PM-08): a real room balances its feeds to a few %.
 * Two meters on purpose show a mild imbalance still under the 15 % limit: the third site's PM-06
 * (8 %) and the second site's PM-03 (9 %) feed single-phase loads on one phase more than the others.
 */
const phaseSplits: Array<[number, number, number]> = [
  [0.02, -0.01, -0.01],
  [-0.01, 0.03, -0.02],
  [0.02, 0.01, -0.03],
  [-0.02, -0.02, 0.04],
  [0.01, -0.03, 0.02],
  [0.03, -0.02, -0.01],
  [-0.01, -0.02, 0.03],
  [0.02, -0.04, 0.02],
];
const mildImbalance: Record<string, [number, number, number]> = {
  '2:PM-03': [0.09, -0.04, -0.05],
  '3:PM-06': [-0.03, -0.05, 0.08],
};
/** The mean power (kW) of a feeder that is no energy meter, by its number on the site: feeders are not alike. */
const meterLoads = [1.0, 0.8, 0.9, 0.6, 1.1, 0.7, 0.85, 0.95].map((share) => 24 * share);
/** The phase voltage and the power factor the demo's currents are drawn at (the PF point reads 0.95). */
const phaseVolts = 222;
const powerFactor = 0.95;

/** NEMA imbalance of a split: the largest deviation from the mean, over the mean, in %. */
const imbalanceOf = (split: [number, number, number]) => Math.max(...split.map(Math.abs)) * 100;

/** A demo meter's feed: an energy meter's (`demoFeeds`), else a feeder of the IT profile. */
const feedOf = (deviceName: string) => {
  const n = Number(deviceName.slice(3)) - 1;
  return demoFeeds[deviceName] ?? { kw: meterLoads[n % 8]!, profile: 'it' as const };
};

/**
 * The simulator sources of one demo power meter (cell name → source), balanced as above. Power,
 * phase powers, currents and reactive power are the feed's mean times its load profile, and the
 * energy counter integrates the same power (issue 38: a counter that grew at 58 kW beside a power
 * reading of 24 kW): P = Pa + Pb + Pc = 3 × U × I × PF, Q at the same power factor.
 */
export const meterSources = (siteNumber: number, deviceName: string): Record<string, Partial<SimSource>> => {
  const n = Number(deviceName.slice(3)) - 1;
  const split = mildImbalance[`${siteNumber}:${deviceName}`] ?? phaseSplits[(n + siteNumber * 3) % 8]!;
  const { kw, profile } = feedOf(deviceName);
  const amps = (kw * 1000) / (3 * phaseVolts * powerFactor);
  const profiled = (base: number, noise: number, group: number) => ({ base, spread: 0, noise, profile, group });
  const out: Record<string, Partial<SimSource>> = {};
  ['a', 'b', 'c'].forEach((phase, i) => {
    const share = 1 + split[i]!;
    // The phases of one meter move together (group): their imbalance is the split, not chance.
    out[`U${phase}`] = { base: phaseVolts + split[i]! * 10, spread: 3, noise: 0.2, group: 1 };
    out[`I${phase}`] = profiled(amps * share, 0.004 * amps, 2);
    out[`P${phase}`] = profiled((kw / 3) * share, 0.0015 * kw, 3);
  });
  out.P = profiled(kw, 0.0025 * kw, 3);
  out.Q = profiled(kw * Math.tan(Math.acos(powerFactor)), 0.0025 * kw, 3);
  out.EP = { base: kw, profile };
  out.IUNB = { base: imbalanceOf(split), spread: 0.2, noise: 0.05 };
  return out;
};

/**
 * The highest normal value of a demo meter's profiled point: its mean times the profile's peak (a
 * summer afternoon: 1.3 for IT and incoming loads, 1.95 for cooling) with room to spare, never below
 * the template's (an incoming feed's meter is rated above a feeder's).
 */
const ratedMax = (source: Partial<SimSource>, templateMax: number | null) => {
  if (!source.profile || source.base === undefined || templateMax === null) return templateMax;
  const peak = source.profile === 'cooling' ? 2.2 : 1.6;
  return Math.max(templateMax, Math.ceil((source.base * peak) / 10) * 10);
};

type ItemRow = {
  id: number;
  item_cell_name: string;
  source: string;
  status_threshold: string;
  threshold_min: number | null;
  threshold_max: number | null;
  device_name: string;
  code: string;
  site: number;
};

/** One demo item's source and status threshold as the demo keeps them. */
const calmItem = (row: ItemRow, siteNumber: number, faults: boolean) => {
  const parsed = itemSource.parse(JSON.parse(row.source));
  if (parsed.kind !== 'simulator') return null;
  let next: SimSource = { ...parsed, fault_rate: faults ? parsed.fault_rate / demoFaultScale : 0 };
  let threshold_max = row.threshold_max;
  if (row.code === 'power_meter') {
    const meter = meterSources(siteNumber, row.device_name)[row.item_cell_name] ?? {};
    next = { ...next, ...meter };
    threshold_max = ratedMax(meter, row.threshold_max);
  }
  // A full battery floats just under its 100 % ceiling.
  if (row.item_cell_name === 'BATCAP') next = { ...next, base: 98, spread: 0.6, noise: 0.1 };
  else if (!next.profile) next = fitInside(next, row.threshold_min, row.threshold_max);
  // A heater or humidifier that runs is not an alarm.
  const informational = row.item_cell_name === 'HEAT' || row.item_cell_name === 'HUMID';
  return {
    source: JSON.stringify(next),
    status_threshold: informational ? '' : row.status_threshold,
    ...(threshold_max === row.threshold_max ? {} : { threshold_max }),
  };
};

/**
 * Makes the demo look like a healthy installation (issue 38): every simulated value stays well
 * inside its thresholds with its noise and drift, status points keep their normal value, the power
 * meters' phases are balanced (two mild imbalances under the limit), so that the estate raises no
 * alarm by itself. The `faults` scenario keeps the templates' faults at a 25th of their rates (about
 * one alarm an hour over the three sites). server/test/demo-calm.int.test.ts holds it to that.
 */
export const calm = async (db: Db, scenarios: readonly DemoScenario[]) => {
  const k = db.kysely;
  const rows: ItemRow[] = await k
    .selectFrom('items as i')
    .innerJoin('devices as d', 'd.id', 'i.device_id')
    .select([
      'i.id',
      'i.item_cell_name',
      'i.source',
      'i.status_threshold',
      'i.threshold_min',
      'i.threshold_max',
      'd.name as device_name',
      'd.code',
      'd.device_group_id as site',
    ])
    .execute();
  const sites = [...new Set(rows.map((r) => r.site))].sort((a, b) => a - b);
  const faults = scenarios.includes('faults');
  await k.transaction().execute(async (trx) => {
    for (const row of rows) {
      const next = calmItem(row, sites.indexOf(row.site) + 1, faults);
      if (next) await trx.updateTable('items').set(next).where('id', '=', row.id).execute();
    }
  });
};
