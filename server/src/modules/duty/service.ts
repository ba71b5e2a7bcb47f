import type { dutySettings } from '@sitewatch/contract/duty';
import type { z } from 'zod';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { createDutyNotes } from './notes.ts';
import type { DutyRepository } from './repository.ts';
import { type DutyCaller, finalSchedule, granted, holdsShift, type Row, seesShift } from './rows.ts';
import { createDutyTable, createShifts } from './shifts.ts';

export type { DutyCaller } from './rows.ts';

export interface DutyDeps {
  repo: DutyRepository;
  zone: string;
  clock: () => number;
}

/** What the parts of the service share: the repository, the clock and the checks of where a row may be put. */
const dutyParts = (deps: DutyDeps) => {
  const { repo } = deps;
  const now = () => Math.floor(deps.clock() / 1000);
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
  const checkRange = (from: string, to: string) => {
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
    if (days < 0 || days > 366) throw badRequest('duty.badRange');
  };
  return { repo, k: repo.k, zone: deps.zone, now, shiftOf, heldShift, requireSite, checkRange };
};
export type DutyParts = ReturnType<typeof dutyParts>;

/** The handover switch and who is on duty: what the notifier, the alarm pushes and work orders ask. */
const dutyLookups = ({ repo, k, now }: DutyParts) => {
  // Read once and again after a change: every alarm raised asks whether shift handover is on.
  const settings = () => repo.settings.get('duty');
  /** The duty rows of the shifts covering a site (its own, those of the sites above it, those of every site). */
  const forSite = async (rows: Row[], siteId: number | null | undefined) => {
    if (siteId === null || siteId === undefined) return rows;
    const chain = await repo.siteChain(siteId);
    return rows.filter((r) => r.site_id === null || chain.includes(r.site_id));
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
  };
};

/**
 * Time schedule, duty table, memorandum and handover (docs/inspection-duty.md). The shifts and the
 * duty table are in shifts.ts, the memos and handovers in notes.ts; the checks they share are the parts.
 */
export const createDutyService = (deps: DutyDeps) => {
  const parts = dutyParts(deps);
  return {
    ...dutyLookups(parts),
    ...createShifts(parts),
    ...createDutyTable(parts),
    ...createDutyNotes(parts),
  };
};
export type DutyService = ReturnType<typeof createDutyService>;
