import { type Kysely, sql } from 'kysely';

/**
 * Electrical quality and safety (issue 17 item 5; docs/electrical-safety.md): the stored mapping of a
 * device's items to meter roles and switches (a device without a row is read by its cell names), and
 * the menus: 770 group, 771 /electricity_safe/overview, 772 /electricity_safe/distribution_power,
 * 773 /electricity_safe/switch_opt (control: operate a switch; edit: power_safety_settings),
 * 774 /energy_manage/elect_monitor (edit: the mapping), 775 /energy_manage/elect_analysis.
 * The settings live in module_settings (key `power_safety`), the password as an argon2id hash.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('electrical_meters')
    .addColumn('device_id', 'integer', (c) => c.primaryKey())
    /** JSON: item id per role (contract meterPoints). */
    .addColumn('points', 'text', (c) => c.notNull())
    /** JSON: [{item_id, name}]. */
    .addColumn('switches', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await sql`insert into menus (id, parent_id, name_key, icon, weight) values
    (770, 0, 'menu.electricalSafetyGroup', 'thunderbolt', 845)`.execute(db);
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (771, 770, 'menu.electricalOverview', '/electricity_safe/overview', 'dashboard', 555),
    (772, 770, 'menu.distributionPower', '/electricity_safe/distribution_power', 'apartment', 554),
    (773, 770, 'menu.switchOpt', '/electricity_safe/switch_opt', 'poweroff', 553),
    (774, 770, 'menu.electMonitor', '/energy_manage/elect_monitor', 'fund', 552),
    (775, 770, 'menu.electAnalysis', '/energy_manage/elect_analysis', 'line-chart', 551)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (771, 'view', 'functions.view'),
    (772, 'view', 'functions.view'),
    (773, 'view', 'functions.view'), (773, 'control', 'functions.control'), (773, 'edit', 'functions.edit'),
    (774, 'view', 'functions.view'), (774, 'edit', 'functions.edit'),
    (775, 'view', 'functions.view')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  const menus = sql`(770, 771, 772, 773, 774, 775)`;
  await sql`delete from role_functions where function_id in (select id from functions where menu_id in ${menus})`.execute(
    db,
  );
  await sql`delete from functions where menu_id in ${menus}`.execute(db);
  await sql`delete from role_menus where menu_id in ${menus}`.execute(db);
  await sql`delete from menus where id in ${menus}`.execute(db);
  await sql`delete from module_settings where k = 'power_safety'`.execute(db);
  await db.schema.dropTable('electrical_meters').execute();
};
