import { type Kysely, sql } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * The site map (issue 15; docs/site-map.md "Server"): backgrounds per site, site type and sub-site,
 * placed components, the image library and the area's settings (rotation, GIS map). Menus: 107 /map
 * (the live view), 214 /groupmap_edit (the editor: view, edit) and 215 /setting_GIS (view, edit).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('top_view_backgrounds'))
    .addColumn('device_group_id', 'integer', (c) => c.notNull().references('device_groups.id').onDelete('cascade'))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('background', 'varchar(200)', (c) => c.notNull())
    .addColumn('extend', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One background per picture (site, site type, sub-site): adding a second one replaces it.
  await db.schema
    .createIndex('top_view_backgrounds_picture')
    .on('top_view_backgrounds')
    .columns(['device_group_id', 'type', 'parent_id'])
    .unique()
    .execute();

  await withId(db, db.schema.createTable('top_view_components'))
    .addColumn('device_group_id', 'integer', (c) => c.notNull().references('device_groups.id').onDelete('cascade'))
    .addColumn('site_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('device_id', 'integer')
    .addColumn('link', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('normal_img', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('abnormal_img', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('width', 'double precision', (c) => c.notNull())
    .addColumn('height', 'double precision', (c) => c.notNull())
    .addColumn('top', 'double precision', (c) => c.notNull())
    .addColumn('left', 'double precision', (c) => c.notNull())
    .addColumn('item_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('video_id', 'integer')
    .addColumn('extend', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('top_view_components_picture')
    .on('top_view_components')
    .columns(['device_group_id', 'site_type', 'parent_id'])
    .execute();

  // Uploaded images: `kind` background or icon; `file` the stored name (random, with the extension of its content).
  await withId(db, db.schema.createTable('top_view_images'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('file', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('top_view_settings')
    .addColumn('k', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('v', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (107, 100, 'menu.siteMap', '/map', 'picture', 840),
    (214, 210, 'menu.siteMapEdit', '/groupmap_edit', 'edit', 860),
    (215, 210, 'menu.gis', '/setting_GIS', 'environment', 850)`.execute(db);
  await sql`insert into functions (menu_id, code, name_key) values
    (107, 'view', 'functions.view'),
    (214, 'view', 'functions.view'), (214, 'edit', 'functions.edit'),
    (215, 'view', 'functions.view'), (215, 'edit', 'functions.edit')`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from role_functions where function_id in (select id from functions where menu_id in (107, 214, 215))`.execute(
    db,
  );
  await sql`delete from functions where menu_id in (107, 214, 215)`.execute(db);
  await sql`delete from role_menus where menu_id in (107, 214, 215)`.execute(db);
  await sql`delete from menus where id in (107, 214, 215)`.execute(db);
  for (const table of ['top_view_settings', 'top_view_images', 'top_view_components', 'top_view_backgrounds'])
    await db.schema.dropTable(table).execute();
};
