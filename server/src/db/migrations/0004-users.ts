import { type Kysely, sql } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Users, user groups, role grants over videos and contacts, the account block list, and the
 * pages of this area in the menu catalogue with their functions.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('user_groups'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('user_groups_parent_name', ['parent_id', 'name'])
    .execute();
  await db.schema
    .createTable('user_user_groups')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_user_groups_pk', ['user_id', 'group_id'])
    .execute();
  // Video channels and contacts live in later areas; grants keep their ids.
  for (const [table, column] of [
    ['role_videos', 'video_id'],
    ['role_contacts', 'contact_id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn(column, 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['role_id', column])
      .execute();
  }
  await withId(db, db.schema.createTable('account_blocks'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_by', 'integer')
    .execute();

  // The default user group; user id 1 belongs to it.
  await sql`insert into user_groups (name, parent_id, remark, created_at) values ('default', 0, '', 0)`.execute(db);
  await sql`insert into user_user_groups (user_id, group_id) select id, 1 from users where id = 1`.execute(db);

  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (221, 220, 'menu.users', '/setting_users', 'user', 90),
    (222, 220, 'menu.userGroups', '/setting_user_groups', 'team', 80),
    (223, 220, 'menu.roles', '/authority_groups', 'safety', 70),
    (301, 300, 'menu.operationLog', '/system_log_user', 'file-text', 90),
    (401, 400, 'menu.security', '/setting_security', 'lock', 90)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (221, 'add', 'functions.add'), (221, 'edit', 'functions.edit'), (221, 'delete', 'functions.delete'),
    (222, 'add', 'functions.add'), (222, 'edit', 'functions.edit'), (222, 'delete', 'functions.delete'),
    (223, 'add', 'functions.add'), (223, 'edit', 'functions.edit'), (223, 'delete', 'functions.delete'),
    (301, 'export', 'functions.export'), (301, 'clear', 'functions.clear'),
    (401, 'edit', 'functions.edit'), (401, 'block', 'functions.block')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from menus where id in (221, 222, 223, 301, 401)`.execute(db);
  for (const table of ['account_blocks', 'role_contacts', 'role_videos', 'user_user_groups', 'user_groups']) {
    await db.schema.dropTable(table).execute();
  }
};
