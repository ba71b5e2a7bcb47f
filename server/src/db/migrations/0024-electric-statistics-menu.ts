import { type Kysely, sql } from 'kysely';

/**
 * 217 /electric_statistics (002 §2.1 energy settings; docs/energy.md "Web pages"): per site this
 * month's and last month's energy, cost, PUE and tariff, under Sites and devices beside
 * /setting_energy (216). Roles that see /setting_energy see it too.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (217, 210, 'menu.electricStatistics', '/electric_statistics', 'bar-chart', 844)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values (217, 'view', 'functions.view')`.execute(db);
  await sql`insert into role_menus (role_id, menu_id)
    select role_id, 217 from role_menus where menu_id = 216`.execute(db);
  await sql`insert into role_functions (role_id, function_id)
    select distinct rm.role_id, f.id from role_menus rm join functions f on f.menu_id = 217
    where rm.menu_id = 216`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from role_functions where function_id in (select id from functions where menu_id = 217)`.execute(db);
  await sql`delete from functions where menu_id = 217`.execute(db);
  await sql`delete from role_menus where menu_id = 217`.execute(db);
  await sql`delete from menus where id = 217`.execute(db);
};
