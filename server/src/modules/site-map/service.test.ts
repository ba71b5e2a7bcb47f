import { pictureSave, rotationInput } from '@sitewatch/contract/site-map';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { siteScope } from '../access/index.ts';
import type {
  BackgroundRow,
  ComponentRow,
  NewBackground,
  NewComponent,
  PictureKey,
  TopViewRepository,
} from './repository.ts';
import { createTopViewService } from './service.ts';

/**
 * The site map's rules over an in-memory repository: what a save checks before it writes and how it
 * splits the canvas into creates, updates and deletes; the rotation checks; grants.
 */
const image = (file: string) => `/api/v1/setting/top_view/file/${file}`;
const bgFile = `${'b'.repeat(32)}.png`;
const iconFile = `${'c'.repeat(32)}.svg`;

const fakeWorld = () => {
  const sites = [
    { id: 1, name: 'North', parent_id: 0, longitude: null, latitude: null },
    { id: 2, name: 'South', parent_id: 0, longitude: null, latitude: null },
    { id: 3, name: 'Empty', parent_id: 0, longitude: null, latitude: null },
    { id: 5, name: 'North hall', parent_id: 1, longitude: null, latitude: null },
  ];
  const devices = [
    { id: 10, name: 'TH-N', device_group_id: 1 },
    { id: 20, name: 'TH-S', device_group_id: 2 },
  ];
  const items = [
    {
      id: 100,
      device_id: 10,
      name: 't',
      item_cell_name: 'temp1',
      value: 21,
      unit: '°C',
      decimals: 1,
      purpose: 'room_temperature',
      info: '',
    },
    {
      id: 200,
      device_id: 20,
      name: 't',
      item_cell_name: 'temp1',
      value: 22,
      unit: '°C',
      decimals: null,
      purpose: '',
      info: '',
    },
  ];
  const components: ComponentRow[] = [];
  const backgrounds: BackgroundRow[] = [];
  const settings = new Map<string, string>();
  const saves: { create: NewComponent[]; update: { id: number; row: NewComponent }[] }[] = [];
  let next = 1;
  const inPicture = (key: PictureKey) => (c: ComponentRow) =>
    c.device_group_id === key.device_group_id && c.site_type === key.type && c.parent_id === key.parent_id;
  const asBackground = (row: NewBackground): BackgroundRow => ({ ...row, id: next++ });
  const repo: TopViewRepository = {
    site: async (id) => sites.find((s) => s.id === id),
    sites: async (ids) => sites.filter((s) => ids === null || ids.includes(s.id)),
    siteCounts: async () => ({
      devices: new Map([
        [1, 1],
        [2, 1],
      ]),
      alarms: new Map(),
    }),
    setSitePosition: async () => {},
    devices: async (ids) => devices.filter((d) => ids.includes(d.id)),
    items: async (ids) => items.filter((i) => ids.includes(i.device_id)),
    alarmingItems: async () => new Set([200]),
    backgrounds: async (siteId) => backgrounds.filter((b) => b.device_group_id === siteId),
    background: async (id) => backgrounds.find((b) => b.id === id),
    backgroundOf: async (key) =>
      backgrounds.find(
        (b) => b.device_group_id === key.device_group_id && b.type === key.type && b.parent_id === key.parent_id,
      ),
    putBackground: async (row) => {
      const b = asBackground(row);
      backgrounds.push(b);
      return b;
    },
    updateBackground: async () => undefined,
    components: async (key) => components.filter(inPicture(key)),
    componentIdsOf: async (ids) => components.filter((c) => ids.includes(c.id)),
    savePicture: async (key, background, create, update) => {
      saves.push({ create, update });
      const kept = new Set(update.map((u) => u.id));
      const stale = components.filter((c) => inPicture(key)(c) && !kept.has(c.id));
      for (const s of stale) components.splice(components.indexOf(s), 1);
      for (const u of update) Object.assign(components.find((c) => c.id === u.id)!, u.row);
      const createdIds = create.map((row) => {
        const id = next++;
        components.push({ device_id: null, video_id: null, ...row, id } as ComponentRow);
        return id;
      });
      backgrounds.splice(
        0,
        backgrounds.length,
        ...backgrounds.filter((b) => b.device_group_id !== key.device_group_id),
      );
      backgrounds.push(asBackground(background));
      return { deleted: stale.length, createdIds };
    },
    clearSite: async () => 0,
    images: async () => [],
    visibleImage: async () => undefined,
    // The library's scoping is tested on real databases (site-map-library.int.test.ts).
    visibleFiles: async (files) => new Set(files.filter((f) => f === bgFile || f === iconFile)),
    addImage: async () => {
      throw new Error('not used');
    },
    deleteUnusedImage: async () => 0,
    usage: async () => ({ total: { images: 0, bytes: 0 }, user: { images: 0, bytes: 0 } }),
    imageByFile: async () => undefined,
    setting: async (key) => settings.get(key),
    putSetting: async (key, v) => {
      settings.set(key, v);
      return [];
    },
  };
  return { repo, components, saves, settings, service: createTopViewService({ repo, clock: () => 1_700_000_000_000 }) };
};

