import { type Kysely, sql } from 'kysely';
import { isPostgres, withId } from '../migration-kit.ts';

/**
 * Accounts and the menu catalogue: users, sessions, auto-login device tokens, captchas, login
 * attempts, the operation log, menus and their functions. The top-level menu groups are seeded
 * here; each area's migration adds the pages it builds under them.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('users'))
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('alias', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('password_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pwd_always_valid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('login_type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('language', 'varchar(8)', (c) => c.notNull().defaultTo('zh_cn'))
    .addColumn('locked_at', 'bigint')
    .addColumn('lock_reason', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('sessions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('device_token_id', 'integer')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoke_reason', 'varchar(32)')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'revoked_at']).execute();

  await withId(db, db.schema.createTable('device_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('captchas')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('code', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('login_attempts'))
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempts_user_time').on('login_attempts').columns(['user_name', 'time']).execute();

  await withId(db, db.schema.createTable('operation_logs'))
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('module', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('operation_logs_time').on('operation_logs').column('time').execute();

  await db.schema
    .createTable('menus')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name_key', 'varchar(100)')
    .addColumn('name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('target', 'varchar(16)', (c) => c.notNull().defaultTo('_self'))
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('display', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await withId(db, db.schema.createTable('functions'))
    .addColumn('menu_id', 'integer', (c) => c.notNull().references('menus.id').onDelete('cascade'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull())
    .addUniqueConstraint('functions_menu_code', ['menu_id', 'code'])
    .execute();

  await withId(db, db.schema.createTable('roles'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema
    .createTable('role_menus')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('menu_id', 'integer', (c) => c.notNull().references('menus.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_menus_pk', ['role_id', 'menu_id'])
    .execute();
  await db.schema
    .createTable('role_functions')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('function_id', 'integer', (c) => c.notNull().references('functions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_functions_pk', ['role_id', 'function_id'])
    .execute();
  /** Site grants: ids of device groups (sites); the table of sites comes with the monitoring area. */
  await db.schema
    .createTable('role_sites')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_sites_pk', ['role_id', 'site_id'])
    .execute();
  // Role id 1 is the administrator (000 §6); user id 1 is made at first start.
  await sql`insert into roles (id, name, remark, created_at) values (1, 'administrator', '', 0)`.execute(db);
  if (isPostgres(db)) await sql`select setval(pg_get_serial_sequence('roles', 'id'), 1)`.execute(db);

  // Top-level groups; pages are added by each area's migration (menu ids: see docs/menus.md).
  await sql`insert into menus (id, parent_id, name_key, icon, weight) values
    (100, 0, 'menu.monitoring', 'monitor', 900),
    (200, 0, 'menu.configuration', 'setting', 800),
    (210, 200, 'menu.sitesDevices', 'cluster', 790),
    (220, 200, 'menu.personnel', 'team', 780),
    (230, 200, 'menu.alarmSettings', 'alert', 770),
    (300, 0, 'menu.logs', 'profile', 700),
    (400, 0, 'menu.system', 'tool', 600)`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of [
    'functions',
    'menus',
    'operation_logs',
    'login_attempts',
    'captchas',
    'device_tokens',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
};
