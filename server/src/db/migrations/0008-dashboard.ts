import { type Kysely, sql } from 'kysely';

/**
 * The overview page (docs/dashboard.md): menu 105 /overview in the Monitoring group with its view
 * function, and an index for the alarm ranking (alarms raised since the last clear, per item).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (105, 100, 'menu.overview', '/overview', 'appstore', 850)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values (105, 'view', 'functions.view')`.execute(db);
  await db.schema.createIndex('alarms_start').on('alarms').columns(['start_time', 'item_id']).execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('alarms_start').execute();
  await sql`delete from role_functions where function_id in (select id from functions where menu_id = 105)`.execute(db);
  await sql`delete from functions where menu_id = 105`.execute(db);
  await sql`delete from role_menus where menu_id = 105`.execute(db);
  await sql`delete from menus where id = 105`.execute(db);
  await sql`delete from global_config where k = 'ALARM_COUNT_CLEAR'`.execute(db);
};
