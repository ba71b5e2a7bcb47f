import { type Kysely, sql } from 'kysely';

/**
 * Energy pages (issue 17; docs/energy.md "Web pages", docs/menus.md): 108 /energy_survey under
 * Monitoring; 216 /setting_energy (meters: view, add, edit, delete) under Sites and devices; the 750
 * group Energy management with 751 /energy_manage/energy_servey, 752 energy_static, 753
 * energy_analysis, 754 cost_static, 755 time_share_static (view) and 756 param_config (tariffs and the tariff in force:
 * view, add, edit, delete). Writing meters, tariffs and the tariff in force needs 216's or 756's
 * function from now on instead of /setting_device_mange's edit: the administrator's role, which
 * every page's function is granted to implicitly, keeps them; another role that edited devices
 * gets the new grants here so that nobody loses what they could do.
 */
const pages = [108, 216, 751, 752, 753, 754, 755, 756];

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`insert into menus (id, parent_id, name_key, icon, weight) values
    (750, 0, 'menu.energyGroup', 'thunderbolt', 848)`.execute(db);
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (108, 100, 'menu.energySurvey', '/energy_survey', 'fund', 835),
    (216, 210, 'menu.settingEnergy', '/setting_energy', 'dashboard', 845),
    (751, 750, 'menu.energyServey', '/energy_manage/energy_servey', 'fund', 569),
    (752, 750, 'menu.energyStatic', '/energy_manage/energy_static', 'bar-chart', 568),
    (753, 750, 'menu.energyAnalysis', '/energy_manage/energy_analysis', 'pie-chart', 567),
    (754, 750, 'menu.costStatic', '/energy_manage/cost_static', 'account-book', 566),
    (755, 750, 'menu.timeShareStatic', '/energy_manage/time_share_static', 'clock-circle', 565),
    (756, 750, 'menu.paramConfig', '/energy_manage/param_config', 'setting', 564)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (108, 'view', 'functions.view'),
    (216, 'view', 'functions.view'), (216, 'add', 'functions.add'), (216, 'edit', 'functions.edit'),
    (216, 'delete', 'functions.delete'),
    (751, 'view', 'functions.view'), (752, 'view', 'functions.view'), (753, 'view', 'functions.view'),
    (754, 'view', 'functions.view'), (755, 'view', 'functions.view'),
    (756, 'view', 'functions.view'), (756, 'add', 'functions.add'), (756, 'edit', 'functions.edit'),
    (756, 'delete', 'functions.delete')`.execute(db);
  // Roles that could configure energy through /setting_device_mange's edit keep that power.
  await sql`insert into role_menus (role_id, menu_id)
    select distinct rf.role_id, m.id from role_functions rf
      join functions f on f.id = rf.function_id and f.menu_id = 212 and f.code = 'edit'
      cross join menus m where m.id in (216, 756, 750, 210)
      and not exists (select 1 from role_menus x where x.role_id = rf.role_id and x.menu_id = m.id)`.execute(db);
  await sql`insert into role_functions (role_id, function_id)
    select distinct rf.role_id, g.id from role_functions rf
      join functions f on f.id = rf.function_id and f.menu_id = 212 and f.code = 'edit'
      cross join functions g where g.menu_id in (216, 756)
      and not exists (select 1 from role_functions x where x.role_id = rf.role_id and x.function_id = g.id)`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  const menus = sql`(${sql.join([...pages, 750])})`;
  await sql`delete from role_functions where function_id in (select id from functions where menu_id in ${menus})`.execute(
    db,
  );
  await sql`delete from functions where menu_id in ${menus}`.execute(db);
  await sql`delete from role_menus where menu_id in ${menus}`.execute(db);
  await sql`delete from menus where id in ${menus}`.execute(db);
};
