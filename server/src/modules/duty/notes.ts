import type { Handover, memoInput } from '@sitewatch/contract/duty';
import type { z } from 'zod';
import { personNames } from '../../db/person-name.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { DutyRepository } from './repository.ts';
import { type DutyCaller, granted } from './rows.ts';
import type { DutyParts } from './service.ts';

type MemoInput = Omit<z.infer<typeof memoInput>, 't'>;
type MemoRow = NonNullable<Awaited<ReturnType<DutyRepository['memo']>>>;
type HandoverRow = NonNullable<Awaited<ReturnType<DutyRepository['handover']>>>;

/** A memo of a granted site, or the caller's own note. */
const seesMemo = (m: MemoRow, c: DutyCaller) =>
  m.device_group_id === null ? m.user_id === c.id : granted(c, m.device_group_id);
/** Its author changes a memo; a holder of every site may too when it is a site's (to tidy the log). */
const holdsMemo = (m: MemoRow, c: DutyCaller) => m.user_id === c.id || (m.device_group_id !== null && c.everySite);
/** Its two people see a handover, and the users of its site. */
const seesHandover = (h: HandoverRow, c: DutyCaller) =>
  h.shifter_id === c.id || h.successor_id === c.id || (h.device_group_id !== null && granted(c, h.device_group_id));

/** A handover, its two people by their shown names now (`names`), else as written then. */
const toHandover = (h: HandoverRow, names: Map<number, string>): Handover => ({
  id: h.id,
  shifter: names.get(h.shifter_id) ?? h.shifter,
  shifter_id: h.shifter_id,
  successor: names.get(h.successor_id) ?? h.successor,
  successor_id: h.successor_id,
  events: h.events,
  status: h.status,
  handover_time: Number(h.handover_time),
  confirmed_at: h.confirmed_at === null ? null : Number(h.confirmed_at),
  device_group_id: h.device_group_id,
});

/** The memorandum and the handovers: what a shift writes down and passes on to the next, seen by author and site. */
export const createDutyNotes = ({ repo, k, now, requireSite, checkRange }: DutyParts) => {
  // People are named by their alias (display name), not their login name (issue 38).
  const handoversOut = async (rows: HandoverRow[]) => {
    const names = await personNames(
      k,
      rows.flatMap((h) => [h.shifter_id, h.successor_id]),
    );
    return rows.map((h) => toHandover(h, names));
  };
  const memosOut = async (rows: MemoRow[], c: DutyCaller) => {
    const names = await personNames(
      k,
      rows.map((m) => m.user_id),
    );
    return rows.map((m) => memoOut(m, c, names));
  };
  const memoOut = (m: MemoRow, c: DutyCaller, names: Map<number, string>) => ({
    id: m.id,
    date: m.date,
    content: m.content,
    user_name: names.get(m.user_id) ?? m.user_name,
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
      return memosOut(rows, c);
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
      return (await memosOut([row], c))[0]!;
    },
    async updateMemo(id: number, input: MemoInput, c: DutyCaller) {
      await memoOf(id, c);
      await requireSite(input.device_group_id, c, true);
      await k
        .updateTable('duty_memos')
        .set({ date: input.date, content: input.content, device_group_id: input.device_group_id })
        .where('id', '=', id)
        .execute();
      return (await memosOut([(await repo.memo(id))!], c))[0]!;
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
      return handoversOut(rows);
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
      return (await handoversOut([row]))[0]!;
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
      return (await handoversOut([(await repo.handover(id))!]))[0]!;
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
