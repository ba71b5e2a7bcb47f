import { dutySettings } from '@sitewatch/contract/duty';
import type { Db } from '../../db/kysely.ts';
import { createSettingsStore } from '../../db/settings-store.ts';

/** Shifts, duty rows (each with its shift's site), memos, handovers and the duty setting. */
export const createDutyRepository = (db: Db, clock?: () => number) => {
  const k = db.kysely;
  const entries = () =>
    k
      .selectFrom('duty_table')
      .innerJoin('duty_shifts', 'duty_shifts.id', 'duty_table.shift_id')
      .leftJoin('contacts', 'contacts.id', 'duty_table.contact_id')
      .select([
        'duty_table.id',
        'duty_table.date',
        'duty_table.shift_id',
        'duty_shifts.name as shift_name',
        'duty_table.contact_id',
        'contacts.name as contact_name',
        'duty_table.override',
        'duty_table.start_at',
        'duty_table.end_at',
        'duty_shifts.device_group_id as site_id',
      ]);
  return {
    k,
    shifts: () => k.selectFrom('duty_shifts').selectAll().orderBy('start').orderBy('id').execute(),
    shift: (id: number) => k.selectFrom('duty_shifts').selectAll().where('id', '=', id).executeTakeFirst(),
    entry: (id: number) => entries().where('duty_table.id', '=', id).executeTakeFirst(),
    siteExists: async (id: number) =>
      (await k.selectFrom('device_groups').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
    /** A site with the sites above it: a shift of any of them covers the site. */
    siteChain: async (id: number) => {
      const parents = new Map(
        (await k.selectFrom('device_groups').select(['id', 'parent_id']).execute()).map((s) => [s.id, s.parent_id]),
      );
      const chain: number[] = [];
      for (let at: number | undefined = id; at && !chain.includes(at); at = parents.get(at)) chain.push(at);
      return chain;
    },
    /** Enabled contacts (of these ids; null: all), the people a duty table may name. */
    members: (ids: number[] | null) =>
      ids !== null && ids.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('contacts')
            .select(['id', 'name'])
            .where('enable', '=', 1)
            .$if(ids !== null, (q) => q.where('id', 'in', ids!))
            .orderBy('id')
            .execute(),
    contacts: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k.selectFrom('contacts').select(['id', 'name', 'email']).where('id', 'in', ids).execute(),
    /** Rows of days between two dates, by day and shift start. */
    between: (from: string, to: string) =>
      entries()
        .where('duty_table.date', '>=', from)
        .where('duty_table.date', '<=', to)
        .orderBy('duty_table.date')
        .orderBy('duty_table.start_at')
        .orderBy('duty_table.id')
        .execute(),
    /** Rows covering an instant (epoch seconds). */
    covering: (at: number) =>
      entries()
        .where('duty_table.start_at', '<=', at)
        .where('duty_table.end_at', '>', at)
        .orderBy('duty_table.id')
        .execute(),
    ofContacts: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : entries().where('duty_table.contact_id', 'in', ids).orderBy('duty_table.start_at').execute(),
    /** The duty setting (module_settings `duty`), cached: every raised alarm's push consults it. */
    settings: createSettingsStore({
      db,
      table: 'module_settings',
      schemas: { duty: dutySettings },
      defaults: { duty: dutySettings.parse({}) },
      clock,
    }),
    memo: (id: number) => k.selectFrom('duty_memos').selectAll().where('id', '=', id).executeTakeFirst(),
    handover: (id: number) => k.selectFrom('duty_handovers').selectAll().where('id', '=', id).executeTakeFirst(),
    user: (id: number) =>
      k
        .selectFrom('users')
        .select(['id', 'user_name', 'alias', 'email', 'enable'])
        .where('id', '=', id)
        .executeTakeFirst(),
  };
};
export type DutyRepository = ReturnType<typeof createDutyRepository>;
