import { nowSeconds } from '@sitewatch/contract';
import { itemPurpose } from '@sitewatch/contract/monitoring';
import {
  type BackgroundRecord,
  type backgroundInput,
  componentJson,
  type PlacedComponent,
  type pictureSave,
  pictureStyle,
} from '@sitewatch/contract/site-map';
import type { z } from 'zod';
import { readIdList, readJson } from '../../db/json.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import type { BackgroundRow, ComponentRow, NewComponent, PictureKey, TopViewRepository, Viewer } from './repository.ts';
import { createRotationAndGis } from './rotation-gis.ts';

export interface TopViewDeps {
  repo: TopViewRepository;
  clock?: () => number;
}

const defaultStyle = { canvasWidth: 1366, canvasHeight: 768, canvasScale: 100 };

/** The numbers of a stored geometry column as the spec's client reads them: strings. */
const str = (n: number) => String(n);

/** An item as a picture and the station items show it, with whether it is alarming. */
const liveItem = (i: Awaited<ReturnType<TopViewRepository['items']>>[number], alarming: Set<number>) => ({
  item_id: i.id,
  name: i.name,
  item_cell_name: i.item_cell_name,
  value: i.value,
  unit: i.unit,
  decimals: i.decimals,
  purpose: itemPurpose.catch('').parse(i.purpose),
  info: i.info,
  alarm: alarming.has(i.id),
});

/** A stored background as the contract's record. */
const background = (row: BackgroundRow): BackgroundRecord => ({
  id: row.id,
  device_group_id: row.device_group_id,
  type: row.type,
  parent_id: row.parent_id,
  background: row.background,
  extend: readJson(row.extend, pictureStyle, pictureStyle.parse(defaultStyle)),
});

/** Components with their device's name, items and alarm flags. */
const placedOf = async (repo: TopViewRepository, rows: ComponentRow[]): Promise<PlacedComponent[]> => {
  const deviceIds = [...new Set(rows.map((r) => r.device_id).filter((d): d is number => d !== null))];
  const [devices, items, alarming] = await Promise.all([
    repo.devices(deviceIds),
    repo.items(deviceIds),
    repo.alarmingItems(deviceIds),
  ]);
  const names = new Map(devices.map((d) => [d.id, d.name]));
  // Grouped once: a picture of 2 000 components over the items of their devices was a quadratic scan.
  const byDevice = new Map<number, typeof items>();
  for (const i of items) {
    const list = byDevice.get(i.device_id);
    if (list) list.push(i);
    else byDevice.set(i.device_id, [i]);
  }
  return rows.map((r) => {
    const own = (r.device_id === null ? [] : (byDevice.get(r.device_id) ?? [])).map((i) => liveItem(i, alarming));
    return {
      id: r.id,
      device_group_id: r.device_group_id,
      parent_id: r.parent_id,
      site_type: r.site_type,
      type: r.type,
      device_id: r.device_id,
      device: r.device_id === null ? '' : (names.get(r.device_id) ?? ''),
      link: r.link,
      normal_img: r.normal_img,
      abnormal_img: r.abnormal_img,
      width: str(r.width),
      height: str(r.height),
      top: str(r.top),
      left: str(r.left),
      item_ids: readIdList(r.item_ids),
      video_id: r.video_id,
      // Stored only after the strict schema passed; a row that no longer parses shows as a bare picture.
      extend: readJson(r.extend, componentJson, { component: 'Picture' as const }),
      items: own,
      alarm: own.some((i) => i.alarm),
    };
  });
};

/**
 * The site map's rules (docs/site-map.md "Server"): every picture belongs to a site, and a caller
 * reaches only the pictures of granted sites (others are not found, writes to them refused); one
 * save replaces a picture in one transaction; the rotation checks of 001 §5.
 */
