import type { Kysely } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Door access (issue 34; docs/door-access.md): controllers of a site, their doors, cards with their
 * holder, permissions of cards over doors, and the log read from the controllers, unique on
 * controller and event index so a sync never writes an event twice.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('door_controllers'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('brand', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull())
    .addColumn('serial', 'bigint', (c) => c.notNull())
    .addColumn('address', 'varchar(64)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_event_index', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('door_doors'))
    .addColumn('controller_id', 'integer', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('nickname', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('direction', 'varchar(8)', (c) => c.notNull().defaultTo('both'))
    .addUniqueConstraint('door_doors_number', ['controller_id', 'number'])
    .execute();
  await withId(db, db.schema.createTable('door_cards'))
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('gender', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('department', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('job_number', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('valid_from', 'varchar(10)', (c) => c.notNull())
    .addColumn('valid_to', 'varchar(10)', (c) => c.notNull())
    .addColumn('pin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('door_cards_number', ['number'])
    .execute();
  await withId(db, db.schema.createTable('door_permissions'))
    .addColumn('card_id', 'integer', (c) => c.notNull())
    .addColumn('door_id', 'integer', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('profile', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('door_permissions_pair', ['card_id', 'door_id'])
    .execute();
  await withId(db, db.schema.createTable('door_logs'))
    .addColumn('controller_id', 'integer', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('event_index', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('door', 'integer', (c) => c.notNull())
    .addColumn('direction', 'varchar(8)', (c) => c.notNull())
    .addColumn('card', 'bigint', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'integer', (c) => c.notNull())
    .addColumn('gap_to', 'bigint')
    .addUniqueConstraint('door_logs_index', ['controller_id', 'event_index'])
    .execute();
  await db.schema.createIndex('door_logs_time').on('door_logs').columns(['time']).execute();
};
