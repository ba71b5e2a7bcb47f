import type { Kysely } from 'kysely';

/**
 * Who was on duty when a work order was made (issue 16 Build 4: resolved from the stored shifts and
 * kept on the order as it was then), and dispatch rules that send the order to the person on duty.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('work_orders')
    .addColumn('on_duty', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('work_order_sets')
    .addColumn('handler_on_duty', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('work_order_sets').dropColumn('handler_on_duty').execute();
  await db.schema.alterTable('work_orders').dropColumn('on_duty').execute();
};
