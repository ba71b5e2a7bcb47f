import type { Language } from '@sitewatch/contract';
import { sharedText } from '@sitewatch/contract';
import {
  assetMenuId,
  type CustomMenuPatch,
  type customMenuInput,
  type customMenuPatch,
  isSafeLinkAddress,
  type MenuEntry,
  type MenuLink,
  settingMenuId,
} from '@sitewatch/contract/custom-menus';
import { z } from 'zod';
import type { SettingsStore } from '../../db/settings-store.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { Access, MenuCatalogue, MenuRow } from '../access/index.ts';

/** The asset-management system (000 §6): its address and how it opens; '' until the administrator sets it. */
export const assetSystem = z.object({
  url: z.string().refine((v) => v === '' || (isSafeLinkAddress(v) && /^https?:/i.test(v))),
  target: z.enum(['_self', '_blank']),
});
export type AssetSystem = z.infer<typeof assetSystem>;
export const defaultAssetSystem: AssetSystem = { url: '', target: '_self' };

type Input = z.output<typeof customMenuInput>;
type Patch = z.output<typeof customMenuPatch>;

export interface CustomMenusDeps {
  catalogue: MenuCatalogue;
  store: SettingsStore<{ ASSET_SYSTEM: AssetSystem }>;
}

const isGroup = (row: MenuRow) => row.url === '';
/** Fields a built-in entry keeps (docs/custom-menus.md); the asset entry also takes its address and target. */
const fixedOfBuiltin = (id: number): (keyof CustomMenuPatch)[] =>
  id === assetMenuId ? ['name', 'parent_id'] : ['name', 'parent_id', 'url', 'target'];

/**
 * The rules of /setting_menu (docs/custom-menus.md). Every check runs before anything is written,
 * so a refused call changes nothing.
 */
export const createCustomMenusService = ({ catalogue, store }: CustomMenusDeps) => {
  const childrenOf = (rows: MenuRow[], id: number) => rows.filter((r) => r.parent_id === id);
  const descendants = (rows: MenuRow[], id: number): number[] =>
    childrenOf(rows, id).flatMap((c) => [c.id, ...descendants(rows, c.id)]);

  /** A parent is the top (0) or an entry without an address (a group), never the entry itself or one under it. */
  const checkParent = (rows: MenuRow[], parentId: number, self?: number) => {
    if (parentId === 0) return;
    const parent = rows.find((r) => r.id === parentId);
    const loops = self !== undefined && (parentId === self || descendants(rows, self).includes(parentId));
    if (!parent || !isGroup(parent) || loops)
      throw badRequest('customMenus.validation.parent', {}, [
        { path: 'parent_id', message: 'customMenus.validation.parent' },
      ]);
  };

  /** /setting_menu and the groups above it stay shown and enabled: the administrator would lose the way back. */
  const checkNotLockedOut = (rows: MenuRow[], id: number, patch: Patch) => {
    if (patch.display !== false && patch.enable !== false) return;
    const above = (rowId: number): number[] => {
      const row = rows.find((r) => r.id === rowId);
      return row && row.parent_id !== 0 ? [row.parent_id, ...above(row.parent_id)] : [];
    };
    if (id === settingMenuId || above(settingMenuId).includes(id)) throw badRequest('customMenus.selfLocked');
  };

  return {
    async entries(language: Language): Promise<MenuEntry[]> {
      const [rows, asset] = await Promise.all([catalogue.rows(), store.get('ASSET_SYSTEM')]);
      return rows.map((r) => {
        const kind = r.id === assetMenuId ? 'asset' : r.builtin ? 'builtin' : 'custom';
        return {
          id: r.id,
          parent_id: r.parent_id,
          name: r.name_key ? sharedText(language, r.name_key) : r.name,
          url: kind === 'asset' ? asset.url : r.url,
          icon: r.icon,
          target: kind === 'asset' ? asset.target : r.target,
          enable: r.enable === 1,
          display: r.display === 1,
          weight: r.weight,
          kind,
          group: isGroup(r),
        };
      });
    },

    async create(input: Input): Promise<{ id: number }> {
      const rows = await catalogue.rows();
      checkParent(rows, input.parent_id);
      const id = await catalogue.addCustom({ ...input, target: input.url === '' ? '_self' : input.target });
      return { id };
    },

    async update(id: number, patch: Patch): Promise<void> {
      const rows = await catalogue.rows();
      const row = rows.find((r) => r.id === id);
      if (!row) throw notFound();
      if (row.builtin) {
        const fixed = fixedOfBuiltin(id).filter((key) => patch[key] !== undefined);
        if (fixed.length) throw badRequest('customMenus.builtinFixed');
      }
      if (patch.parent_id !== undefined) checkParent(rows, patch.parent_id, id);
      // An entry that holds others stays a group: its entries would have nowhere to show.
      if (!row.builtin && patch.url && childrenOf(rows, id).length) throw badRequest('customMenus.hasChildren');
      checkNotLockedOut(rows, id, patch);
      const { url, target, ...rest } = patch;
      if (id === assetMenuId) {
        const asset = await store.get('ASSET_SYSTEM');
        await store.set('ASSET_SYSTEM', { url: url ?? asset.url, target: target ?? asset.target });
        // The entry opens as its system does: a new tab goes there straight from the menu.
        await catalogue.update(id, { ...rest, ...(target ? { target } : {}) });
        return;
      }
      await catalogue.update(id, row.builtin ? rest : patch);
    },

    async remove(ids: number[]): Promise<{ deleted: number }> {
      const rows = await catalogue.rows();
      const unique = [...new Set(ids)];
      const missing = unique.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) throw notFound();
      if (unique.some((id) => rows.find((r) => r.id === id)?.builtin))
        throw badRequest('customMenus.builtinNotDeletable');
      // The entries under a deleted group go with it (all custom: built-in entries never move under one).
      const all = [...new Set(unique.flatMap((id) => [id, ...descendants(rows, id)]))];
      if (all.some((id) => rows.find((r) => r.id === id)?.builtin)) throw badRequest('customMenus.builtinNotDeletable');
      return { deleted: await catalogue.removeCustom(all) };
    },

    /**
     * The entry an /external_link address belongs to, when the caller holds it: a custom entry with
     * that address, shown and enabled with every group above it, granted to one of the caller's roles.
     */
    async link(access: Access, url: string): Promise<MenuLink> {
      const rows = await catalogue.rows();
      const byId = new Map(rows.map((r) => [r.id, r]));
      const reachable = (row: MenuRow | undefined): boolean =>
        row === undefined ||
        (row.enable === 1 && row.display === 1 && !access.excluded.has(row.id) && reachable(byId.get(row.parent_id)));
      const hit = rows.find(
        (r) =>
          !r.builtin &&
          r.url !== '' &&
          r.url === url &&
          (access.all || access.menuIds.has(r.id)) &&
          reachable(r) &&
          (r.parent_id === 0 || byId.has(r.parent_id)),
      );
      if (!hit) throw forbidden('customMenus.linkNotHeld');
      return { id: hit.id, name: hit.name, url: hit.url, target: hit.target };
    },

    asset: () => store.get('ASSET_SYSTEM'),
  };
};
export type CustomMenusService = ReturnType<typeof createCustomMenusService>;
