import type { Kysely } from 'kysely';

/**
 * An item's confirm action (docs/automation.md, "Item actions"): run when a person confirms the
 * item's alarm, beside the overrun and recovery actions (a buzzer on with the alarm, off on confirm).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('items')
    .addColumn('confirm_action_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
};
