import { dutySettings } from '@sitewatch/contract/duty';
import type { Db } from '../../db/kysely.ts';
import { createSettingsStore } from '../../db/settings-store.ts';

/** Shifts, duty rows, memos, handovers and the duty setting. */
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
      ]);
  return {
    k,
    shifts: () => k.selectFrom('duty_shifts').selectAll().orderBy('start').orderBy('id').execute(),
    shift: (id: number) => k.selectFrom('duty_shifts').selectAll().where('id', '=', id).executeTakeFirst(),
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
