import { type Kysely, sql } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Scheduled tasks, inspection and duty (issue 16; docs/inspection-duty.md). Menus: 720 inspection
 * (721 /polling_main: view, inspect, review, edit), 730 duty (731 /duty_manage/duty_arrange,
 * 732 /duty_manage/change_shifts, 733 /duty_manage/duty_memo: view, edit).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  // One row per scheduled task: its next run is stored, so a restart neither repeats nor skips it.
  await withId(db, db.schema.createTable('scheduled_tasks'))
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    .addColumn('rule', 'varchar(20)', (c) => c.notNull())
    .addColumn('anchor', 'bigint', (c) => c.notNull())
    .addColumn('next_run', 'bigint')
    .addColumn('last_run', 'bigint')
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('scheduled_tasks_ref')
    .on('scheduled_tasks')
    .columns(['kind', 'ref_id'])
    .unique()
    .execute();

  await withId(db, db.schema.createTable('inspection_plans'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_group_ids', 'text', (c) => c.notNull())
    .addColumn('rule', 'varchar(20)', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('inspection_reports'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('plan_id', 'integer')
    .addColumn('inspector_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inspector', 'varchar(100)', (c) => c.notNull())
    .addColumn('reviewer_id', 'integer')
    .addColumn('reviewer', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('device_group_ids', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('review_comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('items', 'integer', (c) => c.notNull())
    .addColumn('abnormal', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .execute();
  await db.schema.createIndex('inspection_reports_time').on('inspection_reports').columns(['created_at']).execute();

  await db.schema
    .createTable('module_settings')
    .addColumn('k', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('v', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // Time schedule: named shifts with a wall-clock start and end ('HH:MM'; an end not after the start ends next day).
  await withId(db, db.schema.createTable('duty_shifts'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('start', 'varchar(5)', (c) => c.notNull())
    .addColumn('end', 'varchar(5)', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('duty_rotations'))
    .addColumn('shift_id', 'integer', (c) => c.notNull().references('duty_shifts.id').onDelete('cascade'))
    .addColumn('contact_ids', 'text', (c) => c.notNull())
    .addColumn('start_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('weeks', 'integer', (c) => c.notNull())
    .addColumn('horizon_weeks', 'integer', (c) => c.notNull())
    .execute();
  // The duty table: concrete shifts (from a rotation, or a one-off override that wins over them).
  await withId(db, db.schema.createTable('duty_table'))
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('shift_id', 'integer', (c) => c.notNull().references('duty_shifts.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('rotation_id', 'integer')
    .addColumn('override', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('duty_table_time').on('duty_table').columns(['start_at', 'end_at']).execute();
  await withId(db, db.schema.createTable('duty_memos'))
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('user_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('duty_handovers'))
    .addColumn('shifter_id', 'integer', (c) => c.notNull())
    .addColumn('shifter', 'varchar(100)', (c) => c.notNull())
    .addColumn('successor_id', 'integer', (c) => c.notNull())
    .addColumn('successor', 'varchar(100)', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('handover_time', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .execute();

  await sql`insert into menus (id, parent_id, name_key, icon, weight) values
    (720, 0, 'menu.inspectionGroup', 'audit', 860),
    (730, 0, 'menu.dutyGroup', 'schedule', 850)`.execute(db);
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (721, 720, 'menu.inspection', '/polling_main', 'audit', 521),
    (731, 730, 'menu.dutyArrange', '/duty_manage/duty_arrange', 'calendar', 533),
    (732, 730, 'menu.changeShifts', '/duty_manage/change_shifts', 'swap', 532),
    (733, 730, 'menu.dutyMemo', '/duty_manage/duty_memo', 'file-text', 531)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (721, 'view', 'functions.view'), (721, 'inspect', 'functions.inspect'),
    (721, 'review', 'functions.review'), (721, 'edit', 'functions.edit'),
    (731, 'view', 'functions.view'), (731, 'edit', 'functions.edit'),
    (732, 'view', 'functions.view'), (732, 'edit', 'functions.edit'),
    (733, 'view', 'functions.view'), (733, 'edit', 'functions.edit')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  const menus = sql`(720, 721, 730, 731, 732, 733)`;
  await sql`delete from role_functions where function_id in (select id from functions where menu_id in ${menus})`.execute(
    db,
  );
  await sql`delete from functions where menu_id in ${menus}`.execute(db);
  await sql`delete from role_menus where menu_id in ${menus}`.execute(db);
  await sql`delete from menus where id in ${menus}`.execute(db);
  for (const table of [
    'duty_handovers',
    'duty_memos',
    'duty_table',
    'duty_rotations',
    'duty_shifts',
    'module_settings',
    'inspection_reports',
    'inspection_plans',
    'scheduled_tasks',
  ])
    await db.schema.dropTable(table).execute();
};
