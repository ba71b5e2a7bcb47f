import { type Kysely, sql } from 'kysely';

/**
 * The report pages of the Monitoring group (docs/reports.md): /data_list and /history_report with
 * their functions; history templates keep the whole selection (site, devices, range); indexes for
 * the data list's filters and sorts over many items.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (102, 100, 'menu.dataList', '/data_list', 'table', 950),
    (103, 100, 'menu.historyReport', '/history_report', 'line-chart', 940)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (102, 'view', 'functions.view'), (102, 'export', 'functions.export'),
    (103, 'view', 'functions.view'), (103, 'export', 'functions.export'),
    (103, 'add', 'functions.add'), (103, 'delete', 'functions.delete')`.execute(db);

  await db.schema
    .alterTable('data_history_templates')
    .addColumn('site_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('data_history_templates')
    .addColumn('device_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('data_history_templates')
    .addColumn('range', 'varchar(16)', (c) => c.notNull().defaultTo('last24h'))
    .execute();
  await db.schema.alterTable('data_history_templates').addColumn('t1', 'bigint').execute();
  await db.schema.alterTable('data_history_templates').addColumn('t2', 'bigint').execute();
  await db.schema.alterTable('data_history_templates').addColumn('created_by', 'integer').execute();

  // The data list filters by state and sorts by value or last update over every item.
  await db.schema.createIndex('items_state').on('items').columns(['state', 'device_id']).execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('items_state').execute();
  for (const column of ['created_by', 't2', 't1', 'range', 'device_ids', 'site_id']) {
    await db.schema.alterTable('data_history_templates').dropColumn(column).execute();
  }
  await sql`delete from role_functions where function_id in (select id from functions where menu_id in (102, 103))`.execute(
    db,
  );
  await sql`delete from functions where menu_id in (102, 103)`.execute(db);
  await sql`delete from role_menus where menu_id in (102, 103)`.execute(db);
  await sql`delete from menus where id in (102, 103)`.execute(db);
};
