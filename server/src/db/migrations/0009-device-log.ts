import type { Kysely } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * The device log of the device pages (002 §2.3 "device overview, details, log and curve"): every
 * change of a device's communication state as the collector sees it, plus the indexes that let the
 * log find a device's alarm-log rows and operation-log rows without scanning those tables.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('device_state_logs'))
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    /** The state before the change; -1 when none was recorded (first record of a device). */
    .addColumn('prev_state', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(300)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_state_logs_device')
    .on('device_state_logs')
    .columns(['device_id', 'time'])
    .execute();
  await db.schema.createIndex('alarms_device').on('alarms').column('device_id').execute();
  await db.schema.createIndex('alarm_logs_alarm').on('alarm_logs').column('alarm_id').execute();
  await db.schema.createIndex('operation_logs_target').on('operation_logs').columns(['target', 'module']).execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('operation_logs_target').execute();
  await db.schema.dropIndex('alarm_logs_alarm').execute();
  await db.schema.dropIndex('alarms_device').execute();
  await db.schema.dropTable('device_state_logs').execute();
};
