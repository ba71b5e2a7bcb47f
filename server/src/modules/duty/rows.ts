import type { DutyEntry } from '@sitewatch/contract/duty';
import type { DutyRepository } from './repository.ts';

/** Who sees and changes which shift and duty row, and the final schedule every part of the service reads. */

export type Row = Awaited<ReturnType<DutyRepository['between']>>[number];
export type ShiftRow = NonNullable<Awaited<ReturnType<DutyRepository['shift']>>>;

/**
 * The caller as duty sees them: who they are, their sites (null: all), whether they hold every site
 * (the rows of every site are theirs to change), and their contacts (null: all).
 */
export interface DutyCaller {
  id: number;
  name: string;
  sites: number[] | null;
  everySite: boolean;
  contacts: number[] | null;
}

export const granted = (c: DutyCaller, siteId: number) => c.sites === null || c.sites.includes(siteId);
/** A shift of a granted site, or of every site: the caller sees it and its duty rows. */
export const seesShift = (siteId: number | null, c: DutyCaller) => siteId === null || granted(c, siteId);
/** A shift of a granted site, or of every site for a holder of every site: the caller changes and arranges it. */
export const holdsShift = (siteId: number | null, c: DutyCaller) =>
  siteId === null ? c.everySite : granted(c, siteId);

/** Overrides win over rotation rows of the same day and shift (research notes §5.3: the final schedule). */
export const finalSchedule = (rows: Row[]): DutyEntry[] => {
  const overridden = new Set(rows.filter((r) => r.override === 1).map((r) => `${r.date}|${r.shift_id}`));
  return rows
    .filter((r) => r.override === 1 || !overridden.has(`${r.date}|${r.shift_id}`))
    .map((r) => ({
      id: r.id,
      date: r.date,
      shift_id: r.shift_id,
      shift_name: r.shift_name,
      contact_id: r.contact_id,
      contact_name: r.contact_name ?? '',
      override: r.override === 1,
      start_at: Number(r.start_at),
      end_at: Number(r.end_at),
    }));
};
