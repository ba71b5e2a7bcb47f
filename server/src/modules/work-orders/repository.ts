import type { Insertable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import { personName } from '../../db/person-name.ts';
import type { WorkOrdersTable, WorkOrderTables } from '../../db/schema-work-orders.ts';

type SetRow = WorkOrderTables['work_order_sets'];

/** Orders, their history and files, the dispatch rules, and the user names they show. */
export const createWorkOrderRepository = (db: Db) => {
  const k = db.kysely;
  const orders = () =>
    k
      .selectFrom('work_orders as o')
      .leftJoin('users as h', 'h.id', 'o.handler_id')
      .leftJoin('users as c', 'c.id', 'o.creator_id')
      .leftJoin('users as r', 'r.id', 'o.reviewer_id')
      .selectAll('o')
      .select([
        personName('h').as('handler_name'),
        personName('c').as('creator_name'),
        personName('r').as('reviewer_name'),
      ]);
  return {
    k,
    order: (id: number) => orders().where('o.id', '=', id).executeTakeFirst(),
    orders,
    // One transaction: nobody reads an order without its number (the number comes from the id).
    insertOrder: (row: Insertable<WorkOrdersTable>) =>
      k.transaction().execute(async (tx) => {
        const { id } = await tx.insertInto('work_orders').values(row).returning('id').executeTakeFirstOrThrow();
        await tx
          .updateTable('work_orders')
          .set({ number: `WO${String(id).padStart(6, '0')}` })
          .where('id', '=', id)
          .execute();
        return id;
      }),
    /** Changes an order only if it is still in `from`: two racing actions cannot both apply. */
    updateOrder: async (id: number, from: number, set: Updateable<WorkOrdersTable>) =>
      Number(
        (await k.updateTable('work_orders').set(set).where('id', '=', id).where('state', '=', from).executeTakeFirst())
          .numUpdatedRows,
      ) === 1,
    deleteOrder: async (id: number, from: number) =>
      Number(
        (await k.deleteFrom('work_orders').where('id', '=', id).where('state', '=', from).executeTakeFirst())
          .numDeletedRows,
      ) === 1,
    addHistory: (row: Insertable<WorkOrderTables['work_order_history']>) =>
      k.insertInto('work_order_history').values(row).execute(),
    /** The history, each person by their alias now (rows keep the name written then, for removed users). */
    history: (orderId: number) =>
      k
        .selectFrom('work_order_history as wh')
        .leftJoin('users as u', 'u.id', 'wh.user_id')
        .select([
          'wh.id',
          'wh.order_id',
          'wh.action',
          'wh.from_state',
          'wh.to_state',
          'wh.user_id',
          'wh.comment',
          'wh.time',
        ])
        .select(personName('u', sql.ref('wh.user_name')).as('user_name'))
        .where('wh.order_id', '=', orderId)
        .orderBy('wh.id')
        .execute(),
    files: (orderId: number) =>
      k.selectFrom('work_order_files').selectAll().where('order_id', '=', orderId).orderBy('id').execute(),
    fileByName: (file: string) =>
      k.selectFrom('work_order_files').selectAll().where('file', '=', file).executeTakeFirst(),
    addFile: async (row: Insertable<WorkOrderTables['work_order_files']>) =>
      (await k.insertInto('work_order_files').values(row).returning('id').executeTakeFirstOrThrow()).id,
    user: (id: number) =>
      k.selectFrom('users').select(['id', 'alias', 'user_name', 'enable']).where('id', '=', id).executeTakeFirst(),
    users: () =>
      k.selectFrom('users').select(['id', 'alias', 'user_name']).where('enable', '=', 1).orderBy('id').execute(),
    alarm: (id: number) =>
      k
        .selectFrom('alarms')
        .select(['id', 'level', 'end_time', 'device_group_id'])
        .where('id', '=', id)
        .executeTakeFirst(),
    orderOfAlarm: (alarmId: number) =>
      k.selectFrom('work_orders').select(['id', 'number']).where('alarm_id', '=', alarmId).executeTakeFirst(),
    sets: () => k.selectFrom('work_order_sets').selectAll().orderBy('id').execute(),
    putSet: async (row: SetRow) => {
      const r = await k.updateTable('work_order_sets').set(row).where('id', '=', row.id).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) await k.insertInto('work_order_sets').values(row).execute();
    },
  };
};
export type WorkOrderRepository = ReturnType<typeof createWorkOrderRepository>;
