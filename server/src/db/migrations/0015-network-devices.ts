import { type Kysely, sql } from 'kysely';

/**
 * Network devices (docs/network-devices.md): menu 106 /network_device in the Monitoring group with
 * its view function. No table: the devices and their port items are ordinary devices and items.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (106, 100, 'menu.networkDevice', '/network_device', 'cluster', 845)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values (106, 'view', 'functions.view')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from role_functions where function_id in (select id from functions where menu_id = 106)`.execute(db);
  await sql`delete from functions where menu_id = 106`.execute(db);
  await sql`delete from role_menus where menu_id = 106`.execute(db);
  await sql`delete from menus where id = 106`.execute(db);
};
