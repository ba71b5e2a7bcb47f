import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { Dialect } from '../src/db/kysely.ts';
import { createSecretBox } from '../src/secrets/index.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin, encryptFor, publicKeyOf } from './helpers/login.ts';
import { multipartFile } from './helpers/site-estate.ts';

const start = new Date(2026, 0, 10, 12, 0, 0).getTime();

/** One install with a key of its own (`secret.key`), its administrator and an FTP password (a declared secret). */
const install = (dialect: Dialect, ftpPassword: string) => {
  const key = randomBytes(32);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-key-'));
  const t = useManualTestApp(dialect, { dataDir, secrets: createSecretBox(key), logLevel: 'error' }, start);
  const s = { password: '', loginKey: '' };
  beforeAll(async () => {
    s.password = await createFirstAdmin(t.database.db);
    s.loginKey = await publicKeyOf(t.app);
    await t.sitewatch.start();
    await ok(
      await call('PUT', 'setting/maintain/ftp', { host: 'ftp.example.test', path: '/x', password: ftpPassword }),
    );
  });
  const headers = { authorization: 'Bearer admin-token' };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const verify = (pass = s.password) => encryptFor(s.loginKey, pass);
  /** The stored FTP password opened with `box`. */
  const storedFtpPassword = async (box: ReturnType<typeof createSecretBox>) => {
    const row = await t.database.db.kysely
      .selectFrom('module_settings')
      .select('v')
      .where('k', '=', 'backup_ftp')
      .executeTakeFirstOrThrow();
    return box.decrypt(JSON.parse(String(row.v)).password);
  };
  const audit = () =>
    t.database.db.kysely
      .selectFrom('operation_logs')
      .select(['action', 'target', 'result'])
      .where('module', '=', 'maintenance')
      .where('target', '=', 'secret_key')
      .orderBy('id')
      .execute();
  return { t, key, dataDir, call, ok, verify, storedFtpPassword, audit };
};

describeEachDatabase('the install key, exported and imported', (dialect) => {
  const a = install(dialect, 'a-ftp-secret');
  const b = install(dialect, 'b-ftp-secret');

  it("exports the key sealed with a passphrase; another install imports it and restores the first one's package", async () => {
    const made = await a.ok(await a.call('POST', 'setting/maintain/mysql/backup', {}));
    const pkg = readFileSync(path.join(a.dataDir, 'backups', made.filename));
    const upload = () => {
      const form = multipartFile('file', made.filename, pkg, 'application/x-tar');
      return b.t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/maintain/mysql/upload',
        headers: { ...form.headers, authorization: 'Bearer admin-token' },
        payload: form.payload,
      });
    };
    // Without the key, the other install refuses the package.
    const refused = await upload();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('备份包中的密钥信息由另一套系统的密钥加密，未做任何更改。');

    // The export: passphrase and verification password required, audited.
    const exportKey = (body: object) => a.call('POST', 'setting/maintain/secret_key/export', body);
    const short = await exportKey({ passphrase: 'short', verify_password: a.verify() });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('请输入 8 到 128 个字符的口令！');
    const wrong = await exportKey({ passphrase: 'carry this key', verify_password: a.verify('not-it') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('密码错误，请重新输入！');
    const exported = await a.ok(await exportKey({ passphrase: 'carry this key', verify_password: a.verify() }));
    expect(exported.filename).toBe('sitewatch-secret-key.json');
    expect(exported.file).not.toContain(a.key.toString('base64'));
    expect(JSON.parse(exported.file)).toMatchObject({ format: 'sitewatch-secret-key', version: 1 });
    expect(await a.audit()).toEqual([{ action: 'export', target: 'secret_key', result: 1 }]);

    // The import: a wrong passphrase or another file changes nothing.
    const importKey = (file: string, passphrase: string) =>
      b.call('POST', 'setting/maintain/secret_key/import', { file, passphrase, verify_password: b.verify() });
    const badPass = await importKey(exported.file, 'not the passphrase');
    expect(badPass.statusCode).toBe(400);
    expect(badPass.json().message).toBe('口令不正确或密钥文件已被修改，未做任何更改。');
    const notAFile = await importKey('{"hello":1}', 'carry this key');
    expect(notAFile.json().message).toBe('该文件不是 Sitewatch 密钥文件，未做任何更改。');
    expect(await b.storedFtpPassword(createSecretBox(b.key))).toBe('b-ftp-secret');
    expect(existsSync(path.join(b.dataDir, 'secret.key'))).toBe(false);

    // Imported: the install's own secrets are sealed again with the imported key and still read.
    expect(await b.ok(await importKey(exported.file, 'carry this key'))).toEqual({ changed: true, resealed: 1 });
    expect(readFileSync(path.join(b.dataDir, 'secret.key'))).toEqual(a.key);
    expect(await b.storedFtpPassword(createSecretBox(a.key))).toBe('b-ftp-secret');
    expect(await b.ok(await b.call('GET', 'setting/maintain/ftp'))).toMatchObject({ has_password: true });
    expect(await b.ok(await importKey(exported.file, 'carry this key'))).toEqual({ changed: false, resealed: 0 });
    expect((await b.audit()).map((r) => r.result)).toEqual([0, 0, 1, 1]);

    // Now the first install's package opens here, and its restore brings its secrets back.
    const taken = await b.ok(await upload());
    await b.ok(
      await b.call('POST', 'setting/maintain/mysql/restore', { filename: taken.filename, verify_password: b.verify() }),
    );
    expect(await b.storedFtpPassword(createSecretBox(a.key))).toBe('a-ftp-secret');
    rmSync(a.dataDir, { recursive: true, force: true });
    rmSync(b.dataDir, { recursive: true, force: true });
  });
});
