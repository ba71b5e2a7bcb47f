import {
  type AnalysisAnswer,
  type ElectricalSafetyOverview,
  type MeterRole,
  meterRoles,
  type QualityFigures,
  type QualityIssue,
  type SafetyLimits,
} from '@sitewatch/contract/electrical-safety';
import { figuresOf, hasPoints } from './figures.ts';
import { type Meter, type MeterReader, round } from './meters.ts';
import type { ElectricalSafetyDeps } from './service.ts';

/**
 * The quality analysis of one meter over [t1, t2]: its roles' means per bucket (minutes up to two
 * days, hours up to 62 days, then local days), the figures of each bucket and a summary per figure
 * against its limit.
 */
export const analysisOf = async (
  meter: Meter,
  limits: SafetyLimits,
  q: { t1: number; t2: number },
  deps: Pick<ElectricalSafetyDeps, 'rollups' | 'formulas'>,
): Promise<AnalysisAnswer> => {
  const { formulas } = deps;
  // Minute buckets up to two days (2 880 points), hourly up to 62 days (1 488), then local days
  // folded from the hourly roll-ups (366 for a year: a year of hours answered in about a second).
  const span = q.t2 - q.t1;
  const resolution = span <= 2 * 86_400 ? 'minute' : span <= 62 * 86_400 ? 'hour' : 'day';
  const roleOf = new Map<number, MeterRole>();
  for (const role of meterRoles) if (meter.points[role] !== null) roleOf.set(meter.points[role]!, role);
  const rows = await deps.rollups([...roleOf.keys()], resolution === 'minute' ? 'minute' : 'hour', q.t1, q.t2);
  const bucketOf = (ts: number) => {
    if (resolution !== 'day') return ts;
    const d = new Date(ts * 1000);
    return Math.floor(new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() / 1000);
  };
  // Sums and counts per bucket and role, so a day's mean weighs every sample alike.
  const sums = new Map<number, Map<MeterRole, { sum: number; count: number }>>();
  for (const r of rows) {
    const role = roleOf.get(r.item_id);
    if (!role || r.count <= 0) continue;
    const key = bucketOf(r.ts);
    const b = sums.get(key) ?? new Map<MeterRole, { sum: number; count: number }>();
    const acc = b.get(role) ?? { sum: 0, count: 0 };
    acc.sum += r.sum;
    acc.count += r.count;
    b.set(role, acc);
    sums.set(key, b);
  }
  const buckets = new Map<number, Partial<Record<MeterRole, number | null>>>();
  for (const [ts, b] of sums)
    buckets.set(ts, Object.fromEntries([...b].map(([role, acc]) => [role, acc.sum / acc.count])));
  const points = [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([ts, means]) => ({
      ts,
      ...figuresOf(means, limits, formulas),
      phases: Object.fromEntries(
        Object.entries(means).map(([k, v]) => [k, v === null || v === undefined ? null : round(v)]),
      ),
    }));
  const limitOf: Partial<Record<keyof QualityFigures, number>> = {
    voltage_unbalance: limits.voltage_unbalance_max,
    vuf: limits.voltage_unbalance_max,
    current_unbalance: limits.current_unbalance_max,
    thd_u: limits.thd_u_max,
    thd_i: limits.thd_i_max,
    pf: limits.pf_min,
    frequency_deviation: limits.frequency_band,
    voltage_deviation: limits.voltage_deviation_max,
  };
  const summary: AnalysisAnswer['summary'] = {};
  for (const key of Object.keys(limitOf) as Array<keyof typeof limitOf>) {
    const values = points.map((p) => p[key]).filter((v): v is number => typeof v === 'number');
    const limit = limitOf[key]!;
    const beyond = (v: number) =>
      key === 'pf' ? Math.abs(v) < limit : key === 'frequency_deviation' ? Math.abs(v) > limit + 1e-9 : v > limit;
    summary[key] = values.length
      ? {
          avg: round(values.reduce((s, v) => s + v, 0) / values.length),
          min: Math.min(...values),
          max: Math.max(...values),
          over_pct: round((values.filter(beyond).length / values.length) * 100, 2),
          limit,
        }
      : { avg: null, min: null, max: null, over_pct: null, limit };
  }
  return {
    device_id: meter.device.id,
    device_name: meter.device.name,
    resolution,
    limits,
    points,
    summary,
  };
};

