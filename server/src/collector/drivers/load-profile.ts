/**
 * Load profiles of simulated energy counters (docs/energy.md "Demo meters"): the power a counter
 * integrates changes with the hour, the weekday, the season and the year, deterministically (a
 * function of the date, no state), so that the demo's history and its live readings are one curve.
 *
 * - `it`: IT load, 3 % above its mean on weekdays and 8 % below on weekends, ±2 % from day to day,
 *   a mild afternoon peak, growing 5 % a year.
 * - `cooling`: the IT load times a cooling share that follows the season (about 0.18 of the IT load
 *   in January, 0.42 in late July), peaking in the early afternoon.
 * - `incoming`: the IT load plus the cooling plus 0.15 of the IT load for the rest (UPS losses,
 *   lighting): its ratio to the IT load is the PUE, about 1.33 in winter and 1.57 in summer.
 *
 * Days are local days of UTC+8, where the demo's sites are.
 */
export type LoadProfile = 'it' | 'cooling' | 'incoming';

/**
 * The demo's metered feeds, by power meter of a demo site: mean active power (kW) and profile. The
 * energy demo makes their counters the site's meters (incoming = IT A + IT B + cooling + 6 kW of
 * the rest); the monitoring demo's power, currents and counter of the same meter follow the same
 * power, so that a counter grows at the rate of the power shown (issue 38). Other demo meters are
 * feeders of the IT profile.
 */
export const demoFeeds: Readonly<Record<string, { kw: number; profile: LoadProfile }>> = {
  'PM-01': { kw: 58, profile: 'incoming' },
  'PM-02': { kw: 21, profile: 'it' },
  'PM-03': { kw: 19, profile: 'it' },
  'PM-04': { kw: 12, profile: 'cooling' },
};

const dayMs = 86_400_000;
const daySeconds = 86_400;
const zoneMs = 8 * 3_600_000;
/** Cumulated from this local day on (2020-01-01). */
const firstDay = Date.UTC(2020, 0, 1) / dayMs;
/** The load's growth is counted from mid-2026. */
const growthAnchor = Date.UTC(2026, 6, 1) / dayMs;
const growthPerYear = 0.05;
/** Mean cooling share of the IT load, and the rest of the overhead: a mean PUE of 1.45. */
const coolingMean = 0.3;
const otherShare = 0.15;
const pueMean = 1 + otherShare + coolingMean;

/** A number in [0, 1) from a day and a salt, the same every time. */
const hash01 = (day: number, salt: number) => {
  let h = Math.imul(day ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4_294_967_296;
};

/** The local day number (days since 1970-01-01 in UTC+8) of an instant. */
export const localDay = (tMs: number) => Math.floor((tMs + zoneMs) / dayMs);

/** The IT load of a day relative to its mean: weekday or weekend, growth, a little chance. */
export const itFactor = (day: number) => {
  // 1970-01-01 was a Thursday: 0 Sunday … 6 Saturday.
  const weekday = (((day + 4) % 7) + 7) % 7;
  const week = weekday === 0 || weekday === 6 ? 0.92 : 1.03;
  const growth = 1 + (growthPerYear * (day - growthAnchor)) / 365.25;
  return Math.max(0.2, growth) * week * (1 + 0.04 * (hash01(day, 1) - 0.5));
};

/** The cooling share of the IT load on a day: highest in late July, lowest in late January. */
export const coolingShare = (day: number) => {
  const dayOfYear = Math.floor((day * dayMs - Date.UTC(new Date(day * dayMs).getUTCFullYear(), 0, 1)) / dayMs);
  return coolingMean + 0.12 * Math.cos((2 * Math.PI * (dayOfYear - 205)) / 365.25) + 0.03 * (hash01(day, 2) - 0.5);
};

/** A daily wave of mean 1 peaking at `peakHour`, and its integral over [0, s] (seconds into the day). */
const wave = (amplitude: number, peakHour: number) => {
  const phi = (2 * Math.PI * peakHour) / 24 - Math.PI / 2;
  const k = (2 * Math.PI) / daySeconds;
  return {
    at: (s: number) => 1 + amplitude * Math.sin(k * s - phi),
    integral: (s: number) => s + (amplitude / k) * (Math.cos(-phi) - Math.cos(k * s - phi)),
  };
};
const itWave = wave(0.08, 15);
const coolingWave = wave(0.2, 14);

/** A day's mean power relative to the profile's mean. */
const dayMean = (profile: LoadProfile, day: number) => {
  const it = itFactor(day);
  if (profile === 'it') return it;
  const c = coolingShare(day);
  return profile === 'cooling' ? (it * c) / coolingMean : (it * (1 + otherShare + c)) / pueMean;
};

/** The energy of the day up to `s` seconds into it, in seconds at the profile's mean power. */
const withinDay = (profile: LoadProfile, day: number, s: number) => {
  const it = itFactor(day);
  if (profile === 'it') return it * itWave.integral(s);
  const c = coolingShare(day);
  if (profile === 'cooling') return ((it * c) / coolingMean) * coolingWave.integral(s);
  return (it * ((1 + otherShare) * itWave.integral(s) + c * coolingWave.integral(s))) / pueMean;
};

/** The power at an instant relative to the profile's mean. */
export const profilePower = (profile: LoadProfile, tMs: number) => {
  const day = localDay(tMs);
  const s = (tMs + zoneMs - day * dayMs) / 1000;
  const it = itFactor(day);
  if (profile === 'it') return it * itWave.at(s);
  const c = coolingShare(day);
  if (profile === 'cooling') return ((it * c) / coolingMean) * coolingWave.at(s);
  return (it * ((1 + otherShare) * itWave.at(s) + c * coolingWave.at(s))) / pueMean;
};

/** Per profile, the sums of the day means from `firstDay`: entry i is the sum over the i days before firstDay + i. */
const sums = new Map<LoadProfile, number[]>();
const daysBefore = (profile: LoadProfile, day: number) => {
  if (day < firstDay) {
    let s = 0;
    for (let d = day; d < firstDay; d++) s -= dayMean(profile, d);
    return s;
  }
  const list = sums.get(profile) ?? [0];
  sums.set(profile, list);
  while (list.length <= day - firstDay) list.push(list.at(-1)! + dayMean(profile, firstDay + list.length - 1));
  return list[day - firstDay]!;
};

/**
 * Hours of the profile's mean power from 2020-01-01 (local) to `tMs`: multiplied by a mean power in
 * kW it is the energy in kWh a counter of that profile has counted.
 */
export const profileHours = (profile: LoadProfile, tMs: number) => {
  const day = localDay(tMs);
  const s = (tMs + zoneMs - day * dayMs) / 1000;
  return (daysBefore(profile, day) * daySeconds + withinDay(profile, day, s)) / 3600;
};
