import { type Kysely, sql } from 'kysely';
import { isPostgres, withId } from '../migration-kit.ts';

/**
 * Alarms and notifications: alarm levels, settings (alarm commons, mail service, templates),
 * alarm records with their log, disabled items and devices, contacts, contact groups, channels and
 * the notification log; the pages of docs/menus.md with their functions.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  const real = isPostgres(db) ? 'double precision' : 'real';
  await withId(db, db.schema.createTable('alarm_levels'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('color', 'varchar(7)', (c) => c.notNull())
    .addColumn('sound', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`insert into alarm_levels (name, level, color, sound) values
    ('紧急', 1, '#cf1322', 1), ('严重', 2, '#fa541c', 1), ('重要', 3, '#fa8c16', 1),
    ('次要', 4, '#fadb14', 1), ('提示', 5, '#1677ff', 0)`.execute(db);

  await db.schema
    .createTable('alarm_settings')
    .addColumn('k', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('v', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // Ids are given by the engine (it publishes an alarm before the row is written).
  await db.schema
    .createTable('alarms')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('item_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_group_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('color', 'varchar(7)', (c) => c.notNull())
    .addColumn('info', 'varchar(300)', (c) => c.notNull())
    .addColumn('value', real)
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint')
    .addColumn('last_check', 'bigint', (c) => c.notNull())
    .addColumn('handling', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remarks', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('confirmed_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('confirmed_at', 'bigint')
    .addColumn('notify_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('escalated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('alarms_open').on('alarms').columns(['end_time', 'device_group_id']).execute();
  await db.schema.createIndex('alarms_item').on('alarms').column('item_id').execute();

  await db.schema
    .createTable('alarm_disabled')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('alarm_disabled_pk', ['kind', 'target_id'])
    .execute();

  await withId(db, db.schema.createTable('alarm_logs'))
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('alarm_id', 'integer', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('item_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_group_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('detail', 'varchar(2000)', (c) => c.notNull())
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alarm_logs_time').on('alarm_logs').column('time').execute();

  await withId(db, db.schema.createTable('contacts'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('alias', 'varchar(64)', (c) => c.notNull())
    .addColumn('email', 'varchar(128)', (c) => c.notNull())
    .addColumn('phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('voice_number', 'varchar(32)', (c) => c.notNull())
    .addColumn('sms_number', 'varchar(32)', (c) => c.notNull())
    .addColumn('alarm_level', 'integer', (c) => c.notNull())
    .addColumn('time_period_id', 'integer', (c) => c.notNull())
    .addColumn('duty', 'integer', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('contact_groups'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('remark', 'varchar(200)', (c) => c.notNull())
    .addColumn('contact_ids', 'text', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addColumn('sms', 'integer', (c) => c.notNull())
    .addColumn('voice', 'integer', (c) => c.notNull())
    .addColumn('channel_ids', 'text', (c) => c.notNull())
    .addColumn('escalate_minutes', 'integer', (c) => c.notNull())
    .addColumn('escalate_group_id', 'integer', (c) => c.notNull())
    .addColumn('mode', 'integer', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('notify_channels'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('notification_logs'))
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('alarm_id', 'integer', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('item_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_group_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('channel', 'varchar(32)', (c) => c.notNull())
    .addColumn('target', 'varchar(300)', (c) => c.notNull())
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('detail', 'varchar(2000)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notification_logs_time').on('notification_logs').column('time').execute();

  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (104, 100, 'menu.alarm', '/alarm', 'alert', 860),
    (225, 220, 'menu.contacts', '/setting_contacts', 'contacts', 70),
    (226, 220, 'menu.contactGroups', '/setting_contact_groups', 'usergroup-add', 65),
    (231, 230, 'menu.alarmParam', '/setting_alarm_param', 'control', 100),
    (232, 230, 'menu.warningLevel', '/warning_level', 'bars', 95),
    (233, 230, 'menu.mailbox', '/setting_mailbox', 'mail', 90),
    (234, 230, 'menu.alarmPush', '/alarm_push', 'notification', 85),
    (235, 230, 'menu.alarmTemplate', '/setting_alarm_template', 'file-text', 80),
    (302, 300, 'menu.alarmLog', '/system_log_alarm', 'file-exclamation', 90),
    (303, 300, 'menu.notificationLog', '/system_log_notification', 'file-search', 85)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (104, 'view', 'functions.view'), (104, 'confirm', 'functions.confirm'), (104, 'disable', 'functions.disable'),
    (104, 'export', 'functions.export'),
    (225, 'view', 'functions.view'), (225, 'add', 'functions.add'), (225, 'edit', 'functions.edit'),
    (225, 'delete', 'functions.delete'),
    (226, 'view', 'functions.view'), (226, 'add', 'functions.add'), (226, 'edit', 'functions.edit'),
    (226, 'delete', 'functions.delete'),
    (231, 'view', 'functions.view'), (231, 'edit', 'functions.edit'),
    (232, 'view', 'functions.view'), (232, 'add', 'functions.add'), (232, 'edit', 'functions.edit'),
    (232, 'delete', 'functions.delete'),
    (233, 'view', 'functions.view'), (233, 'edit', 'functions.edit'),
    (234, 'view', 'functions.view'), (234, 'add', 'functions.add'), (234, 'edit', 'functions.edit'),
    (234, 'delete', 'functions.delete'),
    (235, 'view', 'functions.view'), (235, 'edit', 'functions.edit'),
    (302, 'view', 'functions.view'), (302, 'clear', 'functions.clear'),
    (303, 'view', 'functions.view'), (303, 'clear', 'functions.clear')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  const menus = [104, 225, 226, 231, 232, 233, 234, 235, 302, 303];
  await sql`delete from role_functions where function_id in (select id from functions where menu_id in (${sql.join(menus)}))`.execute(
    db,
  );
  await sql`delete from functions where menu_id in (${sql.join(menus)})`.execute(db);
  await sql`delete from role_menus where menu_id in (${sql.join(menus)})`.execute(db);
  await sql`delete from menus where id in (${sql.join(menus)})`.execute(db);
  for (const table of [
    'notification_logs',
    'notify_channels',
    'contact_groups',
    'contacts',
    'alarm_logs',
    'alarm_disabled',
    'alarms',
    'alarm_settings',
    'alarm_levels',
  ]) {
    await db.schema.dropTable(table).execute();
  }
};