export const createTopViewService = (deps: TopViewDeps) => {
  const { repo } = deps;
  const now = () => nowSeconds((deps.clock ?? Date.now)());

  /** The site, when it exists and the caller may reach it; otherwise 404 (another site's picture does not exist). */
  const grantedSite = async (siteId: number, scope: SiteScope) => {
    const site = await repo.site(siteId);
    if (!site || !scope.has(siteId)) throw notFound('topView.siteNotFound', { id: siteId });
    return site;
  };

  /** A picture's sub-site: 0 (the home view) or a site the caller may reach; another site's is not found. */
  const visibleSubSite = (parentId: number, scope: SiteScope) => {
    if (parentId !== 0 && !scope.has(parentId)) throw notFound('topView.siteNotFound', { id: parentId });
  };
  /** Writing under a sub-site: 0, or a child site of the picture's site that the caller holds (403 otherwise). */
  const writableSubSite = async (siteId: number, parentId: number, scope: SiteScope) => {
    if (parentId === 0) return;
    scope.requireSites([parentId]);
    const sub = await repo.site(parentId);
    if (sub?.parent_id !== siteId) throw badRequest('topView.notSubSite', { id: parentId });
  };

  /**
   * Every image path named must be an image of the library the caller sees (the format alone is the
   * contract's): an image used only by another site's pictures is not theirs to place.
   */
  const requireImages = async (paths: (string | undefined)[], viewer: Viewer) => {
    const files = [...new Set(paths.filter((p): p is string => !!p).map((p) => p.slice(p.lastIndexOf('/') + 1)))];
    const found = await repo.visibleFiles(files, viewer);
    if (files.some((f) => !found.has(f))) throw badRequest('topView.imageNotFound');
  };
  const viewerOf = (scope: SiteScope, userId: number): Viewer => ({ userId, sites: scope.sites });

  return {
    ...createRotationAndGis({ repo, now }),

    async backgrounds(siteId: number, scope: SiteScope) {
      await grantedSite(siteId, scope);
      return (await repo.backgrounds(siteId))
        .filter((b) => b.parent_id === 0 || scope.has(b.parent_id))
        .map(background);
    },

    /** Adds the background of a picture, replacing the one it had (one per site, site type and sub-site). */
    async addBackground(input: z.infer<typeof backgroundInput>, scope: SiteScope, userId: number) {
      await grantedSite(input.device_group_id, scope);
      await writableSubSite(input.device_group_id, input.parent_id, scope);
      await requireImages([input.background], viewerOf(scope, userId));
      const t = now();
      const { t: _, ...fields } = input;
      return background(
        await repo.putBackground({ ...fields, extend: JSON.stringify(input.extend), created_at: t, updated_at: t }),
      );
    },

    async updateBackground(id: number, input: z.infer<typeof backgroundInput>, scope: SiteScope, userId: number) {
      const row = await repo.background(id);
      if (!row || !scope.has(row.device_group_id) || (row.parent_id !== 0 && !scope.has(row.parent_id)))
        throw notFound('topView.backgroundNotFound');
      await grantedSite(input.device_group_id, scope);
      await writableSubSite(input.device_group_id, input.parent_id, scope);
      const other = await repo.backgroundOf(input);
      if (other && other.id !== id) throw badRequest('topView.backgroundExists');
      await requireImages([input.background], viewerOf(scope, userId));
      const { t: _, ...fields } = input;
      const updated = await repo.updateBackground(id, {
        ...fields,
        extend: JSON.stringify(input.extend),
        created_at: row.created_at,
        updated_at: now(),
      });
      if (!updated) throw notFound('topView.backgroundNotFound');
      return background(updated);
    },

    async picture(key: PictureKey, scope: SiteScope) {
      await grantedSite(key.device_group_id, scope);
      visibleSubSite(key.parent_id, scope);
      const [bg, rows] = await Promise.all([repo.backgroundOf(key), repo.components(key)]);
      return { background: bg ? background(bg) : null, components: await placedOf(repo, rows) };
    },

    /**
     * One save of the editor (001 §4): the components sent with an id are updated, those without are
     * created, and the picture's records not sent are deleted, all in one transaction. Everything is
     * checked before the first write, so a refused save changes nothing.
     */
    async save(input: z.infer<typeof pictureSave>, scope: SiteScope, userId: number) {
      const key = { device_group_id: input.device_group_id, type: input.type, parent_id: input.parent_id };
      // A target site outside the grant is refused (403) rather than hidden: the caller named it to write.
      scope.requireSites([key.device_group_id]);
      await grantedSite(key.device_group_id, scope);
      await writableSubSite(key.device_group_id, key.parent_id, scope);
      if (!input.background) throw badRequest('topView.backgroundRequired');

      const ids = input.components.map((c) => c.id).filter((v): v is number => v !== undefined);
      if (new Set(ids).size !== ids.length) throw badRequest('topView.componentTwice');
      const existing = new Map((await repo.componentIdsOf(ids)).map((r) => [r.id, r]));
      for (const cid of ids) {
        const r = existing.get(cid);
        if (
          !r ||
          r.device_group_id !== key.device_group_id ||
          r.site_type !== key.type ||
          r.parent_id !== key.parent_id
        )
          throw badRequest('topView.componentNotInPicture', { id: cid });
      }

      // A bound device must exist in a granted site, and the items shown must be that device's.
      const deviceIds = [
        ...new Set(input.components.map((c) => c.device_id).filter((d): d is number => d !== null && d > 0)),
      ];
      const devices = new Map((await repo.devices(deviceIds)).map((d) => [d.id, d]));
      for (const d of deviceIds) {
        const device = devices.get(d);
        if (!device || !scope.has(device.device_group_id)) throw badRequest('topView.deviceNotFound', { id: d });
      }
      const itemOwner = new Map((await repo.items(deviceIds)).map((i) => [i.id, i.device_id]));
      for (const c of input.components)
        for (const itemId of c.item_ids)
          if (c.device_id === null || itemOwner.get(itemId) !== c.device_id)
            throw badRequest('topView.itemNotOfDevice', { id: itemId });

      await requireImages(
        [
          input.background.background,
          ...input.components.flatMap((c) => [
            c.normal_img,
            c.abnormal_img,
            c.extend.iconUrl,
            c.extend.device?.normal_img,
            c.extend.device?.abnormal_img,
          ]),
        ],
        viewerOf(scope, userId),
      );

      const t = now();
      const row = (c: (typeof input.components)[number]): NewComponent => ({
        device_group_id: key.device_group_id,
        site_type: key.type,
        parent_id: key.parent_id,
        type: c.type,
        device_id: c.device_id === null || c.device_id === 0 ? null : c.device_id,
        link: c.link,
        normal_img: c.normal_img,
        abnormal_img: c.abnormal_img,
        width: c.width,
        height: c.height,
        top: c.top,
        left: c.left,
        item_ids: JSON.stringify(c.item_ids),
        video_id: c.video_id === 0 ? null : c.video_id,
        extend: JSON.stringify(c.extend),
        created_at: t,
        updated_at: t,
      });
      const create = input.components.filter((c) => c.id === undefined).map(row);
      const update = input.components.filter((c) => c.id !== undefined).map((c) => ({ id: c.id!, row: row(c) }));
      const result = await repo.savePicture(
        key,
        {
          ...key,
          background: input.background.background,
          extend: JSON.stringify(input.background.extend),
          created_at: t,
          updated_at: t,
        },
        create,
        update,
      );
      let next = 0;
      return {
        created: create.length,
        updated: update.length,
        deleted: result.deleted,
        ids: input.components.map((c) => c.id ?? result.createdIds[next++]!),
      };
    },

    /**
     * Deletes every component and background of a site (001 §5: asked for confirmation by the client);
     * the pictures of sub-sites outside the grant stay (they are not the caller's to see or delete).
     */
    async clear(siteId: number, scope: SiteScope) {
      scope.requireSites([siteId]);
      await grantedSite(siteId, scope);
      return { deleted: await repo.clearSite(siteId, scope.sites === null ? null : [0, ...scope.sites]) };
    },

    /** Items of a device (of a granted site), only those with the given point names when named. */
    async stationItems(deviceId: number, cellNames: string | undefined, scope: SiteScope) {
      const [device] = await repo.devices([deviceId]);
      if (!device || !scope.has(device.device_group_id)) throw notFound('topView.deviceNotFound', { id: deviceId });
      const wanted = (cellNames ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const [items, alarming] = await Promise.all([repo.items([deviceId]), repo.alarmingItems([deviceId])]);
      return items
        .filter((i) => wanted.length === 0 || wanted.includes(i.item_cell_name))
        .map((i) => liveItem(i, alarming));
    },
  };
};
export type TopViewService = ReturnType<typeof createTopViewService>;
