import type { DutyEntry, dutySettings, Handover, memoInput, shiftInput } from '@sitewatch/contract/duty';
import type { z } from 'zod';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { materialise, shiftSpan } from '../../schedule/rotation.ts';
import type { DutyRepository } from './repository.ts';

type Row = Awaited<ReturnType<DutyRepository['between']>>[number];
type ShiftInput = Omit<z.infer<typeof shiftInput>, 't'>;
type MemoInput = Omit<z.infer<typeof memoInput>, 't'>;
type ShiftRow = NonNullable<Awaited<ReturnType<DutyRepository['shift']>>>;
type MemoRow = NonNullable<Awaited<ReturnType<DutyRepository['memo']>>>;
type HandoverRow = NonNullable<Awaited<ReturnType<DutyRepository['handover']>>>;

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

const granted = (c: DutyCaller, siteId: number) => c.sites === null || c.sites.includes(siteId);
/** A shift of a granted site, or of every site: the caller sees it and its duty rows. */
const seesShift = (siteId: number | null, c: DutyCaller) => siteId === null || granted(c, siteId);
/** A shift of a granted site, or of every site for a holder of every site: the caller changes and arranges it. */
const holdsShift = (siteId: number | null, c: DutyCaller) => (siteId === null ? c.everySite : granted(c, siteId));
/** A memo of a granted site, or the caller's own note. */
const seesMemo = (m: MemoRow, c: DutyCaller) =>
  m.device_group_id === null ? m.user_id === c.id : granted(c, m.device_group_id);
/** Its author changes a memo; a holder of every site may too when it is a site's (to tidy the log). */
const holdsMemo = (m: MemoRow, c: DutyCaller) => m.user_id === c.id || (m.device_group_id !== null && c.everySite);
/** Its two people see a handover, and the users of its site. */
const seesHandover = (h: HandoverRow, c: DutyCaller) =>
  h.shifter_id === c.id || h.successor_id === c.id || (h.device_group_id !== null && granted(c, h.device_group_id));

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

const toHandover = (h: HandoverRow): Handover => ({
  id: h.id,
  shifter: h.shifter,
  shifter_id: h.shifter_id,
  successor: h.successor,
  successor_id: h.successor_id,
  events: h.events,
  status: h.status,
  handover_time: Number(h.handover_time),
  confirmed_at: h.confirmed_at === null ? null : Number(h.confirmed_at),
  device_group_id: h.device_group_id,
});

