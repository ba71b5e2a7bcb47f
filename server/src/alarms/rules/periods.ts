/** A time range of a time period: days of the week (1 Monday … 7 Sunday) and HH:MM bounds. */
export interface PeriodRange {
  weekdays: number[];
  start: string;
  end: string;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether a moment lies in a time period (check, alarm and notification periods of 002 §3). No
 * period (undefined) means always. `end` is inclusive to the minute, so 00:00–23:59 is the whole day.
 * Local time of the server, as the operators who define the periods read clocks.
 */
export const inPeriod = (ranges: PeriodRange[] | undefined, at: Date): boolean => {
  if (!ranges) return true;
  const day = at.getDay() === 0 ? 7 : at.getDay();
  const m = at.getHours() * 60 + at.getMinutes();
  return ranges.some((r) => r.weekdays.includes(day) && m >= minutes(r.start) && m <= minutes(r.end));
};
