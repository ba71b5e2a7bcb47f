import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin } from './helpers/login.ts';
import { startVsftpd, type Vsftpd } from './helpers/vsftpd.ts';

/**
 * FTP sync of backups (issue 30 "Must show"; docs/maintenance.md "FTP sync") against Debian's
 * vsftpd on loopback, started here: the connection test, the remote folder, a copy made by hand and
 * one after an automatic backup, the records, a failure recorded, and the outbound policy's refusal.
 */
describeEachDatabase('FTP sync of backups', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-ftp-'));
  let ftpd: Vsftpd;
  let ftps: Vsftpd;
  afterAll(async () => {
    await ftpd?.stop();
    await ftps?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const t = useManualTestApp(dialect, { dataDir, logLevel: 'error' }, new Date(2026, 0, 10, 12).getTime());
  const headers = { authorization: 'Bearer admin-token' };
  beforeAll(async () => {
    [ftpd, ftps] = await Promise.all([startVsftpd(), startVsftpd({ tls: true })]);
    await createFirstAdmin(t.database.db);
    await t.sitewatch.start();
  });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  /**
   * A file's SHA-256: two packages compared by it, not by toEqual on their bytes (Vitest's deep
   * equality walks a Buffer index by index: 4-7 s for one package).
   */
  const digestOf = (...parts: string[]) =>
    createHash('sha256')
      .update(readFileSync(path.join(...parts)))
      .digest('hex');
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const server = () => ({ host: '127.0.0.1', port: ftpd.port, path: '/backups/sitewatch', user: 'anonymous' });

  it('tests the connection, lists the folder, copies packages and records each copy', async () => {
    // Remote address and path are required, the port is 21 unless given (002 §5.3, §9).
    const missing = await call('PUT', 'setting/maintain/ftp', { path: '/x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('请输入远程地址！');
    await ok(await call('PUT', 'setting/maintain/ftp', { host: 'ftp.example.test', path: '/x' }));
    expect(await ok(await call('GET', 'setting/maintain/ftp'))).toMatchObject({ port: 21, has_password: false });

    await ok(await call('PUT', 'setting/maintain/ftp', { ...server(), password: 'guest@' }));
    // Loopback is refused by the outbound policy until the administrator allows it.
    expect(await ok(await call('POST', 'setting/maintain/ftp/test'))).toEqual({
      ok: false,
      entries: 0,
      detail: 'maintenance.ftp.notAllowed',
    });
    expect(await ok(await call('POST', 'setting/maintain/ftp/list'))).toEqual({
      ok: false,
      detail: 'maintenance.ftp.notAllowed',
      data: [],
    });
    await ok(await call('POST', 'setting/gc', { k: 'OUTBOUND', v: { allow: ['127.0.0.0/8'], deny: [] } }));
    expect(await ok(await call('POST', 'setting/maintain/ftp/test'))).toEqual({
      ok: true,
      entries: 0,
      detail: '',
    });
    const view = await ok(await call('GET', 'setting/maintain/ftp'));
    expect(view).toMatchObject({ has_password: true });
    expect(JSON.stringify(view)).not.toContain('guest@');

    const made = await ok(await call('POST', 'setting/maintain/mysql/backup', {}));
    const copied = await ok(await call('POST', 'setting/maintain/ftp/sync', { filename: made.filename }));
    expect(copied).toMatchObject({ filename: made.filename, ok: true });
    expect(digestOf(ftpd.uploads, 'sitewatch', made.filename)).toBe(digestOf(dataDir, 'backups', made.filename));
    const listed = await ok(await call('POST', 'setting/maintain/ftp/list'));
    expect(listed.data).toContainEqual(expect.objectContaining({ name: made.filename, size: made.size }));

    // An automatic backup is copied when sync is on; the latest-backup notice says so (ftp 1).
    await ok(await call('PUT', 'setting/maintain/ftp', { ...server(), enabled: true }));
    // A minute ahead: every engine's timers run on the test clock meanwhile (an hour of them took seconds).
    const schedule = { enabled: true, date_mode: 1, days: 1, run_count: 1, time: '12:01', frequency: 1 };
    await ok(await call('PUT', 'setting/maintain/mysql/auto_setting', schedule));
    await t.clock.advance(60_000);
    const latest = await ok(await call('GET', 'setting/maintain/mysql/lastest_event'));
    expect(latest).toMatchObject({ file: 'auto_backup_20260110120100.tar', ftp: 1 });
    expect(readFileSync(path.join(ftpd.uploads, 'sitewatch', latest.file)).length).toBeGreaterThan(0);

    // A server that does not answer: the copy fails, and is recorded with the reason.
    await ok(await call('PUT', 'setting/maintain/ftp', { ...server(), port: 1 }));
    const failed = await ok(await call('POST', 'setting/maintain/ftp/sync', { filename: made.filename }));
    expect(failed).toMatchObject({ ok: false });
    expect(failed.detail).not.toBe('');
    const records = (await ok(await call('GET', 'setting/maintain/ftp/sync_records'))).data;
    expect(records.map((r: { filename: string; ok: boolean }) => [r.filename, r.ok])).toEqual([
      [made.filename, false],
      [latest.file, true],
      [made.filename, true],
    ]);
  });

  it('copies over FTPS: the server’s certificate is checked, by name and authority', async () => {
    await ok(await call('POST', 'setting/gc', { k: 'OUTBOUND', v: { allow: ['127.0.0.0/8'], deny: [] } }));
    const tlsServer = { host: 'localhost', port: ftps.port, path: '/backups/tls', user: 'anonymous', password: '' };
    const test = async () => ok(await call('POST', 'setting/maintain/ftp/test'));
    // The server requires TLS: plain FTP is turned away at sign-in.
    await ok(await call('PUT', 'setting/maintain/ftp', { ...tlsServer, secure: false }));
    expect(await test()).toMatchObject({ ok: false, detail: expect.stringMatching(/encryption|530/i) });
    // Its certificate is self-signed: refused until its authority is saved with the server.
    await ok(await call('PUT', 'setting/maintain/ftp', { ...tlsServer, secure: true }));
    expect(await test()).toMatchObject({ ok: false, detail: expect.stringMatching(/self.signed/i) });
    // Not a certificate: refused with the message, nothing saved.
    const bad = await call('PUT', 'setting/maintain/ftp', {
      ...tlsServer,
      secure: true,
      ca: '-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('证书格式不正确');
    expect(await ok(await call('GET', 'setting/maintain/ftp'))).toMatchObject({ ca: '' });

    const ca = ftps.certificate!;
    await ok(await call('PUT', 'setting/maintain/ftp', { ...tlsServer, secure: true, ca }));
    expect(await test()).toEqual({ ok: true, entries: 0, detail: '' });
    const made = await ok(await call('POST', 'setting/maintain/mysql/backup', {}));
    const copied = await ok(await call('POST', 'setting/maintain/ftp/sync', { filename: made.filename }));
    expect(copied).toMatchObject({ filename: made.filename, ok: true, detail: '' });
    expect(digestOf(ftps.uploads, 'tls', made.filename)).toBe(digestOf(dataDir, 'backups', made.filename));
    const listed = await ok(await call('POST', 'setting/maintain/ftp/list'));
    expect(listed.data).toEqual([expect.objectContaining({ name: made.filename, size: made.size, directory: false })]);

    // The certificate names localhost, not 127.0.0.1: the address given is checked as it is.
    await ok(await call('PUT', 'setting/maintain/ftp', { ...tlsServer, host: '127.0.0.1', secure: true, ca }));
    expect(await test()).toMatchObject({ ok: false, detail: expect.stringMatching(/127\.0\.0\.1/) });
  });
});