const icalTime = (sec: number) =>
  new Date(sec * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const icalText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Time schedule, duty table, memorandum and handover (docs/inspection-duty.md). */
export const createDutyService = (deps: { repo: DutyRepository; zone: string; clock: () => number }) => {
  const { repo } = deps;
  const k = repo.k;
  const now = () => Math.floor(deps.clock() / 1000);
  // Read once and again after a change: every alarm raised asks whether shift handover is on.
  const settings = () => repo.settings.get('duty');
  /** A shift the caller sees; another site's does not exist for them (404). */
  const shiftOf = async (id: number, c: DutyCaller) => {
    const s = await repo.shift(id);
    if (!s || !seesShift(s.device_group_id, c)) throw notFound('duty.noShift');
    return s;
  };
  /** A shift the caller may change: a shift of every site needs every site (403). */
  const heldShift = async (id: number, c: DutyCaller) => {
    const s = await shiftOf(id, c);
    if (!holdsShift(s.device_group_id, c)) throw forbidden('access.everySiteNeeded');
    return s;
  };
  const shiftOut = (s: ShiftRow, c: DutyCaller) => ({ ...s, editable: holdsShift(s.device_group_id, c) });
  /**
   * The site a row is put in: one of the caller's that exists. null means every site for a shift (a
   * holder of every site only) and the author's own for a memo or handover (`nullIsOwn`).
   */
  const requireSite = async (siteId: number | null, c: DutyCaller, nullIsOwn: boolean) => {
    if (siteId === null) {
      if (!nullIsOwn && !c.everySite) throw forbidden('access.everySiteNeeded');
      return;
    }
    if (!granted(c, siteId)) throw forbidden('access.siteNotGranted');
    if (!(await repo.siteExists(siteId))) throw badRequest('duty.noSite', { id: siteId });
  };
  /** The members named must be enabled contacts the caller may see (their contact grant). */
  const checkContacts = async (ids: number[], c: DutyCaller) => {
    const unique = [...new Set(ids)];
    const found = await repo.contacts(unique);
    if (found.length !== unique.length || (c.contacts !== null && unique.some((id) => !c.contacts!.includes(id))))
      throw badRequest('duty.noContact');
  };
  /** The duty rows of the shifts covering a site (its own, those of the sites above it, those of every site). */
  const forSite = async (rows: Row[], siteId: number | null | undefined) => {
    if (siteId === null || siteId === undefined) return rows;
    const chain = await repo.siteChain(siteId);
    return rows.filter((r) => r.site_id === null || chain.includes(r.site_id));
  };
  const checkRange = (from: string, to: string) => {
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
    if (days < 0 || days > 366) throw badRequest('duty.badRange');
  };
  const memoOut = (m: MemoRow, c: DutyCaller) => ({
    id: m.id,
    date: m.date,
    content: m.content,
    user_name: m.user_name,
    create_time: Number(m.created_at),
    device_group_id: m.device_group_id,
    editable: holdsMemo(m, c),
  });
  const memoOf = async (id: number, c: DutyCaller) => {
    const m = await repo.memo(id);
    if (!m || !seesMemo(m, c)) throw notFound('errors.notFound');
    if (!holdsMemo(m, c)) throw forbidden('duty.notAuthor');
    return m;
  };
  const handoverOf = async (id: number, c: DutyCaller) => {
    const h = await repo.handover(id);
    if (!h || !seesHandover(h, c)) throw notFound('errors.notFound');
    return h;
  };

  return {
    settings,
    /** The switch routes every site's notices: a holder of every site sets it. */
    async setSettings(v: z.infer<typeof dutySettings>, c: DutyCaller) {
      if (!c.everySite) throw forbidden('access.everySiteNeeded');
      await repo.settings.set('duty', v);
      return settings();
    },
    /** The contact ids on duty at an instant by the stored shifts (the final schedule), for a site or all. */
    async onDutyIds(at: number, siteId?: number | null) {
      return [...new Set(finalSchedule(await forSite(await repo.covering(at), siteId)).map((e) => e.contact_id))];
    },
    async onDutyNow(c: DutyCaller) {
      return finalSchedule((await repo.covering(now())).filter((r) => seesShift(r.site_id, c)));
    },
    /**
     * The people on duty at an instant (for a site: its shifts and those above it and of every site):
     * each contact with the enabled user of the same e-mail, if any (the duty table's members are
     * contacts; a user is a contact by e-mail, as for iCal).
     */
    async onDutyPeople(at: number, siteId?: number | null) {
      const rows = await forSite(await repo.covering(at), siteId);
      const ids = [...new Set(finalSchedule(rows).map((e) => e.contact_id))];
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
            .set(shiftSpan(r.date, input, deps.zone))
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

    /** The duty rows of the shifts the caller sees. */
    async table(from: string, to: string, c: DutyCaller) {
      checkRange(from, to);
      return finalSchedule((await repo.between(from, to)).filter((r) => seesShift(r.site_id, c)));
    },
    async addOverride(input: { date: string; shift_id: number; contact_ids: number[] }, c: DutyCaller) {
      const shift = await heldShift(input.shift_id, c);
      await checkContacts(input.contact_ids, c);
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
      return this.table(input.date, input.date, c);
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

    /** The memos of the caller's sites and their own notes. */
    async memos(from: string, to: string, c: DutyCaller) {
      checkRange(from, to);
      const rows = await k
        .selectFrom('duty_memos')
        .selectAll()
        .where('date', '>=', from)
        .where('date', '<=', to)
        .where((eb) =>
          eb.or([
            eb.and([eb('device_group_id', 'is', null), eb('user_id', '=', c.id)]),
            c.sites === null ? eb('device_group_id', 'is not', null) : eb('device_group_id', 'in', [0, ...c.sites]),
          ]),
        )
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((m) => memoOut(m, c));
    },
    async addMemo(input: MemoInput, c: DutyCaller) {
      await requireSite(input.device_group_id, c, true);
      const row = await k
        .insertInto('duty_memos')
        .values({
          date: input.date,
          content: input.content,
          user_id: c.id,
          user_name: c.name,
          created_at: now(),
          device_group_id: input.device_group_id,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return memoOut(row, c);
    },
    async updateMemo(id: number, input: MemoInput, c: DutyCaller) {
      await memoOf(id, c);
      await requireSite(input.device_group_id, c, true);
      await k
        .updateTable('duty_memos')
        .set({ date: input.date, content: input.content, device_group_id: input.device_group_id })
        .where('id', '=', id)
        .execute();
      return memoOut((await repo.memo(id))!, c);
    },
    async deleteMemo(id: number, c: DutyCaller) {
      await memoOf(id, c);
      await k.deleteFrom('duty_memos').where('id', '=', id).execute();
      return { deleted: 1 };
    },

    /** The caller's own handovers (as shifter or successor) and those of their sites. */
    async handovers(c: DutyCaller) {
      const rows = await k
        .selectFrom('duty_handovers')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('shifter_id', '=', c.id),
            eb('successor_id', '=', c.id),
            c.sites === null ? eb('device_group_id', 'is not', null) : eb('device_group_id', 'in', [0, ...c.sites]),
          ]),
        )
        .orderBy('handover_time', 'desc')
        .orderBy('id', 'desc')
        .limit(500)
        .execute();
      return rows.map(toHandover);
    },
    async addHandover(
      input: { successor_id: number; events: string; device_group_id: number | null },
      user: DutyCaller,
    ) {
      await requireSite(input.device_group_id, user, true);
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
          device_group_id: input.device_group_id,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toHandover(row);
    },
    /** Only the successor confirms, once. */
    async confirmHandover(id: number, user: DutyCaller) {
      const h = await handoverOf(id, user);
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
    async deleteHandover(id: number, user: DutyCaller) {
      const h = await handoverOf(id, user);
      if (h.shifter_id !== user.id) throw forbidden('duty.notShifter');
      if (h.status !== 0) throw conflict('duty.confirmed');
      await k.deleteFrom('duty_handovers').where('id', '=', id).execute();
      return { deleted: 1 };
    },
  };
};
export type DutyService = ReturnType<typeof createDutyService>;
