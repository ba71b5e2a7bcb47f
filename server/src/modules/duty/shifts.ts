import type { shiftInput } from '@sitewatch/contract/duty';
import type { z } from 'zod';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { materialise, shiftSpan } from '../../schedule/rotation.ts';
import { type DutyCaller, finalSchedule, holdsShift, type ShiftRow, seesShift } from './rows.ts';
import type { DutyParts } from './service.ts';

type ShiftInput = Omit<z.infer<typeof shiftInput>, 't'>;

const icalTime = (sec: number) =>
  new Date(sec * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const icalText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** The time schedule: the shifts the duty rows are made of; a shift's rows follow it when it changes or goes. */
export const createShifts = ({ repo, k, zone, shiftOf, heldShift, requireSite }: DutyParts) => {
  const shiftOut = (s: ShiftRow, c: DutyCaller) => ({ ...s, editable: holdsShift(s.device_group_id, c) });

  return {
    shifts: async (c: DutyCaller) =>
      (await repo.shifts()).filter((s) => seesShift(s.device_group_id, c)).map((s) => shiftOut(s, c)),
    async addShift(input: ShiftInput, c: DutyCaller) {
      await requireSite(input.device_group_id, c, false);
      const row = await k
        .insertInto('duty_shifts')
        .values({ name: input.name, start: input.start, end: input.end, device_group_id: input.device_group_id })
        .returningAll()
        .executeTakeFirstOrThrow();
      return shiftOut(row, c);
    },
    async updateShift(id: number, input: ShiftInput, c: DutyCaller) {
      await heldShift(id, c);
      await requireSite(input.device_group_id, c, false);
      await k.transaction().execute(async (tx) => {
        await tx
          .updateTable('duty_shifts')
          .set({ name: input.name, start: input.start, end: input.end, device_group_id: input.device_group_id })
          .where('id', '=', id)
          .execute();
        // The shift's rows move to its new times.
        const rows = await tx.selectFrom('duty_table').select(['id', 'date']).where('shift_id', '=', id).execute();
        for (const r of rows)
          await tx
            .updateTable('duty_table')
            .set(shiftSpan(r.date, input, zone))
            .where('id', '=', r.id)
            .execute();
      });
      return shiftOut(await shiftOf(id, c), c);
    },
    async deleteShift(id: number, c: DutyCaller) {
      await heldShift(id, c);
      await k.transaction().execute(async (tx) => {
        await tx.deleteFrom('duty_table').where('shift_id', '=', id).execute();
        await tx.deleteFrom('duty_rotations').where('shift_id', '=', id).execute();
        await tx.deleteFrom('duty_shifts').where('id', '=', id).execute();
      });
      return { deleted: 1 };
    },
  };
};

/**
 * The duty table: who is on duty on which day and shift, by rotation or by override, and one's own
 * shifts as an iCalendar file.
 */
export const createDutyTable = ({ repo, k, zone, now, heldShift, checkRange }: DutyParts) => {
  /** The members named must be enabled contacts the caller may see (their contact grant). */
  const checkContacts = async (ids: number[], c: DutyCaller) => {
    const unique = [...new Set(ids)];
    const found = await repo.contacts(unique);
    if (found.length !== unique.length || (c.contacts !== null && unique.some((id) => !c.contacts!.includes(id))))
      throw badRequest('duty.noContact');
  };
  /** The duty rows of the shifts the caller sees. */
  const table = async (from: string, to: string, c: DutyCaller) => {
    checkRange(from, to);
    return finalSchedule((await repo.between(from, to)).filter((r) => seesShift(r.site_id, c)));
  };

  return {
    table,
    async addOverride(input: { date: string; shift_id: number; contact_ids: number[] }, c: DutyCaller) {
      const shift = await heldShift(input.shift_id, c);
      await checkContacts(input.contact_ids, c);
      const span = shiftSpan(input.date, shift, zone);
      await k.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('duty_table')
          .where('date', '=', input.date)
          .where('shift_id', '=', shift.id)
          .where('override', '=', 1)
          .execute();
        await tx
          .insertInto('duty_table')
          .values(
            [...new Set(input.contact_ids)].map((contact_id) => ({
              date: input.date,
              shift_id: shift.id,
              contact_id,
              rotation_id: null,
              override: 1,
              ...span,
            })),
          )
          .execute();
      });
      return table(input.date, input.date, c);
    },
    async deleteEntry(id: number, c: DutyCaller) {
      const entry = await repo.entry(id);
      if (!entry || !seesShift(entry.site_id, c)) throw notFound('errors.notFound');
      if (!holdsShift(entry.site_id, c)) throw forbidden('access.everySiteNeeded');
      await k.deleteFrom('duty_table').where('id', '=', id).execute();
      return { deleted: 1 };
    },
    /** Replaces the rotation rows of the shift from the start day with the rotation's, for its horizon. */
    async rotate(
      input: { shift_id: number; contact_ids: number[]; start_date: string; weeks: number; horizon_weeks: number },
      c: DutyCaller,
    ) {
      const shift = await heldShift(input.shift_id, c);
      await checkContacts(input.contact_ids, c);
      const rows = materialise(input, shift, zone);
      await k.transaction().execute(async (tx) => {
        const { id } = await tx
          .insertInto('duty_rotations')
          .values({
            shift_id: shift.id,
            contact_ids: JSON.stringify(input.contact_ids),
            start_date: input.start_date,
            weeks: input.weeks,
            horizon_weeks: input.horizon_weeks,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await tx
          .deleteFrom('duty_table')
          .where('shift_id', '=', shift.id)
          .where('override', '=', 0)
          .where('date', '>=', input.start_date)
          .execute();
        for (let i = 0; i < rows.length; i += 200)
          await tx
            .insertInto('duty_table')
            .values(rows.slice(i, i + 200).map((r) => ({ ...r, shift_id: shift.id, rotation_id: id, override: 0 })))
            .execute();
      });
      return { created: rows.length };
    },
    /** Enabled contacts the caller may put on duty (their contact grant). */
    members: async (c: DutyCaller) => (await repo.members(c.contacts)).map((m) => ({ id: m.id, name: m.name })),
    /** The user's own shifts (contacts with the user's e-mail) as an iCalendar file (RFC 5545). */
    async ical(userId: number) {
      const user = await repo.user(userId);
      const email = user?.email.trim().toLowerCase() ?? '';
      const contacts = email
        ? (await k.selectFrom('contacts').select(['id', 'email']).execute()).filter(
            (c) => c.email.trim().toLowerCase() === email,
          )
        : [];
      const ids = new Set(contacts.map((c) => c.id));
      const own = await repo.ofContacts([...ids]);
      // The final schedule of those days (an override of someone else wins over one's rotation row).
      const rows =
        own.length === 0
          ? []
          : finalSchedule(
              await repo.between(
                own[0]!.date,
                own.reduce((m, r) => (r.date > m ? r.date : m), own[0]!.date),
              ),
            ).filter((r) => ids.has(r.contact_id));
      const stamp = icalTime(now());
      const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Sitewatch//Duty//EN', 'CALSCALE:GREGORIAN'];
      for (const r of rows)
        lines.push(
          'BEGIN:VEVENT',
          `UID:duty-${r.id}@sitewatch`,
          `DTSTAMP:${stamp}`,
          `DTSTART:${icalTime(r.start_at)}`,
          `DTEND:${icalTime(r.end_at)}`,
          `SUMMARY:${icalText(r.shift_name)}`,
          'END:VEVENT',
        );
      lines.push('END:VCALENDAR');
      return `${lines.join('\r\n')}\r\n`;
    },
  };
};
