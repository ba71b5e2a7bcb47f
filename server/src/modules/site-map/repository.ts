import type { Insertable, Kysely, Selectable } from 'kysely';
import { announceAtOnce, type Changes } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';
import type { TopViewBackgroundsTable, TopViewComponentsTable, TopViewImagesTable } from '../../db/schema-site-map.ts';

export type BackgroundRow = Selectable<TopViewBackgroundsTable>;
export type ComponentRow = Selectable<TopViewComponentsTable>;
export type ImageRow = Selectable<TopViewImagesTable>;
export type NewComponent = Omit<Insertable<TopViewComponentsTable>, 'id'>;
export type NewBackground = Omit<Insertable<TopViewBackgroundsTable>, 'id'>;

/** One picture: a site, its site type and sub-site (0 the home view). */
export interface PictureKey {
  device_group_id: number;
  type: number;
  parent_id: number;
}

/** Who looks at the image library: the user, and their granted sites (null: every site, the administrator). */
export interface Viewer {
  userId: number;
  sites: number[] | null;
}

/** The stored names of library images in a text (a path, or a component's JSON). */
export const filesIn = (text: string): string[] => text.match(/[0-9a-f]{32}\.(?:png|jpg|gif|svg)/g) ?? [];

/**
 * Rewrites which images one picture uses, from its stored background and components: called in
 * the transaction of every write of a picture, so the library's scoping and the in-use check can
 * never miss a write.
 */
const refreshUses = async (tx: Kysely<Database>, key: PictureKey) => {
  const background = await tx
    .selectFrom('top_view_backgrounds')
    .select('background')
    .where('device_group_id', '=', key.device_group_id)
    .where('type', '=', key.type)
    .where('parent_id', '=', key.parent_id)
    .executeTakeFirst();
  const components = await tx
    .selectFrom('top_view_components')
    .select(['normal_img', 'abnormal_img', 'extend'])
    .where('device_group_id', '=', key.device_group_id)
    .where('site_type', '=', key.type)
    .where('parent_id', '=', key.parent_id)
    .execute();
  const files = new Set(
    [background?.background ?? '', ...components.flatMap((c) => [c.normal_img, c.abnormal_img, c.extend])].flatMap(
      filesIn,
    ),
  );
  await tx
    .deleteFrom('top_view_image_uses')
    .where('device_group_id', '=', key.device_group_id)
    .where('site_type', '=', key.type)
    .where('parent_id', '=', key.parent_id)
    .execute();
  if (files.size === 0) return;
  const images = await tx
    .selectFrom('top_view_images')
    .select('id')
    .where('file', 'in', [...files])
    .execute();
  if (images.length === 0) return;
  await tx
    .insertInto('top_view_image_uses')
    .values(
      images.map((i) => ({
        image_id: i.id,
        device_group_id: key.device_group_id,
        site_type: key.type,
        parent_id: key.parent_id,
      })),
    )
    .execute();
};

/** The image library: who may see which image (docs/site-map.md "Image library"), uploads and the quota. */
const imageQueries = (k: Kysely<Database>) => {
  /**
   * Images the viewer may see: all for the administrator; otherwise those a picture of a granted
   * site uses, and those no picture uses that the viewer uploaded.
   */
  const visibleImages = (viewer: Viewer) => {
    const q = k.selectFrom('top_view_images as i').selectAll('i');
    const { sites } = viewer;
    if (sites === null) return q;
    return q.where((eb) => {
      const unused = eb.not(
        eb.exists(eb.selectFrom('top_view_image_uses as u').select('u.image_id').whereRef('u.image_id', '=', 'i.id')),
      );
      const mine = eb.and([eb('i.created_by', '=', viewer.userId), unused]);
      if (sites.length === 0) return mine;
      return eb.or([
        eb.exists(
          eb
            .selectFrom('top_view_image_uses as u')
            .select('u.image_id')
            .whereRef('u.image_id', '=', 'i.id')
            .where('u.device_group_id', 'in', sites),
        ),
        mine,
      ]);
    });
  };

  return {
    /** The library of one kind as the viewer may see it, newest first. */
    images: (kind: string, viewer: Viewer) =>
      visibleImages(viewer).where('i.kind', '=', kind).orderBy('i.id', 'desc').execute(),
    visibleImage: (id: number, viewer: Viewer) => visibleImages(viewer).where('i.id', '=', id).executeTakeFirst(),
    /** Of these stored names, those of images the viewer may see. */
    visibleFiles: async (files: string[], viewer: Viewer) =>
      files.length === 0
        ? new Set<string>()
        : new Set((await visibleImages(viewer).where('i.file', 'in', files).execute()).map((r) => r.file)),
    addImage: (row: Omit<Insertable<TopViewImagesTable>, 'id'>) =>
      k.insertInto('top_view_images').values(row).returningAll().executeTakeFirstOrThrow(),
    /**
     * Deletes an image no picture uses; 0 when one does. On PostgreSQL a save that starts using it
     * meanwhile makes the delete fail on the uses' foreign key: that too answers 0.
     */
    deleteUnusedImage: async (id: number) => {
      try {
        const deleted = await k
          .deleteFrom('top_view_images')
          .where('id', '=', id)
          .where((eb) =>
            eb.not(
              eb.exists(eb.selectFrom('top_view_image_uses as u').select('u.image_id').where('u.image_id', '=', id)),
            ),
          )
          .executeTakeFirst();
        return Number(deleted.numDeletedRows);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 0;
        throw err;
      }
    },
    /** Images and bytes in the library, and those uploaded by one user (the quota). */
    usage: async (userId: number) => {
      const count = (q: ReturnType<typeof k.selectFrom<'top_view_images'>>) =>
        q
          .select((eb) => [eb.fn.countAll<number>().as('images'), eb.fn.sum<number | null>('size').as('bytes')])
          .executeTakeFirstOrThrow()
          .then((r) => ({ images: Number(r.images), bytes: Number(r.bytes ?? 0) }));
      const [total, user] = await Promise.all([
        count(k.selectFrom('top_view_images')),
        count(k.selectFrom('top_view_images').where('created_by', '=', userId)),
      ]);
      return { total, user };
    },
    imageByFile: (file: string) =>
      k.selectFrom('top_view_images').selectAll().where('file', '=', file).executeTakeFirst(),
  };
};

