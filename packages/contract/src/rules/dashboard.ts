/**
 * Pure rules of the home dashboard (000 §4.1, §4.3, §4.2, §7): risk level, signal level, size texts
 * and the curve's time ranges. Both the server and the web use them.
 */

export const riskLevels = ['low', 'medium', 'high', 'serious'] as const;
export type RiskLevel = (typeof riskLevels)[number];

/**
 * 000 §4.1: percentage = abnormal items / total items, rounded; up to 5 low, up to 20 medium, up to
 * 50 high, above 50 serious. No items is 0 %.
 * @example riskOf(3, 100) // { percent: 3, level: 'low' }
 */
export const riskOf = (abnormal: number, total: number): { percent: number; level: RiskLevel } => {
  const percent = total > 0 ? Math.round((abnormal / total) * 100) : 0;
  const level: RiskLevel = percent <= 5 ? 'low' : percent <= 20 ? 'medium' : percent <= 50 ? 'high' : 'serious';
  return { percent, level };
};

/** 000 §4.3: 0 if the signal is at most 65, otherwise ceil((signal − 65) / 7). */
export const signalLevel = (signal: number): number => (signal <= 65 ? 0 : Math.ceil((signal - 65) / 7));

const units = ['B', 'K', 'M', 'G', 'T'] as const;
/**
 * 000 §7: memory and disk figures as text with a unit suffix T, G, M, K or B (powers of 1024, one
 * decimal above bytes).
 * @example formatSize(8_589_934_592) // '8.0G'
 */
export const formatSize = (bytes: number): string => {
  let v = Math.max(0, bytes);
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return u === 0 ? `${Math.round(v)}B` : `${v.toFixed(1)}${units[u]}`;
};

/** 000 §4.2 curve ranges: 0 last 4 hours, 1 today, 2 this week, 3 this month, 4 this year, 5 custom, 6 last day, 7 last 3 days, 8 last 7 days. */
export const curveRanges = [0, 1, 2, 3, 4, 5, 6, 7, 8] as const;
export type CurveRange = (typeof curveRanges)[number];
/** The week range's sub-choice (000 §4.2): 2-minute or 1-hour intervals, in seconds. */
export const weekIntervals = [120, 3600] as const;

/**
 * Start and end (epoch seconds) of a curve range at `nowMs` in the local time zone of the caller
 * (weeks start on Monday). Custom (5) takes the picked range.
 */
export const curveWindow = (
  range: CurveRange,
  nowMs: number,
  custom?: { t1: number; t2: number },
): { t1: number; t2: number } => {
  const t2 = Math.floor(nowMs / 1000);
  const d = new Date(nowMs);
  const midnight = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const hours = (h: number) => ({ t1: t2 - h * 3600, t2 });
  switch (range) {
    case 0:
      return hours(4);
    case 1:
      return { t1: Math.floor(midnight.getTime() / 1000), t2 };
    case 2: {
      const back = (midnight.getDay() + 6) % 7;
      const monday = new Date(midnight.getFullYear(), midnight.getMonth(), midnight.getDate() - back);
      return { t1: Math.floor(monday.getTime() / 1000), t2 };
    }
    case 3:
      return { t1: Math.floor(new Date(d.getFullYear(), d.getMonth(), 1).getTime() / 1000), t2 };
    case 4:
      return { t1: Math.floor(new Date(d.getFullYear(), 0, 1).getTime() / 1000), t2 };
    case 5:
      return custom ?? hours(4);
    case 6:
      return hours(24);
    case 7:
      return hours(72);
    default:
      return hours(168);
  }
};
