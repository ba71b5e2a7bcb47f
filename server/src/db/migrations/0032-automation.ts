import type { Kysely } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Automation (issue 32; docs/automation.md): actions and their runs, linkage rules, timed tasks and
 * their log. Every row names its site (`device_group_id`). Menus come from the area's declaration.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('automation_actions'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('preset', 'varchar(32)', (c) => c.notNull())
    .addColumn('commands', 'text', (c) => c.notNull())
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('automation_runs'))
    .addColumn('action_id', 'integer', (c) => c.notNull())
    .addColumn('action_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
    .addColumn('trigger_id', 'integer', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('results', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('automation_runs_action').on('automation_runs').columns(['action_id', 'id']).execute();
  await withId(db, db.schema.createTable('automation_linkages'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull())
    .addColumn('match', 'varchar(8)', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('hold_seconds', 'integer', (c) => c.notNull())
    .addColumn('period_id', 'integer', (c) => c.notNull())
    .addColumn('action_id', 'integer', (c) => c.notNull())
    .addColumn('recovery_action_id', 'integer', (c) => c.notNull())
    .addColumn('last_fired', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('automation_tasks'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull())
    .addColumn('action_id', 'integer', (c) => c.notNull())
    .addColumn('repeat', 'varchar(16)', (c) => c.notNull())
    .addColumn('start', 'bigint', (c) => c.notNull())
    .addColumn('cron', 'varchar(120)', (c) => c.notNull())
    .addColumn('next_run', 'bigint')
    .addColumn('last_run', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('automation_task_log'))
    .addColumn('task_id', 'integer', (c) => c.notNull())
    .addColumn('task_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('run_id', 'integer', (c) => c.notNull())
    .addColumn('detail', 'varchar(500)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('automation_task_log_task')
    .on('automation_task_log')
    .columns(['task_id', 'id'])
    .execute();
};