/** The site map's rows; the rules (grants, validation, messages) are the service's. */
export const createTopViewRepository = (db: Db, changes: Changes = announceAtOnce(undefined)) => {
  const k = db.kysely;

  return {
    ...imageQueries(k),

    site: (id: number) =>
      k.selectFrom('device_groups').select(['id', 'name', 'parent_id']).where('id', '=', id).executeTakeFirst(),
    sites: (ids: number[] | null) => {
      let q = k.selectFrom('device_groups').select(['id', 'name', 'parent_id', 'longitude', 'latitude']);
      if (ids !== null) {
        if (ids.length === 0) return Promise.resolve([]);
        q = q.where('id', 'in', ids);
      }
      return q.orderBy('weight').orderBy('id').execute();
    },
    /** Device counts and open alarm counts per site. */
    siteCounts: async () => {
      const [devices, alarms] = await Promise.all([
        k
          .selectFrom('devices')
          .select(['device_group_id', (e) => e.fn.countAll<number>().as('n')])
          .groupBy('device_group_id')
          .execute(),
        k
          .selectFrom('alarms')
          .innerJoin('devices', 'devices.id', 'alarms.device_id')
          .select(['devices.device_group_id', (e) => e.fn.countAll<number>().as('n')])
          .where('alarms.end_time', 'is', null)
          .groupBy('devices.device_group_id')
          .execute(),
      ]);
      return {
        devices: new Map(devices.map((r) => [r.device_group_id, Number(r.n)])),
        alarms: new Map(alarms.map((r) => [r.device_group_id, Number(r.n)])),
      };
    },
    setSitePosition: async (id: number, longitude: number | null, latitude: number | null, now: number) => {
      await k.updateTable('device_groups').set({ longitude, latitude, updated_at: now }).where('id', '=', id).execute();
      changes.note('sites', [id]);
    },

    devices: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k.selectFrom('devices').select(['id', 'name', 'device_group_id']).where('id', 'in', ids).execute(),
    items: (deviceIds: number[]) =>
      deviceIds.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('items')
            .select(['id', 'device_id', 'name', 'item_cell_name', 'value', 'unit', 'decimals', 'purpose', 'info'])
            .where('device_id', 'in', deviceIds)
            .orderBy('id')
            .execute(),
    alarmingItems: async (deviceIds: number[]) =>
      deviceIds.length === 0
        ? new Set<number>()
        : new Set(
            (
              await k
                .selectFrom('alarms')
                .select('item_id')
                .where('device_id', 'in', deviceIds)
                .where('end_time', 'is', null)
                .execute()
            ).map((r) => r.item_id),
          ),

    backgrounds: (siteId: number) =>
      k
        .selectFrom('top_view_backgrounds')
        .selectAll()
        .where('device_group_id', '=', siteId)
        .orderBy('type')
        .orderBy('parent_id')
        .execute(),
    background: (id: number) =>
      k.selectFrom('top_view_backgrounds').selectAll().where('id', '=', id).executeTakeFirst(),
    backgroundOf: (key: PictureKey) =>
      k
        .selectFrom('top_view_backgrounds')
        .selectAll()
        .where('device_group_id', '=', key.device_group_id)
        .where('type', '=', key.type)
        .where('parent_id', '=', key.parent_id)
        .executeTakeFirst(),
    /** Adds or replaces the background of a picture (one per site, site type and sub-site). */
    putBackground: async (row: NewBackground) => {
      const key = { device_group_id: row.device_group_id, type: row.type ?? 0, parent_id: row.parent_id ?? 0 };
      return k.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('top_view_backgrounds')
          .where('device_group_id', '=', key.device_group_id)
          .where('type', '=', key.type)
          .where('parent_id', '=', key.parent_id)
          .execute();
        const added = await tx.insertInto('top_view_backgrounds').values(row).returningAll().executeTakeFirstOrThrow();
        await refreshUses(tx, key);
        return added;
      });
    },
    /** Changes a background, which may move it to another picture: the uses of both are rewritten. */
    updateBackground: (id: number, row: NewBackground) =>
      k.transaction().execute(async (tx) => {
        const before = await tx.selectFrom('top_view_backgrounds').selectAll().where('id', '=', id).executeTakeFirst();
        const updated = await tx
          .updateTable('top_view_backgrounds')
          .set(row)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        for (const b of [before, updated]) if (b) await refreshUses(tx, b);
        return updated;
      }),

    components: (key: PictureKey) =>
      k
        .selectFrom('top_view_components')
        .selectAll()
        .where('device_group_id', '=', key.device_group_id)
        .where('site_type', '=', key.type)
        .where('parent_id', '=', key.parent_id)
        .orderBy('id')
        .execute(),
    componentIdsOf: async (ids: number[]) =>
      ids.length === 0
        ? []
        : k
            .selectFrom('top_view_components')
            .select(['id', 'device_group_id', 'site_type', 'parent_id'])
            .where('id', 'in', ids)
            .execute(),

    /**
     * One save of a picture, in one transaction: the background replaced, new components inserted,
     * changed ones updated, and those of the picture not kept deleted. Any failure rolls it all back.
     */
    savePicture: (
      key: PictureKey,
      background: NewBackground,
      create: NewComponent[],
      update: { id: number; row: NewComponent }[],
    ) =>
      k.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('top_view_backgrounds')
          .where('device_group_id', '=', key.device_group_id)
          .where('type', '=', key.type)
          .where('parent_id', '=', key.parent_id)
          .execute();
        await tx.insertInto('top_view_backgrounds').values(background).execute();
        const kept = update.map((u) => u.id);
        let stale = tx
          .deleteFrom('top_view_components')
          .where('device_group_id', '=', key.device_group_id)
          .where('site_type', '=', key.type)
          .where('parent_id', '=', key.parent_id);
        if (kept.length > 0) stale = stale.where('id', 'not in', kept);
        const deleted = await stale.executeTakeFirst();
        for (const u of update) {
          const { created_at: _, ...changes } = u.row;
          await tx.updateTable('top_view_components').set(changes).where('id', '=', u.id).execute();
        }
        const createdIds: number[] = [];
        for (const row of create) {
          const r = await tx.insertInto('top_view_components').values(row).returning('id').executeTakeFirstOrThrow();
          createdIds.push(r.id);
        }
        await refreshUses(tx, key);
        return { deleted: Number(deleted.numDeletedRows), createdIds };
      }),

    /** Deletes every component and background of a site (all site types and sub-sites). */
    /** Deletes a site's pictures: all of them, or those of these sub-sites (0: the home view). */
    clearSite: (siteId: number, parentIds: number[] | null) =>
      k.transaction().execute(async (tx) => {
        const c = await tx
          .deleteFrom('top_view_components')
          .where('device_group_id', '=', siteId)
          .$if(parentIds !== null, (q) => q.where('parent_id', 'in', parentIds!))
          .executeTakeFirst();
        const b = await tx
          .deleteFrom('top_view_backgrounds')
          .where('device_group_id', '=', siteId)
          .$if(parentIds !== null, (q) => q.where('parent_id', 'in', parentIds!))
          .executeTakeFirst();
        await tx
          .deleteFrom('top_view_image_uses')
          .where('device_group_id', '=', siteId)
          .$if(parentIds !== null, (q) => q.where('parent_id', 'in', parentIds!))
          .execute();
        return Number(c.numDeletedRows) + Number(b.numDeletedRows);
      }),

    setting: async (key: string) =>
      (await k.selectFrom('top_view_settings').select('v').where('k', '=', key).executeTakeFirst())?.v,
    putSetting: (key: string, v: string, now: number) =>
      k
        .insertInto('top_view_settings')
        .values({ k: key, v, updated_at: now })
        .onConflict((oc) => oc.column('k').doUpdateSet({ v, updated_at: now }))
        .execute(),
  };
};
export type TopViewRepository = ReturnType<typeof createTopViewRepository>;
