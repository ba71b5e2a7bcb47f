import { describe, expect, it } from 'vitest';
import type { SettingsStore } from '../../db/settings-store.ts';
import type { Access, MenuCatalogue, MenuRow } from '../access/index.ts';
import { type AssetSystem, createCustomMenusService, defaultAssetSystem } from './service.ts';

const row = (id: number, parent_id: number, url: string, builtin = 0): MenuRow => ({
  id,
  parent_id,
  name_key: builtin ? 'menu.system' : null,
  name: `entry ${id}`,
  url,
  icon: '',
  target: '_self',
  enable: 1,
  display: 1,
  weight: 1,
  builtin,
});

/** The rules over an in-memory catalogue (the access area's seam) and settings store. */
const rig = () => {
  const rows: MenuRow[] = [
    row(400, 0, '', 1),
    row(425, 400, '/setting_menu', 1),
    row(426, 400, '/asset_management', 1),
    row(100_000, 0, ''),
    row(100_001, 100_000, 'https://a.example/'),
    row(100_002, 100_000, ''),
    row(100_003, 100_002, '/static/x.html'),
  ];
  const catalogue: MenuCatalogue = {
    rows: async () => rows,
    row: async (id) => rows.find((r) => r.id === id),
    addCustom: async () => 100_004,
    update: async (id, f) => {
      const r = rows.find((x) => x.id === id)!;
      if (f.enable !== undefined) r.enable = f.enable ? 1 : 0;
    },
    removeCustom: async (ids) => ids.length,
  };
  let asset = defaultAssetSystem;
  const store = {
    get: async () => asset,
    set: async (_k: string, v: AssetSystem) => {
      asset = v;
    },
  } as unknown as SettingsStore<{ ASSET_SYSTEM: AssetSystem }>;
  return { rows, service: createCustomMenusService({ catalogue, store }) };
};

const access = (menuIds: number[]): Access => ({
  all: false,
  roleIds: [2],
  menuIds: new Set(menuIds),
  functions: new Set(),
  siteIds: [],
  contactIds: [],
  videoIds: [],
  excluded: new Set(),
});

describe('custom menu rules', () => {
  it('refuses a parent that is a link, the entry itself or one under it', async () => {
    const { service } = rig();
    await expect(service.create({ ...base, parent_id: 100_001 })).rejects.toMatchObject({ name: 'badRequest' });
    await expect(service.update(100_000, { parent_id: 100_003 })).rejects.toMatchObject({ name: 'badRequest' });
    await expect(service.update(100_000, { parent_id: 100_002 })).rejects.toMatchObject({ name: 'badRequest' });
    await expect(service.create({ ...base, parent_id: 400 })).resolves.toEqual({ id: 100_004 });
  });

  it('keeps built-in names, parents and routes; the asset entry takes its address', async () => {
    const { service } = rig();
    await expect(service.update(425, { name: 'x' })).rejects.toMatchObject({ key: 'customMenus.builtinFixed' });
    await expect(service.update(400, { url: 'https://x.example/' })).rejects.toMatchObject({ name: 'badRequest' });
    await expect(service.update(425, { display: false })).rejects.toMatchObject({ key: 'customMenus.selfLocked' });
    await service.update(426, { url: 'https://assets.example/', target: '_blank' });
    expect(await service.asset()).toEqual({ url: 'https://assets.example/', target: '_blank' });
  });

  it('deletes a group with the entries under it, never a built-in one', async () => {
    const { service } = rig();
    expect(await service.remove([100_000])).toEqual({ deleted: 4 });
    await expect(service.remove([100_001, 400])).rejects.toMatchObject({ key: 'customMenus.builtinNotDeletable' });
  });

  it('opens a link only for a holder, while it and its groups are shown and enabled', async () => {
    const { service, rows } = rig();
    expect(await service.link(access([100_003]), '/static/x.html')).toMatchObject({ id: 100_003 });
    await expect(service.link(access([100_001]), '/static/x.html')).rejects.toMatchObject({ name: 'forbidden' });
    rows.find((r) => r.id === 100_002)!.enable = 0;
    await expect(service.link(access([100_003]), '/static/x.html')).rejects.toMatchObject({ name: 'forbidden' });
  });
});

const base = {
  name: 'x',
  icon: '',
  parent_id: 0,
  url: '',
  target: '_self' as const,
  display: true,
  enable: true,
  weight: 1,
};
