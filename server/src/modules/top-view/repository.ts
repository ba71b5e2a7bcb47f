import type { Insertable, Selectable } from 'kysely';
import { announceAtOnce, type Changes } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import type { TopViewBackgroundsTable, TopViewComponentsTable, TopViewImagesTable } from '../../db/schema-top-view.ts';

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

/** The site map's rows; the rules (grants, validation, messages) are the service's. */
export const createTopViewRepository = (db: Db, changes: Changes = announceAtOnce(undefined)) => {
  const k = db.kysely;
  return {
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
            .select(['id', 'device_id', 'name', 'item_cell_name', 'value', 'unit', 'decimals', 'info'])
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
        return tx.insertInto('top_view_backgrounds').values(row).returningAll().executeTakeFirstOrThrow();
      });
    },
    updateBackground: (id: number, row: NewBackground) =>
      k.updateTable('top_view_backgrounds').set(row).where('id', '=', id).returningAll().executeTakeFirst(),

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
        return Number(c.numDeletedRows) + Number(b.numDeletedRows);
      }),

    images: (kind: string) =>
      k.selectFrom('top_view_images').selectAll().where('kind', '=', kind).orderBy('id', 'desc').execute(),
    addImage: (row: Omit<Insertable<TopViewImagesTable>, 'id'>) =>
      k.insertInto('top_view_images').values(row).returningAll().executeTakeFirstOrThrow(),
    /** Of these stored names, those in the library. */
    existingFiles: async (files: string[]) =>
      files.length === 0
        ? new Set<string>()
        : new Set(
            (await k.selectFrom('top_view_images').select('file').where('file', 'in', files).execute()).map(
              (r) => r.file,
            ),
          ),
    imageByFile: (file: string) =>
      k.selectFrom('top_view_images').selectAll().where('file', '=', file).executeTakeFirst(),

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
