import dayjs from 'dayjs';

/**
 * Curve time ranges (002 §4 "today, this week, this month, this year, last 24 hours, 3 days, 7 days,
 * custom"; 000 §4.2 adds the last 4 hours). Calendar ranges run from their start to now; weeks
 * start on Monday whatever the language.
 */
export const timeRanges = [
  'last4h',
  'today',
  'week',
  'month',
  'year',
  'last24h',
  'last3d',
  'last7d',
  'custom',
] as const;
export type TimeRange = (typeof timeRanges)[number];

const hours = { last4h: 4, last24h: 24, last3d: 72, last7d: 168 } as const;

/** Start of the ISO week (Monday 00:00, local time) of a moment. */
const startOfWeek = (d: dayjs.Dayjs) => d.startOf('day').subtract((d.day() + 6) % 7, 'day');

/** [t1, t2] in epoch seconds of a range at `nowMs`; a custom range is given as it is. */
export const rangeBounds = (range: TimeRange, nowMs: number, custom?: [number, number]): [number, number] => {
  const now = dayjs(nowMs);
  const t2 = Math.floor(nowMs / 1000);
  switch (range) {
    case 'today':
      return [now.startOf('day').unix(), t2];
    case 'week':
      return [startOfWeek(now).unix(), t2];
    case 'month':
      return [now.startOf('month').unix(), t2];
    case 'year':
      return [now.startOf('year').unix(), t2];
    case 'custom':
      return custom ?? [t2 - 86_400, t2];
    default:
      return [t2 - hours[range] * 3600, t2];
  }
};

/**
 * How far back the compared period lies: the previous day, week, month or year for calendar
 * ranges (a month back is the previous calendar month's start), the range's own length otherwise.
 */
export const compareShift = (range: TimeRange, t1: number, t2: number): number => {
  const start = dayjs.unix(t1);
  switch (range) {
    case 'today':
      return t1 - start.subtract(1, 'day').unix();
    case 'week':
      return t1 - start.subtract(1, 'week').unix();
    case 'month':
      return t1 - start.subtract(1, 'month').unix();
    case 'year':
      return t1 - start.subtract(1, 'year').unix();
    default:
      return Math.max(1, t2 - t1);
  }
};
