import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-kit.ts';

/** The stored names of library images in a text (a path, or a component's JSON). */
const filesIn = (text: string) => text.match(/[0-9a-f]{32}\.(?:png|jpg|gif|svg)/g) ?? [];

/**
 * Issue 27, the smaller holes.
 * - `captchas.image`: the PNG drawn at a captcha's first fetch, answered again on every later fetch
 *   (a fresh drawing each time let a script combine them).
 * - `top_view_images.created_by`: who uploaded an image (the per-user quota; an image no picture
 *   uses is shown to its uploader and the administrator). Null for images uploaded before.
 * - `top_view_image_uses`: which picture (site, site type, sub-site) uses which image, kept by every
 *   write of a picture: the library is scoped to the sites of the pictures using an image, and an
 *   image in use cannot be deleted (its foreign key refuses it too).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('captchas')
    .addColumn('image', isPostgres(db) ? 'bytea' : 'blob')
    .execute();

  await db.schema
    .alterTable('top_view_images')
    // No foreign key: ids are never reused (autoincrement, identity), and SQLite could not drop it.
    .addColumn('created_by', 'integer')
    .execute();
  await db.schema
    .createTable('top_view_image_uses')
    .addColumn('image_id', 'integer', (c) => c.notNull().references('top_view_images.id'))
    .addColumn('device_group_id', 'integer', (c) => c.notNull().references('device_groups.id').onDelete('cascade'))
    .addColumn('site_type', 'integer', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('top_view_image_uses_pk', ['device_group_id', 'site_type', 'parent_id', 'image_id'])
    .execute();
  await db.schema.createIndex('top_view_image_uses_image').on('top_view_image_uses').column('image_id').execute();

  await fillImageUses(db);
};

/** The uses of the pictures saved so far, read from their backgrounds and components. */
export const fillImageUses = async (db: Kysely<unknown>): Promise<void> => {
  const images = new Map(
    (await sql<{ id: number; file: string }>`select id, file from top_view_images`.execute(db)).rows.map((r) => [
      r.file,
      Number(r.id),
    ]),
  );
  const rows = [
    ...(
      await sql<{ g: number; t: number; p: number; text: string }>`
        select device_group_id as g, type as t, parent_id as p, background as text from top_view_backgrounds`.execute(
        db,
      )
    ).rows,
    ...(
      await sql<{ g: number; t: number; p: number; text: string }>`
        select device_group_id as g, site_type as t, parent_id as p,
          normal_img || ' ' || abnormal_img || ' ' || extend as text from top_view_components`.execute(db)
    ).rows,
  ];
  const uses = new Set<string>();
  for (const r of rows)
    for (const file of filesIn(r.text)) {
      const image = images.get(file);
      if (image !== undefined) uses.add(`${image},${r.g},${r.t},${r.p}`);
    }
  for (const use of uses) {
    const [image, g, t, p] = use.split(',').map(Number);
    await sql`insert into top_view_image_uses (image_id, device_group_id, site_type, parent_id)
      values (${image}, ${g}, ${t}, ${p})`.execute(db);
  }
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('top_view_image_uses').execute();
  await db.schema.alterTable('top_view_images').dropColumn('created_by').execute();
  await db.schema.alterTable('captchas').dropColumn('image').execute();
};
