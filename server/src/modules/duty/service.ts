import type { DutyEntry, dutySettings, Handover } from '@sitewatch/contract/duty';
import type { z } from 'zod';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { materialise, type ShiftTimes, shiftSpan } from '../../schedule/rotation.ts';
import type { DutyRepository } from './repository.ts';

type Row = Awaited<ReturnType<DutyRepository['between']>>[number];

/** Overrides win over rotation rows of the same day and shift (research notes §5.3: the final schedule). */
const finalSchedule = (rows: Row[]): DutyEntry[] => {
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

const toHandover = (h: NonNullable<Awaited<ReturnType<DutyRepository['handover']>>>): Handover => ({
  id: h.id,
  shifter: h.shifter,
  shifter_id: h.shifter_id,
  successor: h.successor,
  successor_id: h.successor_id,
  events: h.events,
  status: h.status,
  handover_time: Number(h.handover_time),
  confirmed_at: h.confirmed_at === null ? null : Number(h.confirmed_at),
});

const icalTime = (sec: number) =>
  new Date(sec * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const icalText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** A range of days the duty table and the memos answer: at most a year, in order. */
const checkRange = (from: string, to: string) => {
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (days < 0 || days > 366) throw badRequest('duty.badRange');
};

/** The memorandum and the shift handover (docs/inspection-duty.md). */
const memoAndHandoverCalls = (repo: DutyRepository, now: () => number) => {
  const k = repo.k;
  const memoOut = (m: NonNullable<Awaited<ReturnType<DutyRepository['memo']>>>) => ({
    id: m.id,
    date: m.date,
    content: m.content,
    user_name: m.user_name,
    create_time: Number(m.created_at),
  });

  return {
    async memos(from: string, to: string) {
      checkRange(from, to);
      const rows = await k
        .selectFrom('duty_memos')
        .selectAll()
        .where('date', '>=', from)
        .where('date', '<=', to)
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(memoOut);
    },
    async addMemo(input: { date: string; content: string }, user: { id: number; name: string }) {
      const row = await k
        .insertInto('duty_memos')
        .values({ date: input.date, content: input.content, user_id: user.id, user_name: user.name, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      return memoOut(row);
    },
    async updateMemo(id: number, input: { date: string; content: string }) {
      if (!(await repo.memo(id))) throw notFound('errors.notFound');
      await k
        .updateTable('duty_memos')
        .set({ date: input.date, content: input.content })
        .where('id', '=', id)
        .execute();
      return memoOut((await repo.memo(id))!);
    },
    async deleteMemo(id: number) {
      const r = await k.deleteFrom('duty_memos').where('id', '=', id).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) throw notFound('errors.notFound');
      return { deleted: 1 };
    },

    async handovers() {
      const rows = await k
        .selectFrom('duty_handovers')
        .selectAll()
        .orderBy('handover_time', 'desc')
        .orderBy('id', 'desc')
        .limit(500)
        .execute();
      return rows.map(toHandover);
    },
    async addHandover(input: { successor_id: number; events: string }, user: { id: number; name: string }) {
      const successor = await repo.user(input.successor_id);
      if (!successor || successor.enable !== 1) throw badRequest('duty.noSuccessor');
      if (successor.id === user.id) throw badRequest('duty.selfHandover');
      const row = await k
        .insertInto('duty_handovers')
        .values({
          shifter_id: user.id,
          shifter: user.name,
          successor_id: successor.id,
          successor: successor.alias || successor.user_name,
          events: input.events,
          status: 0,
          handover_time: now(),
          confirmed_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toHandover(row);
    },
    /** Only the successor confirms, once. */
    async confirmHandover(id: number, user: { id: number }) {
      const h = await repo.handover(id);
      if (!h) throw notFound('errors.notFound');
      if (h.successor_id !== user.id) throw forbidden('duty.notSuccessor');
      const r = await k
        .updateTable('duty_handovers')
        .set({ status: 1, confirmed_at: now() })
        .where('id', '=', id)
        .where('status', '=', 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw conflict('duty.confirmed');
      return toHandover((await repo.handover(id))!);
    },
    async deleteHandover(id: number, user: { id: number }) {
      const h = await repo.handover(id);
      if (!h) throw notFound('errors.notFound');
      if (h.shifter_id !== user.id) throw forbidden('duty.notShifter');
      if (h.status !== 0) throw conflict('duty.confirmed');
      await k.deleteFrom('duty_handovers').where('id', '=', id).execute();
      return { deleted: 1 };
    },
  };
};

/** Time schedule, duty table, memorandum and handover (docs/inspection-duty.md). */
export const createDutyService = (deps: { repo: DutyRepository; zone: string; clock: () => number }) => {
  const { repo } = deps;
  const k = repo.k;
  const now = () => Math.floor(deps.clock() / 1000);
  // Read once and again after a change: every alarm raised asks whether shift handover is on.
  const settings = () => repo.settings.get('duty');
  const shiftOf = async (id: number) => {
    const s = await repo.shift(id);
    if (!s) throw notFound('duty.noShift');
    return s;
  };
  const checkContacts = async (ids: number[]) => {
    const found = await repo.contacts([...new Set(ids)]);
    if (found.length !== new Set(ids).size) throw badRequest('duty.noContact');
  };
  return {
    settings,
    async setSettings(v: z.infer<typeof dutySettings>) {
      await repo.settings.set('duty', v);
      return settings();
    },
    /** The contact ids on duty at an instant by the stored shifts (the final schedule). */
    async onDutyIds(at: number) {
      return [...new Set(finalSchedule(await repo.covering(at)).map((e) => e.contact_id))];
    },
    async onDutyNow() {
      return finalSchedule(await repo.covering(now()));
    },
    /**
     * The people on duty at an instant: each contact with the enabled user of the same e-mail, if
     * any (the duty table's members are contacts; a user is a contact by e-mail, as for iCal).
     */
    async onDutyPeople(at: number) {
      const ids = [...new Set(finalSchedule(await repo.covering(at)).map((e) => e.contact_id))];
      const found = new Map((await repo.contacts(ids)).map((c) => [c.id, c]));
      // In the order of the duty rows: the first one on duty is the first one asked.
      const contacts = ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
      const users = await k.selectFrom('users').select(['id', 'email']).where('enable', '=', 1).orderBy('id').execute();
      const byEmail = new Map<string, number>();
      for (const u of users) {
        const email = u.email.trim().toLowerCase();
        if (email && !byEmail.has(email)) byEmail.set(email, u.id);
      }
      return contacts.map((c) => ({
        contact_id: c.id,
        name: c.name,
        user_id: byEmail.get(c.email.trim().toLowerCase()) ?? null,
      }));
    },

    shifts: () => repo.shifts(),
    async addShift(input: ShiftTimes & { name: string }) {
      return k
        .insertInto('duty_shifts')
        .values({ name: input.name, start: input.start, end: input.end })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async updateShift(id: number, input: ShiftTimes & { name: string }) {
      await shiftOf(id);
      await k.transaction().execute(async (tx) => {
        await tx
          .updateTable('duty_shifts')
          .set({ name: input.name, start: input.start, end: input.end })
          .where('id', '=', id)
          .execute();
        // The shift's rows move to its new times.
        const rows = await tx.selectFrom('duty_table').select(['id', 'date']).where('shift_id', '=', id).execute();
        for (const r of rows)
          await tx
            .updateTable('duty_table')
            .set(shiftSpan(r.date, input, deps.zone))
            .where('id', '=', r.id)
            .execute();
      });
      return shiftOf(id);
    },
    async deleteShift(id: number) {
      await shiftOf(id);
      await k.transaction().execute(async (tx) => {
        await tx.deleteFrom('duty_table').where('shift_id', '=', id).execute();
        await tx.deleteFrom('duty_rotations').where('shift_id', '=', id).execute();
        await tx.deleteFrom('duty_shifts').where('id', '=', id).execute();
      });
      return { deleted: 1 };
    },

    async table(from: string, to: string) {
      checkRange(from, to);
      return finalSchedule(await repo.between(from, to));
    },
    async addOverride(input: { date: string; shift_id: number; contact_ids: number[] }) {
      const shift = await shiftOf(input.shift_id);
      await checkContacts(input.contact_ids);
      const span = shiftSpan(input.date, shift, deps.zone);
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
      return this.table(input.date, input.date);
    },
    async deleteEntry(id: number) {
      const r = await k.deleteFrom('duty_table').where('id', '=', id).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) throw notFound('errors.notFound');
      return { deleted: 1 };
    },
    /** Replaces the rotation rows of the shift from the start day with the rotation's, for its horizon. */
    async rotate(input: {
      shift_id: number;
      contact_ids: number[];
      start_date: string;
      weeks: number;
      horizon_weeks: number;
    }) {
      const shift = await shiftOf(input.shift_id);
      await checkContacts(input.contact_ids);
      const rows = materialise(input, shift, deps.zone);
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

    ...memoAndHandoverCalls(repo, now),
  };
};
export type DutyService = ReturnType<typeof createDutyService>;
