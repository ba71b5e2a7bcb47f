import { type Kysely, sql } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Work orders (issue 16; docs/work-orders.md): orders, their history of every step, attachments and
 * the automatic dispatch rules (work_order_set). Menus: 740 group, 741 /work_order (view, add; edit: dispatch rules),
 * 742 /workorder_statistics (view).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('work_orders'))
    .addColumn('number', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('handler_id', 'integer', (c) => c.notNull())
    .addColumn('creator_id', 'integer', (c) => c.notNull())
    .addColumn('reviewer_id', 'integer', (c) => c.notNull())
    .addColumn('device_group_id', 'integer')
    .addColumn('alarm_id', 'integer')
    .addColumn('alarm_level', 'integer')
    .addColumn('dispatch', 'varchar(10)', (c) => c.notNull())
    .addColumn('deadline_hours', 'double precision', (c) => c.notNull())
    .addColumn('deadline', 'bigint', (c) => c.notNull())
    .addColumn('processing_method', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resolution', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('require_recovered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint')
    .addColumn('transferred_at', 'bigint')
    .addColumn('refused_at', 'bigint')
    .addColumn('submitted_at', 'bigint')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('work_orders_handler').on('work_orders').columns(['handler_id', 'state']).execute();
  await db.schema.createIndex('work_orders_alarm').on('work_orders').columns(['alarm_id']).execute();
  await db.schema.createIndex('work_orders_created').on('work_orders').columns(['created_at']).execute();

  await withId(db, db.schema.createTable('work_order_history'))
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('from_state', 'integer')
    .addColumn('to_state', 'integer')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('user_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('work_order_history_order').on('work_order_history').columns(['order_id']).execute();

  await withId(db, db.schema.createTable('work_order_files'))
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('file', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('work_order_sets')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull())
    .addColumn('levels', 'text', (c) => c.notNull())
    .addColumn('device_group_ids', 'text', (c) => c.notNull())
    .addColumn('handler_id', 'integer', (c) => c.notNull())
    .addColumn('reviewer_id', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('deadline_hours', 'double precision', (c) => c.notNull())
    .addColumn('require_recovered', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await sql`insert into menus (id, parent_id, name_key, icon, weight) values
    (740, 0, 'menu.workOrderGroup', 'solution', 870)`.execute(db);
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (741, 740, 'menu.workOrder', '/work_order', 'solution', 542),
    (742, 740, 'menu.workOrderStatistics', '/workorder_statistics', 'bar-chart', 541)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (741, 'view', 'functions.view'), (741, 'add', 'functions.add'), (741, 'edit', 'functions.edit'),
    (742, 'view', 'functions.view')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  const menus = sql`(740, 741, 742)`;
  await sql`delete from role_functions where function_id in (select id from functions where menu_id in ${menus})`.execute(
    db,
  );
  await sql`delete from functions where menu_id in ${menus}`.execute(db);
  await sql`delete from role_menus where menu_id in ${menus}`.execute(db);
  await sql`delete from menus where id in ${menus}`.execute(db);
  for (const table of ['work_order_sets', 'work_order_files', 'work_order_history', 'work_orders'])
    await db.schema.dropTable(table).execute();
};
