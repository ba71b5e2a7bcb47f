import { repeatRule } from '@sitewatch/contract/inspection';
/**
 * The spec's fixed repeat options for scheduled items (002 §4): every 4, 8 or 12 hours; daily;
 * every 2–7, 15 or 30 days; weekly; monthly; every 3 or 6 months; yearly; once. Hour steps are
 * elapsed time (a DST change does not move them off the clock); day, week, month and year steps
 * keep the anchor's wall-clock time in the zone (docs/schedules.md).
 */
export const repeatRules = repeatRule.options;
export type RepeatRule = (typeof repeatRules)[number];

type Step = { unit: 'hour' | 'day' | 'month'; n: number } | null;

const stepOf = (rule: RepeatRule): Step => {
  if (rule === 'once') return null;
  if (rule === 'daily') return { unit: 'day', n: 1 };
  if (rule === 'weekly') return { unit: 'day', n: 7 };
  if (rule === 'monthly') return { unit: 'month', n: 1 };
  if (rule === 'yearly') return { unit: 'month', n: 12 };
  const m = /^(hours|days|months)(\d+)$/.exec(rule);
  if (!m) throw new Error(`unknown repeat rule ${rule}`);
  return { unit: m[1] === 'hours' ? 'hour' : m[1] === 'days' ? 'day' : 'month', n: Number(m[2]) };
};

export interface WallTime {
  y: number;
  /** 1–12 */
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock time of an instant (epoch ms) in a zone. */
export const wallTime = (ms: number, zone: string): WallTime => {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour!, mi: p.minute!, s: p.second! };
};

const offsetAt = (ms: number, zone: string) => {
  const w = wallTime(ms, zone);
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - Math.floor(ms / 1000) * 1000;
};

/**
 * The instant of a wall-clock time in a zone. A time skipped by a DST change (02:30 on a
 * spring-forward night) moves forward by the gap (03:30); a repeated one takes its second instant.
 */
export const fromWallTime = (w: WallTime, zone: string): number => {
  const naive = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  const first = naive - offsetAt(naive, zone);
  return naive - offsetAt(first, zone);
};

const daysInMonth = (y: number, mo: number) => new Date(Date.UTC(y, mo, 0)).getUTCDate();

/** The k-th occurrence (k ≥ 0) of a rule from its anchor. */
const occurrence = (anchor: number, step: NonNullable<Step>, k: number, zone: string): number => {
  if (step.unit === 'hour') return anchor + k * step.n * 3_600_000;
  const a = wallTime(anchor, zone);
  if (step.unit === 'day') {
    // Calendar days through UTC date arithmetic, then the anchor's wall time in the zone.
    const day = new Date(Date.UTC(a.y, a.mo - 1, a.d + k * step.n));
    return fromWallTime({ ...a, y: day.getUTCFullYear(), mo: day.getUTCMonth() + 1, d: day.getUTCDate() }, zone);
  }
  // Months from the anchor (never from the previous occurrence): Jan 31 → Feb 28/29 → Mar 31; Feb 29 → Feb 28.
  const total = a.y * 12 + (a.mo - 1) + k * step.n;
  const y = Math.floor(total / 12);
  const mo = (total % 12) + 1;
  return fromWallTime({ ...a, y, mo, d: Math.min(a.d, daysInMonth(y, mo)) }, zone);
};

/**
 * The first run of a rule strictly after `after` (epoch ms), counting occurrences from `anchor`
 * (the first run itself). null when there is none (a `once` already past).
 */
export const nextRun = (anchor: number, rule: RepeatRule, after: number, zone: string): number | null => {
  const step = stepOf(rule);
  if (step === null) return anchor > after ? anchor : null;
  if (anchor > after) return anchor;
  // Start below the estimate (a month is at most 31 days, a DST day 23 or 25 hours) and walk on.
  const longest = step.unit === 'hour' ? 3_600_000 : step.unit === 'day' ? 86_400_000 : 31 * 86_400_000;
  let k = Math.max(0, Math.floor((after - anchor) / (step.n * longest)) - 2);
  for (;;) {
    const t = occurrence(anchor, step, k, zone);
    if (t > after) return t;
    k++;
  }
};
