import { fromWallTime } from './repeat.ts';

/** A shift of the time schedule: wall-clock start and end ('HH:MM'; an end not after the start is next day). */
export interface ShiftTimes {
  start: string;
  end: string;
}

const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The instants (epoch seconds) a shift covers on a day, in the zone (DST days are 23 or 25 hours). */
export const shiftSpan = (date: string, shift: ShiftTimes, zone: string) => {
  const wall = (day: string, hhmm: string) => {
    const [y, mo, d] = day.split('-').map(Number);
    const [h, mi] = hhmm.split(':').map(Number);
    return Math.floor(fromWallTime({ y: y!, mo: mo!, d: d!, h: h!, mi: mi!, s: 0 }, zone) / 1000);
  };
  const start = wall(date, shift.start);
  const end = wall(shift.end > shift.start ? date : addDays(date, 1), shift.end);
  return { start_at: start, end_at: end };
};

/**
 * A rotation over weeks turned into concrete shifts: from the start day, each member in order is on
 * the shift every day for `weeks` weeks, then the next takes over (the Grafana OnCall / PagerDuty
 * layer model, research notes §5.3), for `horizonWeeks` weeks.
 */
export const materialise = (
  rotation: { contact_ids: number[]; start_date: string; weeks: number; horizon_weeks: number },
  shift: ShiftTimes,
  zone: string,
) => {
  const rows: { date: string; contact_id: number; start_at: number; end_at: number }[] = [];
  for (let day = 0; day < rotation.horizon_weeks * 7; day++) {
    const date = addDays(rotation.start_date, day);
    const member = rotation.contact_ids[Math.floor(day / (7 * rotation.weeks)) % rotation.contact_ids.length]!;
    rows.push({ date, contact_id: member, ...shiftSpan(date, shift, zone) });
  }
  return rows;
};
