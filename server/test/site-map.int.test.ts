import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTopViewRepository } from '../src/modules/site-map/repository.ts';
import { apiCalls } from './helpers/api-calls.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';
import { png, postImage } from './helpers/site-estate.ts';

/**
 * The site map's server (issue 15; docs/site-map.md "Server"): one save creates, updates and deletes
 * in one transaction and a refused save changes nothing; grants; the rotation checks of 001 §5; editor
 * tickets. Uploads are site-map-uploads.int.test.ts.
 */
describeEachDatabase('top view', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-top-view-'));
  const t = useTestApp(dialect, { dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const restricted = `tv-north-${dialect}`;

  const { call, ok } = apiCalls(t);
  /** Every row of the area's tables: a refused request must leave them exactly as they were. */
  const snapshot = async () => {
    const k = t.database.db.kysely;
    return {
      components: await k.selectFrom('top_view_components').selectAll().orderBy('id').execute(),
      backgrounds: await k.selectFrom('top_view_backgrounds').selectAll().orderBy('id').execute(),
      settings: await k.selectFrom('top_view_settings').selectAll().orderBy('k').execute(),
    };
  };

  const ids = { north: 0, south: 0, empty: 0, northHall: 0, southHall: 0, deviceN: 0, deviceS: 0, itemN: 0, itemS: 0 };
  const upload = (url: string, field: string, filename: string, content: Buffer, token = 'admin-token') =>
    postImage(t.app, url, field, filename, content, token);
  // Images of the library, uploaded before the pictures name them.
  let bg = '';
  let icon = '';
  const comp = (extra: object = {}) => ({
    type: 0,
    width: '88',
    height: '88',
    top: '10',
    left: 20,
    normal_img: icon,
    extend: { component: 'Cdefault', style: { name: 'UPS', fontSize: 14 }, events: [] },
    ...extra,
  });

  beforeAll(async () => {
    bg = (await upload('image_backgroup', 'image', 'room.png', png)).json().data.url;
    icon = (
      await upload(
        'normal_icon',
        'image',
        'ups.svg',
        Buffer.from('<svg viewBox="0 0 8 8"><rect width="8" height="8"/></svg>'),
      )
    ).json().data.url;
    ids.north = (await ok('POST', 'setting/device_groups', { name: 'North', weight: 1 })).id;
    ids.south = (await ok('POST', 'setting/device_groups', { name: 'South', weight: 1 })).id;
    ids.empty = (await ok('POST', 'setting/device_groups', { name: 'Empty', weight: 1 })).id;
    // Sub-sites: their pictures are stored under the parent site with parent_id = the sub-site.
    const hall = async (name: string, parent: number) =>
      (await ok('POST', 'setting/device_groups', { name, weight: 1, parent_id: parent })).id;
    ids.northHall = await hall('North hall', ids.north);
    ids.southHall = await hall('South hall', ids.south);
    const device = async (name: string, site: number) =>
      (await ok('POST', 'setting/devices', { name, device_group_id: site, driver: 'simulator', code: 'temp_hum' })).id;
    ids.deviceN = await device('TH-N', ids.north);
    ids.deviceS = await device('TH-S', ids.south);
    const item = async (deviceId: number, cell: string) =>
      (
        await ok('POST', 'setting/items', {
          device_id: deviceId,
          name: '温度',
          item_cell_name: cell,
          value_type: 1,
          threshold_min: 10,
          threshold_max: 30,
          overrun_point: 0,
          recovery_point: 1,
          source: { kind: 'simulator', model: 'analog', base: 20 },
        })
      ).id;
    ids.itemN = await item(ids.deviceN, 'temp1');
    await item(ids.deviceN, 'hum1');
    ids.itemS = await item(ids.deviceS, 'temp1');

    const k = t.database.db.kysely;
    if ((await k.selectFrom('users').select('id').where('id', '=', 1).execute()).length === 0)
      await createUser(t.database.db, 'admin', 'Admin-Pass-123');
    await k.insertInto('roles').values({ id: 81, name: 'north editor', remark: '', created_at: 0 }).execute();
    await k.insertInto('role_sites').values({ role_id: 81, site_id: ids.north }).execute();
    await k.insertInto('role_menus').values({ role_id: 81, menu_id: 214 }).execute();
    const fn = await k
      .selectFrom('functions')
      .select('id')
      .where('menu_id', '=', 214)
      .where('code', '=', 'edit')
      .executeTakeFirstOrThrow();
    await k.insertInto('role_functions').values({ role_id: 81, function_id: fn.id }).execute();
    const userId = await createUser(t.database.db, 'tv-north', 'North-Pass-123', [81]);
    fakeTokens[restricted] = { user_id: userId, user_name: 'tv-north', session_id: 1 };
  });

  it('one save creates, updates and deletes the components of its picture only, in one transaction', async () => {
    // Another sub-site's and another site type's components must survive saves of the home view.
    await ok('PUT', 'setting/top_view/device', {
      device_group_id: ids.north,
      parent_id: ids.northHall,
      background: { background: bg },
      components: [comp()],
    });
    await ok('PUT', 'setting/top_view/device', {
      device_group_id: ids.north,
      type: 1,
      background: { background: bg },
      components: [comp()],
    });

    const first = await call('PUT', 'setting/top_view/device', {
      device_group_id: ids.north,
      background: { background: bg, extend: { canvasWidth: 1920, canvasHeight: 1080, canvasScale: 100 } },
      components: [
        comp({ device_id: ids.deviceN, item_ids: [ids.itemN], link: `/station?deviceId=${ids.deviceN}` }),
        comp({ extend: { component: 'VText', propValue: '机房 A', style: { color: '#333' } } }),
        comp({ extend: { component: 'Line_x' } }),
      ],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.message).toBe('保存成功！');
    expect(first.body.data).toMatchObject({ created: 3, updated: 0, deleted: 0 });
    const [dev, textId, lineId] = first.body.data.ids as number[];

    const pic = await ok('GET', `setting/top_view/device?device_group_id=${ids.north}`);
    expect(pic.background).toMatchObject({ background: bg, type: 0, parent_id: 0 });
    expect(pic.background.extend).toMatchObject({ canvasWidth: 1920, canvasHeight: 1080, canvasScale: 100 });
    expect(pic.components.map((c: { id: number }) => c.id)).toEqual([dev, textId, lineId]);
    const device = pic.components[0];
    expect(device).toMatchObject({ device: 'TH-N', width: '88', top: '10', left: '20', item_ids: [ids.itemN] });
    expect(device.items.map((i: { item_cell_name: string }) => i.item_cell_name)).toEqual(['temp1', 'hum1']);
    expect(device.alarm).toBe(false);

    // Second save: the device moved, the text kept, the line gone, a button new.
    const second = await ok('PUT', 'setting/top_view/device', {
      device_group_id: ids.north,
      background: { background: bg },
      components: [
        comp({ id: dev, device_id: ids.deviceN, top: '300', left: '400' }),
        comp({ id: textId, extend: { component: 'VText', propValue: '机房 A' } }),
        comp({ extend: { component: 'SiteButton', style: { link_group_id: ids.south } } }),
      ],
    });
    expect(second).toMatchObject({ created: 1, updated: 2, deleted: 1 });
    const after = await ok('GET', `setting/top_view/device?device_group_id=${ids.north}`);
    expect(after.components.map((c: { id: number }) => c.id)).toEqual([dev, textId, second.ids[2]]);
    expect(after.components[0]).toMatchObject({ top: '300', left: '400' });
    // The other pictures of the site are untouched.
    expect(
      (await ok('GET', `setting/top_view/device?device_group_id=${ids.north}&parent_id=${ids.northHall}`)).components,
    ).toHaveLength(1);
    expect((await ok('GET', `setting/top_view/device?device_group_id=${ids.north}&type=1`)).components).toHaveLength(1);
    expect(await ok('GET', `setting/top_view/background?device_group_id=${ids.north}`)).toHaveLength(3);
  });

  it('a refused save changes nothing: bad component JSON, a missing background, a foreign component or device', async () => {
    const before = await snapshot();
    const pic = await ok('GET', `setting/top_view/device?device_group_id=${ids.north}`);
    const kept = pic.components.map((c: { id: number }) => comp({ id: c.id }));
    const save = (components: object[], background: object | null = { background: bg }) =>
      call('PUT', 'setting/top_view/device', { device_group_id: ids.north, background, components });

    const refused = [
      // An unknown key in the component JSON, a script link, markup in a colour, an unknown kind.
      await save([...kept, comp({ extend: { component: 'VText', onclick: 'alert(1)' } })]),
      await save([
        ...kept,
        comp({ extend: { component: 'VButton', events: [{ kind: 'redirect', value: 'javascript:alert(1)' }] } }),
      ]),
      await save([...kept, comp({ extend: { component: 'VText', style: { color: 'red;}</style><script>' } } })]),
      await save([...kept, comp({ extend: { component: 'Iframe' } })]),
      await save([...kept, comp({ link: '//evil.example/x' })]),
      await save([...kept, comp({ normal_img: 'http://evil.example/x.svg' })]),
      await save([...kept, comp({ width: '1e9' })]),
      // Well formed, but not an image of the library.
      await save([...kept, comp({ normal_img: `/api/v1/setting/top_view/file/${'a'.repeat(32)}.png` })]),
    ];
    for (const r of refused) expect(r.status, JSON.stringify(r.body)).toBe(400);

    const noBackground = await save(kept, null);
    expect(noBackground.status).toBe(400);
    expect(noBackground.body.message).toBe('机房背景图不可缺少！');
    // A component of another picture, a device that does not exist, an item not of the bound device.
    const other = await ok('GET', `setting/top_view/device?device_group_id=${ids.north}&parent_id=${ids.northHall}`);
    expect((await save([...kept, comp({ id: other.components[0].id })])).status).toBe(400);
    expect((await save([...kept, comp({ device_id: 999_999 })])).status).toBe(400);
    expect((await save([...kept, comp({ device_id: ids.deviceN, item_ids: [ids.itemS] })])).status).toBe(400);
    expect(await snapshot()).toEqual(before);

    // The last write of a save fails in the database (a NOT NULL column): the background replaced,
    // stale rows deleted and updates before it are rolled back with it.
    const repo = createTopViewRepository(t.database.db);
    const key = { device_group_id: ids.north, type: 0, parent_id: 0 };
    const row = {
      ...key,
      site_type: 0,
      type: 0,
      link: '',
      normal_img: '',
      abnormal_img: '',
      item_ids: '[]',
      width: 1,
      height: 1,
      top: 0,
      left: 0,
      created_at: 1,
      updated_at: 1,
    };
    await expect(
      repo.savePicture(
        key,
        { ...key, background: bg.replace('.png', '.gif'), extend: '{}', created_at: 1, updated_at: 1 },
        [
          { ...row, extend: '{}' },
          { ...row, extend: null as unknown as string },
        ],
        [{ id: pic.components[0].id, row: { ...row, extend: '{"component":"Dot"}' } }],
      ),
    ).rejects.toThrow();
    expect(await snapshot()).toEqual(before);
  });

  it('a canvas of 2 000 components (a body over 1 MB) saves in one request, and saves again as updates', async () => {
    const components = Array.from({ length: 2000 }, (_, i) =>
      comp({
        top: String((i % 40) * 10),
        left: String(Math.floor(i / 40) * 10),
        device_id: ids.deviceN,
        item_ids: [ids.itemN],
        link: `/station?deviceId=${ids.deviceN}`,
        extend: {
          component: 'Cdefault',
          selfId: `c${i}`,
          label: `设备 ${i}`,
          style: { name: `UPS ${i}`, fontSize: 14, color: '#1f1f1f', borderWidth: 1, borderColor: '#d9d9d9' },
          events: [{ kind: 'redirect', value: `/station?deviceId=${ids.deviceN}` }],
          animations: [{ category: 'emphasis', name: 'pulse', duration: 1 }],
          device: {
            device: ids.deviceN,
            deviceName: 'TH-N',
            items: [{ itemId: ids.itemN, name: '温度', alarm: false }],
          },
        },
      }),
    );
    const body = { device_group_id: ids.south, parent_id: ids.southHall, background: { background: bg }, components };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(1024 * 1024);
    const started = performance.now();
    const first = await ok('PUT', 'setting/top_view/device', body);
    const firstMs = performance.now() - started;
    expect(first).toMatchObject({ created: 2000, updated: 0, deleted: 0 });
    const again = performance.now();
    const second = await ok('PUT', 'setting/top_view/device', {
      ...body,
      components: components.map((c, i) => ({ ...c, id: first.ids[i] })),
    });
    expect(second).toMatchObject({ created: 0, updated: 2000, deleted: 0 });
    console.log(
      `[${dialect}] save of 2 000 components: ${firstMs.toFixed(0)} ms created, ${(performance.now() - again).toFixed(0)} ms updated`,
    );
    expect(await ok('DELETE', `setting/top_view/device/${ids.south}`)).toEqual({ deleted: 2001 });
  }, 60_000);

  it('grants: another site’s picture is not found, a write to it refused, and nothing changes', async () => {
    await ok('PUT', 'setting/top_view/device', {
      device_group_id: ids.south,
      background: { background: bg },
      components: [comp({ device_id: ids.deviceS })],
    });
    const before = await snapshot();
    expect(
      (await call('GET', `setting/top_view/device?device_group_id=${ids.south}`, undefined, restricted)).status,
    ).toBe(404);
    expect(
      (await call('GET', `setting/top_view/background?device_group_id=${ids.south}`, undefined, restricted)).status,
    ).toBe(404);
    const write = await call(
      'PUT',
      'setting/top_view/device',
      { device_group_id: ids.south, background: { background: bg }, components: [] },
      restricted,
    );
    expect(write.status).toBe(403);
    expect((await call('DELETE', `setting/top_view/device/${ids.south}`, undefined, restricted)).status).toBe(403);
    // Binding another site's device on one's own picture is refused too.
    const north = await ok('GET', `setting/top_view/device?device_group_id=${ids.north}`, undefined, restricted);
    const bind = await call(
      'PUT',
      'setting/top_view/device',
      {
        device_group_id: ids.north,
        background: { background: bg },
        components: [
          ...north.components.map((c: { id: number }) => comp({ id: c.id })),
          comp({ device_id: ids.deviceS }),
        ],
      },
      restricted,
    );
    expect(bind.status).toBe(400);
    expect(
      (await call('GET', `setting/top_view/station_items?device_id=${ids.deviceS}`, undefined, restricted)).status,
    ).toBe(404);
    expect(await snapshot()).toEqual(before);
    // The own site stays editable.
    const items = await ok(
      'GET',
      `setting/top_view/station_items?device_id=${ids.deviceN}&cell_names=temp1`,
      undefined,
      restricted,
    );
    expect(items.map((i: { item_id: number }) => i.item_id)).toEqual([ids.itemN]);
  });

  it('rotation: checked only when enabled, with the messages of 001 §5; 10 when disabled and not a number', async () => {
    const before = await snapshot();
    const set = (body: object, token?: string) =>
      call('PUT', 'setting/top_view/vertical_view_polling_set', body, token);
    const refused = [
      [await set({ enable: true, interval: '', device_group_ids: [ids.north, ids.south] }), '轮播时间间隔不能为空！'],
      [
        await set({ enable: true, interval: 9, device_group_ids: [ids.north, ids.south] }),
        '轮播时间间隔必须是大于等于10的整数！',
      ],
      [
        await set({ enable: true, interval: '12.5', device_group_ids: [ids.north, ids.south] }),
        '轮播时间间隔必须是大于等于10的整数！',
      ],
      [
        await set({ enable: true, interval: 'abc', device_group_ids: [ids.north, ids.south] }),
        '轮播时间间隔必须是大于等于10的整数！',
      ],
      [await set({ enable: true, interval: 15, device_group_ids: [ids.north] }), '请选择至少2个站点！'],
    ] as const;
    for (const [r, message] of refused) {
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(message);
    }
    // A site without devices cannot be rotated; a restricted user cannot name another site.
    expect((await set({ enable: true, interval: 15, device_group_ids: [ids.north, ids.empty] })).status).toBe(400);
    expect(
      (await set({ enable: true, interval: 15, device_group_ids: [ids.north, ids.south] }, restricted)).status,
    ).toBe(403);
    expect(await snapshot()).toEqual(before);

    const saved = await call('PUT', 'setting/top_view/vertical_view_polling_set', {
      enable: true,
      interval: '20',
      device_group_ids: [ids.north, ids.south],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('轮播设置保存成功！');
    expect(await ok('GET', 'setting/top_view/vertical_view_polling_set')).toEqual({
      enable: true,
      interval: 20,
      device_group_ids: [ids.north, ids.south],
    });
    // The restricted user sees only their site, and saving keeps the site they cannot see.
    expect(
      (await ok('GET', 'setting/top_view/vertical_view_polling_set', undefined, restricted)).device_group_ids,
    ).toEqual([ids.north]);
    await ok(
      'PUT',
      'setting/top_view/vertical_view_polling_set',
      { enable: true, interval: 30, device_group_ids: [ids.north] },
      restricted,
    );
    expect((await ok('GET', 'setting/top_view/vertical_view_polling_set')).device_group_ids.sort()).toEqual(
      [ids.north, ids.south].sort(),
    );
    // Disabled: no checks, and an interval that is not a number becomes 10.
    await ok('PUT', 'setting/top_view/vertical_view_polling_set', {
      enable: false,
      interval: 'x',
      device_group_ids: [],
    });
    expect(await ok('GET', 'setting/top_view/vertical_view_polling_set')).toMatchObject({
      enable: false,
      interval: 10,
    });
  });

  it('clearing a site deletes its components and backgrounds, and only its own', async () => {
    const south = (await snapshot()).components.filter((c) => c.device_group_id === ids.south);
    const res = await call('DELETE', `setting/top_view/device/${ids.north}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('清空完成！');
    const after = await snapshot();
    expect(after.components.filter((c) => c.device_group_id === ids.north)).toEqual([]);
    expect(after.backgrounds.filter((b) => b.device_group_id === ids.north)).toEqual([]);
    expect(after.components.filter((c) => c.device_group_id === ids.south)).toEqual(south);
  });

  it('GIS: sites placed on the map within the grant, and the map settings', async () => {
    const placed = await ok('PUT', 'gis', { sites: [{ id: ids.north, longitude: 116.4074, latitude: 39.9042 }] });
    expect(placed.find((s: { id: number }) => s.id === ids.north)).toMatchObject({ longitude: 116.4074, devices: 1 });
    expect((await call('PUT', 'gis', { sites: [{ id: ids.north, longitude: 181, latitude: 0 }] })).status).toBe(400);
    const params = await ok('PUT', 'gis/params', { center_longitude: 120, center_latitude: 30, zoom: 7, tile_url: '' });
    expect(await ok('GET', 'gis/params')).toEqual(params);
    expect((await call('PUT', 'gis/params', { zoom: 7, tile_url: 'javascript:alert(1)' })).status).toBe(400);
    const seen = await ok('GET', 'gis', undefined, restricted);
    expect(seen.map((s: { id: number }) => s.id)).toEqual([ids.north]);
  });

  it('editor tickets: minted with the editor function, redeemed once for the session token, never twice', async () => {
    const minted = await ok('POST', 'setting/top_view/ticket', {});
    expect(minted).toMatchObject({ ticket: expect.stringMatching(/^[0-9a-f]{32}$/), expires_in: 60 });
    // Redeeming needs no session (the editor window has none yet) and answers the minting session's token.
    const redeem = (ticket: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/pub/top_view/ticket',
        headers: { 'accept-language': 'zh-CN' },
        payload: { ticket },
      });
    const first = await redeem(minted.ticket);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ access_token: 'admin-token' });
    const again = await redeem(minted.ticket);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('编辑凭证无效或已过期，请从控制台重新打开编辑器');
    expect((await redeem('0'.repeat(32))).statusCode).toBe(400);
    expect((await redeem('not-a-ticket')).statusCode).toBe(400);
    // An editor of one site gets their own token back; a user without the editor's function gets no ticket.
    const own = await ok('POST', 'setting/top_view/ticket', {}, restricted);
    expect((await redeem(own.ticket)).json().data).toEqual({ access_token: restricted });
    const viewer = `tv-viewer-${dialect}`;
    const viewerId = await createUser(t.database.db, viewer, 'Viewer-Pass-123');
    fakeTokens[viewer] = { user_id: viewerId, user_name: viewer, session_id: 2 };
    expect((await call('POST', 'setting/top_view/ticket', {}, viewer)).status).toBe(403);
  });
});
