import type { Kysely } from 'kysely';

/**
 * Duty rows know their sites (issue 27, "Rows that do not know their sites"; docs/inspection-duty.md):
 * a shift belongs to a site or to every site (null), its rotations and duty rows follow it; a memo and
 * a handover belong to a site or, null, to their author (the handover: to its two people). Rows made
 * before stay null: shifts for every site, memos and handovers private to their authors.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['duty_shifts', 'duty_memos', 'duty_handovers'])
    await db.schema.alterTable(table).addColumn('device_group_id', 'integer').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['duty_shifts', 'duty_memos', 'duty_handovers'])
    await db.schema.alterTable(table).dropColumn('device_group_id').execute();
};
