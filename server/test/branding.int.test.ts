import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { makeJpegHead, makePng } from './helpers/logo-images.ts';
import { multipartFile } from './helpers/site-estate.ts';
import { readEntries } from './helpers/tar-package.ts';

const logoType = {
  zh_cn: '上传文件只能是 jpg、png、jpeg 格式！',
  en_us: 'Uploaded files can only be in jpg, png and jpeg formats!',
};
const logoSize = { zh_cn: '上传文件大小不能超过 1MB！', en_us: 'The uploaded file cannot exceed 1mb!' };

const infoBody = {
  company: 'Acme 机房服务',
  sys_name: '智慧机房监控平台',
  sys_show: true,
  support_show: true,
  support_info: '400-800-1234',
  sys_info_show: true,
  sys_info: 'Acme Sitewatch build',
  filing_display: true,
  filing_info: '沪ICP备',
  filing_number: '12345678号-1',
  language: 'en_us',
};

describeEachDatabase('branding', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-branding-'));
  const t = useTestApp(dialect, { dataDir });
  const logoDir = path.join(dataDir, 'branding');
  const files = () => {
    try {
      return readdirSync(logoDir).sort();
    } catch {
      return [];
    }
  };

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, lang = 'zh_cn') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token', 'accept-language': lang },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const upload = async (type: string, name: string, content: Buffer, lang = 'zh_cn') => {
    const { payload, headers } = multipartFile('file', name, content, 'image/png');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/setting/maintain/logo/upload?type=${type}`,
      headers: { ...headers, authorization: 'Bearer admin-token', 'accept-language': lang },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const row = async () =>
    (
      await t.database.db.kysely
        .selectFrom('module_settings')
        .select(['v', 'updated_at'])
        .where('k', '=', 'branding')
        .executeTakeFirst()
    )?.v ?? null;
  const info = async () => (await call('GET', 'pub/info')).body.data.data[0];

  describe('edition and information', () => {
    it('answers the defaults to anyone, before sign-in', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/pub/edition' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ edition: 'standard', language: 'zh_cn' });
      expect(res.json().data.data.map((e: { type: string }) => e.type)).toEqual(['standard', 'enterprise', 'custom']);
      const i = await t.app.inject({ method: 'GET', url: '/api/v1/pub/info' });
      expect(i.json().data).toMatchObject({
        total: 1,
        data: [
          { sys_name: '', sys_show: true, filing_display: false, login_logo: { url: '' }, main_logo: { url: '' } },
        ],
      });
    });

    it('keeps the information and answers it, the system name on the edition in use', async () => {
      const res = await call('POST', 'pub/info', infoBody);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('保存成功！');
      expect(await info()).toMatchObject({ ...infoBody, edition: 'standard' });
      const editions = (await call('GET', 'pub/edition')).body.data;
      expect(editions.language).toBe('en_us');
      expect(editions.data[0]).toMatchObject({ type: 'standard', sys_name: '智慧机房监控平台', active: true });
    });

    it('refuses bad information with the message and changes nothing', async () => {
      const before = await row();
      for (const [body, message] of [
        [{ ...infoBody, sys_name: 'x'.repeat(65) }, '系统名称不能超过 64 个字符！'],
        [{ ...infoBody, support_info: 'x'.repeat(501) }, '内容过长，请精简后再保存！'],
        [{ ...infoBody, sys_show: 'yes' }, null],
        [{ ...infoBody, language: 'fr_fr' }, null],
      ] as const) {
        const res = await call('POST', 'pub/info', body);
        expect(res.status).toBe(400);
        if (message) expect(res.body.message).toContain(message);
      }
      expect(await row()).toBe(before);
    });

    it('switches the edition in use and refuses an unknown one', async () => {
      const before = await row();
      const missing = await call('PUT', 'pub/edition/99', { sys_name: 'X', sys_show: true, active: true });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('该版本不存在！');
      expect(await row()).toBe(before);
      const res = await call('PUT', 'pub/edition/2', { sys_name: '企业版监控平台', sys_show: false, active: true });
      expect(res.status).toBe(200);
      expect(res.body.data.edition).toBe('enterprise');
      expect(await info()).toMatchObject({ edition: 'enterprise', sys_name: '企业版监控平台', sys_show: false });
      await call('PUT', 'pub/edition/1', { sys_name: '智慧机房监控平台', sys_show: true, active: true });
      expect((await info()).sys_name).toBe('智慧机房监控平台');
    });

    it('is written by an administrator only', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/pub/info', payload: infoBody });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('logos', () => {
    const loginPng = makePng(290, 76, [200, 30, 30]);

    it('keeps a PNG login logo checked by content and serves it', async () => {
      const res = await upload('login', 'login.png', loginPng);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('上传成功！');
      expect(res.body.data.login_logo).toMatchObject({ width: 290, height: 76, size: loginPng.length });
      expect(files()).toHaveLength(1);
      const img = await t.app.inject({ method: 'GET', url: res.body.data.login_logo.url });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect(img.headers['x-content-type-options']).toBe('nosniff');
      expect(img.rawPayload.equals(loginPng)).toBe(true);
    });

    it('keeps a JPEG main logo and replaces the file of the one before', async () => {
      const jpeg = makeJpegHead(160, 60);
      const first = await upload('main', 'main.jpeg', jpeg);
      expect(first.status).toBe(200);
      expect(first.body.data.main_logo).toMatchObject({ width: 160, height: 60 });
      const second = await upload('main', 'MAIN.JPG', makeJpegHead(170, 60));
      expect(second.status).toBe(200);
      expect(second.body.data.main_logo.url).not.toBe(first.body.data.main_logo.url);
      expect(files()).toHaveLength(2);
      const img = await t.app.inject({ method: 'GET', url: '/api/v1/pub/logo/main' });
      expect(img.headers['content-type']).toBe('image/jpeg');
    });

    it('refuses what is not a jpg or png by its content, in the words of 002 §5.3, and changes nothing', async () => {
      const before = await row();
      const kept = files();
      const text = Buffer.from('just some text, renamed to look like an image\n');
      const forged = Buffer.concat([loginPng.subarray(0, 8), Buffer.from('not an IHDR chunk at all, plain text here')]);
      const cut = loginPng.subarray(0, 40);
      for (const [name, content] of [
        ['renamed.png', text],
        ['renamed.jpg', text],
        ['forged.png', forged],
        ['cut.png', cut],
        ['logo.gif', loginPng],
        ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
        ['fake.jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x41, 0x42])],
      ] as const) {
        const res = await upload('login', name, content);
        expect(res.status, name).toBe(400);
        expect(res.body.message, name).toBe(logoType.zh_cn);
      }
      const en = await upload('main', 'renamed.png', text, 'en_us');
      expect(en.body.message).toBe(logoType.en_us);
      expect(await row()).toBe(before);
      expect(files()).toEqual(kept);
    });

    it('refuses a file over 1 MB and changes nothing', async () => {
      const before = await row();
      const kept = files();
      const big = makePng(290, 76, [0, 0, 200], 1024 * 1024);
      for (const lang of ['zh_cn', 'en_us'] as const) {
        const res = await upload('login', 'big.png', big, lang);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(logoSize[lang]);
      }
      // Just under 1 MB is kept (002 §5.3: at most 1 MB).
      const justUnder = makePng(290, 76, [0, 0, 0], 1024 * 1024 - 2048);
      expect(justUnder.length).toBeLessThanOrEqual(1024 * 1024);
      expect((await upload('login', 'small.png', justUnder)).status).toBe(200);
      expect(files()).toHaveLength(kept.length);
      expect(await row()).not.toBe(before);
    });

    it('refuses a wrong kind, a missing file, and an upload by anyone but the administrator', async () => {
      const before = await row();
      expect((await upload('favicon', 'a.png', loginPng)).status).toBe(400);
      const none = await t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/maintain/logo/upload?type=login',
        headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json' },
        payload: {},
      });
      expect(none.statusCode).toBe(400);
      const { payload, headers } = multipartFile('file', 'a.png', loginPng, 'image/png');
      const anon = await t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/maintain/logo/upload?type=login',
        headers,
        payload,
      });
      expect(anon.statusCode).toBe(401);
      expect(await row()).toBe(before);
    });

    it('goes into a configuration backup with its files', async () => {
      const { body } = await call('POST', 'setting/maintain/mysql/backup', {});
      const entries = await readEntries(path.join(dataDir, 'backups', body.data.filename));
      const names = entries.map((e) => e.name);
      for (const file of files()) expect(names).toContain(`uploads/branding/${file}`);
    });

    it('removes a logo: the product’s own is shown again', async () => {
      const res = await call('DELETE', 'setting/maintain/logo?type=main');
      expect(res.status).toBe(200);
      expect(res.body.data.main_logo.url).toBe('');
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/pub/logo/main' })).statusCode).toBe(404);
      expect(files()).toHaveLength(1);
    });

    it('writes every change to the operation log (pub/ and setting/maintain/ are left to the module)', async () => {
      const rows = await t.database.db.kysely
        .selectFrom('operation_logs')
        .select(['module', 'action', 'target', 'result'])
        .where('module', '=', 'branding')
        .execute();
      const seen = new Set(rows.map((r) => `${r.action} ${r.target}`));
      for (const entry of [
        'update info',
        'update edition 2',
        'upload login_logo',
        'upload main_logo',
        'delete main_logo',
      ])
        expect(seen, entry).toContain(entry);
    });
  });
});