const all = siteScope(null);
const north = siteScope([1]);
const comp = (extra: object = {}) => ({
  width: 88,
  height: 88,
  top: 0,
  left: 0,
  normal_img: image(iconFile),
  extend: { component: 'Cdefault' },
  ...extra,
});
const save = (extra: object) =>
  pictureSave.parse({ device_group_id: 1, background: { background: image(bgFile) }, components: [], ...extra });
const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('top-view service: save', () => {
  it('splits the canvas into creates and updates, and answers the ids in the order sent', async () => {
    const w = fakeWorld();
    const first = await w.service.save(
      save({ components: [comp(), comp({ device_id: 10, item_ids: [100] })] }),
      all,
      1,
    );
    expect(first).toMatchObject({ created: 2, updated: 0, deleted: 0 });
    const [a, b] = first.ids;
    const second = await w.service.save(save({ components: [comp({ id: b, top: 50 }), comp()] }), all, 1);
    expect(second).toMatchObject({ created: 1, updated: 1, deleted: 1 });
    expect(second.ids[0]).toBe(b);
    expect(w.components.map((c) => c.id)).toEqual([b, second.ids[1]]);
    expect(w.components.find((c) => c.id === a)).toBeUndefined();
    expect(w.components[0]).toMatchObject({ top: 50, device_id: null, site_type: 0, parent_id: 0 });
  });

  it('refuses before any write: no background, a component of another picture, a foreign device or item, an unknown image', async () => {
    const w = fakeWorld();
    const { ids } = await w.service.save(save({ parent_id: 5, components: [comp()] }), all, 1);
    w.saves.length = 0;
    const cases: [object, string][] = [
      [{ background: null }, 'topView.backgroundRequired'],
      [{ components: [comp({ id: ids[0] })] }, 'topView.componentNotInPicture'],
      [{ components: [comp({ id: 999 })] }, 'topView.componentNotInPicture'],
      [{ components: [comp({ device_id: 99 })] }, 'topView.deviceNotFound'],
      [{ components: [comp({ device_id: 10, item_ids: [200] })] }, 'topView.itemNotOfDevice'],
      [{ components: [comp({ item_ids: [100] })] }, 'topView.itemNotOfDevice'],
      [{ components: [comp({ normal_img: image(`${'d'.repeat(32)}.png`) })] }, 'topView.imageNotFound'],
      [{ background: { background: image(`${'d'.repeat(32)}.png`) } }, 'topView.imageNotFound'],
    ];
    for (const [input, key] of cases) expect((await refusal(w.service.save(save(input), all, 1))).key).toBe(key);
    expect(w.saves).toEqual([]);
  });

  it('grants: another site is refused, its device cannot be bound, its picture is not found', async () => {
    const w = fakeWorld();
    expect((await refusal(w.service.save(save({ device_group_id: 2 }), north, 1))).name).toBe('forbidden');
    expect((await refusal(w.service.save(save({ components: [comp({ device_id: 20 })] }), north, 1))).key).toBe(
      'topView.deviceNotFound',
    );
    expect((await refusal(w.service.picture({ device_group_id: 2, type: 0, parent_id: 0 }, north))).name).toBe(
      'notFound',
    );
    expect(w.saves).toEqual([]);
  });

  it('a sub-site picture needs a sub-site of that site which the caller holds', async () => {
    const w = fakeWorld();
    // Site 2 under site 1: another site, not the caller's.
    expect((await refusal(w.service.save(save({ parent_id: 2 }), north, 1))).key).toBe('access.siteNotGranted');
    // Site 2 is not a sub-site of site 1, whoever asks.
    expect((await refusal(w.service.save(save({ parent_id: 2 }), all, 1))).key).toBe('topView.notSubSite');
    expect((await refusal(w.service.picture({ device_group_id: 1, type: 0, parent_id: 2 }, north))).name).toBe(
      'notFound',
    );
    expect(w.saves).toEqual([]);
    await w.service.save(save({ parent_id: 5 }), siteScope([1, 5]), 1);
    expect(w.saves).toHaveLength(1);
  });

  it('answers a device component with its items and the alarm flag', async () => {
    const w = fakeWorld();
    await w.service.save(save({ device_group_id: 2, components: [comp({ device_id: 20, item_ids: [200] })] }), all, 1);
    const pic = await w.service.picture({ device_group_id: 2, type: 0, parent_id: 0 }, all);
    expect(pic.components[0]).toMatchObject({ device: 'TH-S', alarm: true, width: '88', item_ids: [200] });
    expect(pic.background?.extend).toMatchObject({ canvasWidth: 1366, canvasHeight: 768, canvasScale: 100 });
  });
});

