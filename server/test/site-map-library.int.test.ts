import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fillImageUses } from '../src/db/migrations/0030-captcha-images-and-upload-owners.ts';
import { apiCalls } from './helpers/api-calls.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';
import { postImage } from './helpers/site-estate.ts';

/**
 * The site map's image library (issue 27; docs/site-map.md "Image library"): scoped to the sites of
 * the pictures that use an image (an unused one to its uploader and the administrator), deleted
 * only when no picture uses it, and uploads held to a quota per user and in total.
 */
describeEachDatabase('site-map image library', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-library-'));
  const t = useTestApp(dialect, { dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const north = `lib-north-${dialect}`;
  const northPeer = `lib-north-peer-${dialect}`;
  const sites = { north: 0, south: 0 };

  const { call, ok } = apiCalls(t);
  /** Uploads a distinct PNG (its bytes padded to `bytes`) as a background; answers the answer. */
  let serial = 0;
  const upload = async (token = 'admin-token', bytes = 0) => {
    serial += 1;
    const png = Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      Buffer.from(`image ${serial}`),
      Buffer.alloc(Math.max(0, bytes - 20)),
    ]);
    const res = await postImage(t.app, 'image_backgroup', 'image', `img-${serial}.png`, png, token);
    return { status: res.statusCode, body: res.json() };
  };
  const uploaded = async (token?: string) => {
    const res = await upload(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: number; url: string };
  };
  const savePicture = (site: number, background: string, icon = '', token = 'admin-token') =>
    call(
      'PUT',
      'setting/top_view/device',
      {
        device_group_id: site,
        background: { background },
        components: [{ width: 88, height: 88, top: 0, left: 0, normal_img: icon, extend: { component: 'Cdefault' } }],
      },
      token,
    );
  const library = async (token?: string) =>
    ((await ok('GET', 'setting/top_view/image_backgroup', undefined, token)) as { id: number }[]).map((i) => i.id);
  const fileOf = (url: string) => path.join(dataDir, 'top-view', url.slice(url.lastIndexOf('/') + 1));
  const rows = () => t.database.db.kysely.selectFrom('top_view_images').select('id').orderBy('id').execute();

  beforeAll(async () => {
    sites.north = (await ok('POST', 'setting/device_groups', { name: 'North', weight: 1 })).id;
    sites.south = (await ok('POST', 'setting/device_groups', { name: 'South', weight: 1 })).id;
    const k = t.database.db.kysely;
    if ((await k.selectFrom('users').select('id').where('id', '=', 1).execute()).length === 0)
      await createUser(t.database.db, 'admin', 'Admin-Pass-123');
    // A role of site North with the editor's edit function: two users hold it.
    const role = Number(
      (
        await k
          .insertInto('roles')
          .values({ name: 'north editors', remark: '', created_at: 0 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    await k.insertInto('role_sites').values({ role_id: role, site_id: sites.north }).execute();
    await k.insertInto('role_menus').values({ role_id: role, menu_id: 214 }).execute();
    const edit = await k
      .selectFrom('functions')
      .select('id')
      .where('menu_id', '=', 214)
      .where('code', '=', 'edit')
      .executeTakeFirstOrThrow();
    await k.insertInto('role_functions').values({ role_id: role, function_id: edit.id }).execute();
    for (const [token, name] of [
      [north, 'lib-north'],
      [northPeer, 'lib-north-peer'],
    ] as const) {
      const id = await createUser(t.database.db, name, 'North-Pass-123', [role]);
      fakeTokens[token] = { user_id: id, user_name: name, session_id: 1 };
    }
  });

  it('a user of site North sees the images North’s pictures use and their own unused ones, never South’s', async () => {
    const shared = await uploaded(); // used by North and South
    const southOnly = await uploaded(); // used by South only
    const adminUnused = await uploaded();
    const northIcon = await uploaded();
    expect((await savePicture(sites.north, shared.url, northIcon.url)).status).toBe(200);
    expect((await savePicture(sites.south, southOnly.url, shared.url)).status).toBe(200);
    const mine = await uploaded(north);

    expect(await library(north)).toEqual([mine.id, northIcon.id, shared.id]);
    // Another user of North does not see what North's user uploaded and no picture uses yet.
    expect(await library(northPeer)).toEqual([northIcon.id, shared.id]);
    expect(await library()).toEqual([mine.id, northIcon.id, adminUnused.id, southOnly.id, shared.id]);

    // South's image is not North's to delete, nor to place on a picture: it does not exist for them.
    const before = await rows();
    for (const hidden of [southOnly, adminUnused]) {
      const res = await call('DELETE', `setting/top_view/images/${hidden.id}`, undefined, north);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('图片不存在');
    }
    const placed = await savePicture(sites.north, southOnly.url, '', north);
    expect(placed.status).toBe(400);
    expect(placed.body.message).toBe('图片不存在');
    expect(await rows()).toEqual(before);
    expect(existsSync(fileOf(southOnly.url))).toBe(true);

    // Used by a picture: refused, saying so, for North's user and the administrator alike.
    for (const token of [north, 'admin-token']) {
      const res = await call('DELETE', `setting/top_view/images/${shared.id}`, undefined, token);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^图片“img-\d+\.png”正被画面使用，不能删除/);
    }
    expect(await rows()).toEqual(before);

    // An unused image of one's own is deleted with its file.
    expect(await ok('DELETE', `setting/top_view/images/${mine.id}`, undefined, north)).toBeNull();
    expect(existsSync(fileOf(mine.url))).toBe(false);
    expect(await library(north)).toEqual([northIcon.id, shared.id]);

    // North's picture stops using its icon: the icon goes back to its uploader (the administrator).
    expect((await savePicture(sites.north, shared.url, '', north)).status).toBe(200);
    expect(await library(north)).toEqual([shared.id]);
    expect((await call('DELETE', `setting/top_view/images/${northIcon.id}`, undefined, north)).status).toBe(404);
    expect(await ok('DELETE', `setting/top_view/images/${northIcon.id}`)).toBeNull();

    // Clearing South's pictures frees its image; the shared one is still North's background.
    await ok('DELETE', `setting/top_view/device/${sites.south}`);
    expect(await ok('DELETE', `setting/top_view/images/${southOnly.id}`)).toBeNull();
    expect((await call('DELETE', `setting/top_view/images/${shared.id}`)).status).toBe(400);
  });

  it('the uses of pictures saved before the upgrade are found by the migration', async () => {
    const k = t.database.db.kysely;
    const uses = () =>
      k
        .selectFrom('top_view_image_uses')
        .selectAll()
        .orderBy('image_id')
        .orderBy('device_group_id')
        .orderBy('site_type')
        .orderBy('parent_id')
        .execute();
    const icon = await uploaded();
    const background = await uploaded();
    expect((await savePicture(sites.south, background.url, icon.url)).status).toBe(200);
    const kept = await uses();
    expect(kept.length).toBeGreaterThanOrEqual(3);
    await k.deleteFrom('top_view_image_uses').execute();
    await fillImageUses(k as unknown as Parameters<typeof fillImageUses>[0]);
    expect(await uses()).toEqual(kept);
  });

  it('uploads stop at the quota of the user and of the library, with what was reached, and store nothing', async () => {
    const quota = { user_images: 2, user_bytes: 1024 * 1024, total_images: 1000, total_bytes: 1024 ** 3 };
    // Only the administrator sets it; a bad value is refused and nothing stored.
    expect((await call('PUT', 'setting/top_view/upload_quota', quota, north)).status).toBe(403);
    expect((await call('PUT', 'setting/top_view/upload_quota', { ...quota, user_images: 0 })).status).toBe(400);
    expect(await ok('GET', 'setting/top_view/upload_quota')).toEqual({
      user_images: 200,
      user_bytes: 100 * 1024 * 1024,
      total_images: 2000,
      total_bytes: 1024 ** 3,
    });
    expect(await ok('PUT', 'setting/top_view/upload_quota', quota)).toEqual(quota);

    await uploaded(northPeer);
    await uploaded(northPeer);
    const before = await rows();
    const refused = await upload(northPeer);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('您上传的图片已达上限（2 张或 1 MB），请先删除不再使用的图片');
    expect(await rows()).toEqual(before);
    // Another user still may, up to the library's total.
    const total = (await t.database.db.kysely.selectFrom('top_view_images').select('size').execute()).reduce(
      (n, r) => n + r.size,
      0,
    );
    const limit = Math.ceil(total / 1024) * 1024 + 2048;
    await ok('PUT', 'setting/top_view/upload_quota', { ...quota, total_bytes: limit });
    expect((await upload(north, 1024)).status).toBe(200);
    const full = await upload(north, 2100);
    expect(full.status).toBe(400);
    expect(full.body.message).toBe(`图片库已满（1000 张或 ${limit / 1024} KB），请先删除不再使用的图片或联系管理员`);
    // Bytes count too: one image past the user's bytes is refused.
    await ok('PUT', 'setting/top_view/upload_quota', { ...quota, user_images: 100, user_bytes: 64 * 1024 });
    expect((await upload(northPeer, 70 * 1024)).body.message).toBe(
      '您上传的图片已达上限（100 张或 64 KB），请先删除不再使用的图片',
    );
  });
});