/**
 * The overview of the caller's meters (the dashboard's panel and 002 §7.3): counts by site, the
 * worst figures, the issues (at most 50, by kind) and the total load.
 */
export const overviewOf = (
  meters: Meter[],
  alarms: Map<number, number>,
  limits: SafetyLimits,
  reader: Pick<MeterReader, 'judged' | 'switchRows'>,
  /** Devices measuring parts beneath an incoming meter: their power is already in the site's total. */
  parts: Set<number> = new Set(),
): ElectricalSafetyOverview => {
  const { judged, switchRows } = reader;
  type Site = ElectricalSafetyOverview['sites'][number];
  const sites = new Map<number, Site>();
  const issues: ElectricalSafetyOverview['issues'] = [];
  const worst: ElectricalSafetyOverview['worst'] = {
    voltage_unbalance: null,
    current_unbalance: null,
    thd_u: null,
    pf: null,
    frequency_deviation: null,
  };
  const higher = (a: number | null, b: number | null) => (b === null ? a : a === null ? b : Math.max(a, b));
  for (const m of meters) {
    const site = sites.get(m.device.device_group_id) ?? {
      device_group_id: m.device.device_group_id,
      device_group_name: m.device.device_group_name,
      meters: 0,
      meters_with_issues: 0,
      switches: 0,
      switches_on: 0,
      switches_off: 0,
      switches_unknown: 0,
      active_alarms: 0,
      power_kw: null,
    };
    site.active_alarms += alarms.get(m.device.id) ?? 0;
    if (hasPoints(m.points)) {
      const j = judged(m, limits);
      site.meters += 1;
      if (j.issues.length) site.meters_with_issues += 1;
      const p = j.readings.p;
      if (typeof p === 'number' && !parts.has(m.device.id)) site.power_kw = round((site.power_kw ?? 0) + p, 2);
      const f = j.figures;
      worst.voltage_unbalance = higher(worst.voltage_unbalance, f.vuf ?? f.voltage_unbalance);
      worst.current_unbalance = higher(worst.current_unbalance, f.current_unbalance);
      worst.thd_u = higher(worst.thd_u, f.thd_u);
      if (f.pf !== null) worst.pf = worst.pf === null ? f.pf : Math.abs(f.pf) < Math.abs(worst.pf) ? f.pf : worst.pf;
      if (f.frequency_deviation !== null)
        worst.frequency_deviation =
          worst.frequency_deviation === null || Math.abs(f.frequency_deviation) > Math.abs(worst.frequency_deviation)
            ? f.frequency_deviation
            : worst.frequency_deviation;
      for (const i of j.issues)
        issues.push({
          device_id: m.device.id,
          device_name: m.device.name,
          device_group_name: m.device.device_group_name,
          ...i,
        });
    }
    for (const s of switchRows(m)) {
      site.switches += 1;
      if (s.switch_state === 'on') site.switches_on += 1;
      else if (s.switch_state === 'off') site.switches_off += 1;
      else site.switches_unknown += 1;
    }
    sites.set(m.device.device_group_id, site);
  }
  const list = [...sites.values()];
  const sum = (
    key:
      | 'meters'
      | 'meters_with_issues'
      | 'switches'
      | 'switches_on'
      | 'switches_off'
      | 'switches_unknown'
      | 'active_alarms',
  ) => list.reduce((s, r) => s + r[key], 0);
  const powered = list.filter((s) => s.power_kw !== null);
  const order: QualityIssue[] = [
    'voltage',
    'voltage_unbalance',
    'current_unbalance',
    'thd_u',
    'thd_i',
    'pf',
    'frequency',
  ];
  issues.sort((a, b) => order.indexOf(a.issue) - order.indexOf(b.issue) || a.device_id - b.device_id);
  return {
    meters: sum('meters'),
    meters_with_issues: sum('meters_with_issues'),
    switches: sum('switches'),
    switches_on: sum('switches_on'),
    switches_off: sum('switches_off'),
    switches_unknown: sum('switches_unknown'),
    active_alarms: sum('active_alarms'),
    power_kw: powered.length
      ? round(
          powered.reduce((s, r) => s + (r.power_kw ?? 0), 0),
          2,
        )
      : null,
    worst,
    limits,
    sites: list,
    issues: issues.slice(0, 50),
  };
};
