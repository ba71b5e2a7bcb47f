import { type Kysely, sql } from 'kysely';

/**
 * LDAP: the page /setting_LDAP (menu 224 under Personnel, between users and user groups as the
 * spec lists them) with its functions. The settings live in the global config (key `LDAP`) and
 * LDAP users are users of login type 2, so no table is needed.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (224, 220, 'menu.ldap', '/setting_LDAP', 'cloud-server', 85)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (224, 'view', 'functions.view'), (224, 'edit', 'functions.edit'), (224, 'import', 'functions.import')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from functions where menu_id = 224`.execute(db);
  await sql`delete from menus where id = 224`.execute(db);
  await sql`delete from global_config where k = 'LDAP'`.execute(db);
};
