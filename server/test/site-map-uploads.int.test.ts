import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiCalls } from './helpers/api-calls.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';
import { png, postImage } from './helpers/site-estate.ts';

/**
 * The site map's uploads (issue 15; docs/site-map.md "Server"): images told by their content, SVG
 * cleaned, images served with a safe type, and every bad file refused with a message and no trace.
 */
describeEachDatabase('site-map uploads', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-uploads-'));
  const t = useTestApp(dialect, { dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const { call, ok } = apiCalls(t);
  const upload = (url: string, field: string, filename: string, content: Buffer, token = 'admin-token') =>
    postImage(t.app, url, field, filename, content, token);
  // User 1 is the administrator: the viewer made below must not take that id.
  beforeAll(async () => {
    const k = t.database.db.kysely;
    if ((await k.selectFrom('users').select('id').where('id', '=', 1).execute()).length === 0)
      await createUser(t.database.db, 'admin', 'Admin-Pass-123');
  });
  const stored = () => (readdirSync(dataDir).includes('top-view') ? readdirSync(path.join(dataDir, 'top-view')) : []);

  it('uploads: images are told by their content, served with their own type and nosniff', async () => {
    const res = await upload('image_backgroup', 'image', 'room.png', png);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('上传成功！');
    const image = res.json().data;
    expect(image).toMatchObject({ name: 'room.png', content_type: 'image/png', size: png.length });
    expect(image.url).toMatch(/^\/api\/v1\/setting\/top_view\/file\/[0-9a-f]{32}\.png$/);
    // Served without a token (an <img> sends none), byte for byte, with a safe type.
    const served = await t.app.inject({ method: 'GET', url: image.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await ok('GET', 'setting/top_view/image_backgroup')).map((i: { url: string }) => i.url)).toContain(
      image.url,
    );
    // A JPEG named .jpeg is stored as .jpg; a GIF as .gif.
    const jpeg = await upload('image_backgroup', 'image', 'a.JPEG', Buffer.from('ffd8ffe000104a464946000101', 'hex'));
    expect(jpeg.json().data.url).toMatch(/\.jpg$/);
    const gif = await upload(
      'normal_icon',
      'image',
      'i.gif',
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    );
    expect(gif.statusCode).toBe(200);
    expect(gif.json().message).toBe('上传图标成功！');
    const icons = await ok('GET', 'setting/top_view/normal_icon');
    expect(icons[0]).toMatchObject({ normal_img: gif.json().data.url, url: gif.json().data.url });
  });

  it('uploads: an SVG is cleaned of scripts, handlers, foreignObject and external references', async () => {
    const evil = `<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY lol "lol">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <script xlink:href="https://evil.example/x.js"/>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml" onclick="x()">html</div></foreignObject>
  <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
  <rect width="10" height="10" fill="url(#g)" onmouseover="evil()"/>
  <use xlink:href="https://evil.example/sprite.svg#a"/>
  <image href="http://evil.example/track.png" width="1" height="1"/>
  <a href="javascript:alert(3)"><circle r="2" fill="url(http://evil.example/f)"/></a>
  <style>@import url(http://evil.example/x.css);</style>
  <path d="M0 0L10 10" style="fill:url(https://evil.example/p)"/>
  <animate attributeName="href" to="javascript:alert(4)"/>
</svg>`;
    const res = await upload('normal_icon', 'image', 'icon.svg', Buffer.from(evil));
    expect(res.statusCode, res.body).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: res.json().data.url });
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    const svg = served.body;
    // What is harmless stays.
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<linearGradient id="g">');
    expect(svg).toContain('fill="url(#g)"');
    expect(svg).toContain('<path d="M0 0L10 10"');
    // Nothing active or outside survives.
    expect(svg).not.toMatch(/<script|\son\w+=|foreignObject|javascript:|evil\.example|@import|<style|<animate|ENTITY/i);
    expect(res.json().data.size).toBe(Buffer.byteLength(svg));
  });

  it('uploads: a renamed non-image, an HTML page named .svg, a wrong extension and a file over 1 MB are refused', async () => {
    const before = await t.database.db.kysely.selectFrom('top_view_images').selectAll().execute();
    const files = stored();
    const refused = [
      [
        await upload('image_backgroup', 'image', 'report.png', Buffer.from('%PDF-1.7 not an image')),
        '只能上传 png、jpg、jpeg、gif、svg 图片',
      ],
      [
        await upload('image_backgroup', 'image', 'x.jpg', Buffer.from('MZ\x90\x00 executable', 'latin1')),
        '只能上传 png、jpg、jpeg、gif、svg 图片',
      ],
      [
        await upload(
          'normal_icon',
          'image',
          'page.svg',
          Buffer.from('<html><body><script>alert(1)</script></body></html>'),
        ),
        '只能上传 png、jpg、jpeg、gif、svg 图片',
      ],
      [await upload('normal_icon', 'image', 'icon.exe', png), '只能上传 png、jpg、jpeg、gif、svg 图片'],
      [
        await upload('image_backgroup', 'image', 'big.png', Buffer.concat([png, Buffer.alloc(1024 * 1024)])),
        '图片不能超过 1 MB',
      ],
      [await upload('image_backgroup', 'file', 'room.png', png), '请选择要上传的图片'],
    ] as const;
    for (const [res, message] of refused) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(message);
    }
    // Not multipart at all: refused with a message too.
    expect((await call('POST', 'setting/top_view/normal_icon', { image: 'x' })).status).toBe(400);
    // A user without the editor's edit function cannot upload.
    const k = t.database.db.kysely;
    await k.insertInto('roles').values({ id: 82, name: 'viewer', remark: '', created_at: 0 }).execute();
    await k.insertInto('role_menus').values({ role_id: 82, menu_id: 214 }).execute();
    const viewer = await createUser(t.database.db, 'tv-viewer', 'Viewer-Pass-123', [82]);
    fakeTokens[`tv-viewer-${dialect}`] = { user_id: viewer, user_name: 'tv-viewer', session_id: 1 };
    expect((await upload('normal_icon', 'image', 'i.png', png, `tv-viewer-${dialect}`)).statusCode).toBe(403);
    expect(await k.selectFrom('top_view_images').selectAll().execute()).toEqual(before);
    expect(stored()).toEqual(files);
    // A name that is not a stored image is not found.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/setting/top_view/file/${'0'.repeat(32)}.png` })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/setting/top_view/file/..%2F..%2Fsitewatch.db' })).statusCode,
    ).toBe(400);
  });
});