describe('top-view service: rotation', () => {
  const set = (w: ReturnType<typeof fakeWorld>, input: object, scope = all) =>
    w.service.setRotation(rotationInput.parse(input), scope);

  it('checks only when enabled, with the keys of the messages of 001 §5', async () => {
    const w = fakeWorld();
    const cases: [object, string][] = [
      [{ enable: true, interval: '', device_group_ids: [1, 2] }, 'topView.intervalEmpty'],
      [{ enable: true, interval: null, device_group_ids: [1, 2] }, 'topView.intervalEmpty'],
      [{ enable: true, interval: 9, device_group_ids: [1, 2] }, 'topView.intervalInvalid'],
      [{ enable: true, interval: '1e2', device_group_ids: [1, 2] }, 'topView.intervalInvalid'],
      [{ enable: true, interval: -10, device_group_ids: [1, 2] }, 'topView.intervalInvalid'],
      [{ enable: true, interval: 10, device_group_ids: [1] }, 'topView.twoSites'],
      [{ enable: true, interval: 10, device_group_ids: [1, 3] }, 'topView.siteWithoutDevices'],
      [{ enable: true, interval: 10, device_group_ids: [1, 9] }, 'topView.siteNotFound'],
    ];
    for (const [input, key] of cases) expect((await refusal(set(w, input))).key).toBe(key);
    expect(w.settings.size).toBe(0);
    expect(await set(w, { enable: true, interval: ' 10 ', device_group_ids: [1, 2] })).toEqual({
      enable: true,
      interval: 10,
      device_group_ids: [1, 2],
    });
    expect(await set(w, { enable: false, interval: 'soon', device_group_ids: [] })).toMatchObject({ interval: 10 });
    expect(await set(w, { enable: false, interval: 25, device_group_ids: [] })).toMatchObject({ interval: 25 });
  });

  it('a restricted user sees their sites only, and their save keeps the others', async () => {
    const w = fakeWorld();
    await set(w, { enable: true, interval: 15, device_group_ids: [1, 2] });
    expect((await w.service.rotation(north)).device_group_ids).toEqual([1]);
    // One own site plus the hidden one still make two.
    await set(w, { enable: true, interval: 20, device_group_ids: [1] }, north);
    expect(await w.service.rotation(all)).toEqual({ enable: true, interval: 20, device_group_ids: [1, 2] });
    expect((await refusal(set(w, { enable: true, interval: 20, device_group_ids: [1, 2] }, north))).name).toBe(
      'forbidden',
    );
  });
});
