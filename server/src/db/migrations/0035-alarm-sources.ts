import type { Kysely } from 'kysely';

/**
 * Alarms of other areas (docs/alarms.md, "Alarms of other areas"): a camera or a door controller
 * that stopped answering, a door forced open. `source` names what raised the alarm (`video:3`,
 * `door-access:controller:2`), '' for the engine's own item and device alarms; an open alarm is found
 * again by it after a restart, so its recovery closes the alarm it raised.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('alarms')
    .addColumn('source', 'varchar(96)', (c) => c.notNull().defaultTo(''))
    .execute();
};
