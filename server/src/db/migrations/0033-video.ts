import type { Kysely } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Video devices (issue 33; docs/video.md): recorders and cameras of a site with their channels (a
 * JSON list of channel number, name, main and sub stream address), the password sealed at rest in
 * `secret` (a JSON object, the `password` field encrypted), and the state the console last saw.
 * Menus 820 (group), 821 /video_live, 822 /setting_video_mange come from the area's declaration.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('video_devices'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('brand', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull().defaultTo('rtsp'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(255)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('user', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('channels', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('unchecked'))
    .addColumn('state_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state_since', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('video_codec', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('audio_codec', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('video_devices_site').on('video_devices').column('device_group_id').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('video_devices').execute();
};
