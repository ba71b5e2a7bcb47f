import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnyArea, defineArea } from '../src/area.ts';
import type { Dialect } from '../src/db/kysely.ts';
import { contentsOf, type Manifest } from '../src/modules/maintenance/package.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { rowsByKey, snapshotDigest } from './helpers/db-snapshot.ts';
import { createFirstAdmin, encryptFor, publicKeyOf } from './helpers/login.ts';
import { multipartFile } from './helpers/site-estate.ts';
import { readEntries, writeEntries } from './helpers/tar-package.ts';

/**
 * A throw-away area the maintenance module has never heard of: its own table, upload folder and
 * secret, declared as any area declares them (issue 30, "Must show").
 */
const scratchArea: AnyArea = defineArea({
  name: 'scratch',
  tables: { ['scratch_notes' as 'devices']: { sites: 'global' } },
  uploads: ['scratch-files'],
  secrets: [{ table: 'scratch_notes' as 'devices', column: 'config', fields: ['token'] }],
  create: async ({ kernel }) => {
    await sql`create table if not exists scratch_notes (id integer primary key, note text not null, config text not null)`.execute(
      kernel.db.kysely,
    );
    return {};
  },
});

const start = new Date(2026, 0, 10, 12, 0, 0).getTime();

/** The app of a suite and what its cases call. */
const backupRig = (dialect: Dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-backup-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const t = useManualTestApp(dialect, { dataDir, extraAreas: [scratchArea], logLevel: 'error' }, start);
  const headers = { authorization: 'Bearer admin-token' };
  let password = '';
  let key = '';
  beforeAll(async () => {
    password = await createFirstAdmin(t.database.db);
    key = await publicKeyOf(t.app);
    await t.sitewatch.start();
  });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const restore = (filename: string, pass = password) =>
    call('POST', 'setting/maintain/mysql/restore', { filename, verify_password: encryptFor(key, pass) });
  const k = () => t.database.db.kysely as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
  const backups = path.join(dataDir, 'backups');
  // The alarm id counter moves on after a restore (the engine reserves a block past the restored alarms).
  const configTables = () =>
    contentsOf(t.sitewatch.areas, 'config').tables.filter((x) => x !== 'operation_logs' && x !== 'id_blocks');
  const rowsOf = async () => {
    const out: Record<string, string[]> = {};
    for (const table of configTables())
      out[table] = [...(await rowsByKey(t.database.db, table)).values()].map((r) => r.json).sort();
    return out;
  };
  const manifestOf = async (file: string): Promise<Manifest> =>
    JSON.parse((await readEntries(file))[0]!.data.toString('utf8'));

  return { dialect, dataDir, t, headers, call, ok, restore, k, backups, rowsOf, manifestOf };
};
type Rig = ReturnType<typeof backupRig>;

/** An uploaded package and the history package. */
const uploadAndHistoryCases = (r: Rig) => {
  const { dialect, t, headers, call, ok, restore, k, backups, manifestOf } = r;
  it('takes an uploaded package only once it passes the checks, and restores it', async () => {
    const latest = (await ok(await call('GET', 'setting/maintain/mysql/auto_list?kind=config'))).data[0];
    const bytes = readFileSync(path.join(backups, latest.filename));
    const upload = (content: Buffer) => {
      const { payload, headers: h } = multipartFile('file', 'mine.tar', content, 'application/x-tar');
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/maintain/mysql/upload',
        payload,
        headers: { ...headers, ...h },
      });
    };
    const before = (await ok(await call('GET', 'setting/maintain/mysql/auto_list'))).total;
    const foreign = await upload(Buffer.from('hello'));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('该文件不是 Sitewatch 备份包，未做任何更改。');
    // A newer format than this server reads: its manifest rewritten, the parts untouched.
    const entries = await readEntries(path.join(backups, latest.filename));
    const newer = path.join(tmpdir(), `newer-${process.pid}-${dialect}.tar`);
    const manifest = JSON.parse(entries[0]!.data.toString('utf8'));
    await writeEntries(newer, [
      { name: 'manifest.json', data: Buffer.from(JSON.stringify({ ...manifest, format_version: 3 })) },
      ...entries.slice(1),
    ]);
    const refused = await upload(readFileSync(newer));
    rmSync(newer);
    expect(refused.json().message).toBe('备份包由更新版本的 Sitewatch 生成，未做任何更改。');
    expect((await ok(await call('GET', 'setting/maintain/mysql/auto_list'))).total).toBe(before);

    const taken = await ok(await upload(bytes));
    expect(taken).toMatchObject({ kind: 'config', size: bytes.length });
    expect(taken.filename).toMatch(/^upload_backup_\d{14}\.tar$/);
    await ok(await restore(taken.filename));
  });

  it('keeps the history (series) in a package of its own and restores it row for row', async () => {
    const rows = [1, 2, 3].map((n) => ({
      item_id: 9000 + n,
      ts: 1_768_000_000 + n * 60,
      min: n,
      max: n,
      sum: n,
      count: 1,
    }));
    await k().insertInto('samples_1m').values(rows).execute();
    const digest = await snapshotDigest(t.database.db, ['samples_1m']);
    const made = await ok(await call('POST', 'setting/maintain/mysql/backup', { kind: 'history' }));
    expect(made.filename).toMatch(/^history_/);
    const manifest = await manifestOf(path.join(backups, made.filename));
    // Every table an area declares as history (the series store's and the areas' logs), none else.
    expect(manifest.tables).toEqual(contentsOf(t.sitewatch.areas, 'history').tables);
    expect(manifest.tables).toEqual(
      expect.arrayContaining(['sample_blocks', 'sample_chunks', 'samples_1h', 'samples_1m']),
    );
    expect(manifest.uploads).toEqual([]);
    await k().deleteFrom('samples_1m').where('item_id', '=', 9001).execute();
    await k()
      .insertInto('samples_1m')
      .values({ ...rows[0]!, item_id: 9009 })
      .execute();
    const sites = await snapshotDigest(t.database.db, ['device_groups']);
    await ok(await restore(made.filename));
    expect(await snapshotDigest(t.database.db, ['samples_1m'])).toBe(digest);
    expect(await snapshotDigest(t.database.db, ['device_groups'])).toBe(sites);
  });
};

describeEachDatabase('backup and restore', (dialect) => {
  const r = backupRig(dialect);
  const { dataDir, t, headers, call, ok, restore, k, backups, rowsOf, manifestOf } = r;
  it("backs up a throw-away area's table, upload folder and secret, and a restore brings every configuration row back", async () => {
    const secrets = t.sitewatch.services.secrets;
    const sealed = JSON.stringify({ token: secrets.encrypt('s3cret-token'), other: 1 });
    await k().insertInto('scratch_notes').values({ id: 1, note: 'before', config: sealed }).execute();
    mkdirSync(path.join(dataDir, 'scratch-files', 'a'), { recursive: true });
    writeFileSync(path.join(dataDir, 'scratch-files', 'a', 'plan.txt'), 'the plan');
    const site = await ok(await call('POST', 'setting/device_groups', { name: 'Room A', weight: 1 }));
    const before = await rowsOf();

    const made = await ok(await call('POST', 'setting/maintain/mysql/backup', {}));
    expect(made).toMatchObject({ kind: 'config', auto: false });
    const list = await ok(await call('GET', 'setting/maintain/mysql/auto_list'));
    expect(list.data[0]).toMatchObject({
      filename: made.filename,
      size: statSync(path.join(backups, made.filename)).size,
    });
    const manifest = await manifestOf(path.join(backups, made.filename));
    expect(manifest).toMatchObject({
      format: 'sitewatch-backup',
      format_version: 2,
      kind: 'config',
      database: dialect,
    });
    expect(manifest.tables).toContain('scratch_notes');
    expect(manifest.tables).not.toContain('sessions');
    expect(manifest.tables).not.toContain('sample_chunks');
    expect(manifest.uploads).toContain('scratch-files');
    expect(manifest.secrets).toContainEqual({
      area: 'scratch',
      table: 'scratch_notes',
      where: 'column=config',
      fields: ['token'],
    });
    expect(manifest.parts.map((p) => p.name)).toContain('uploads/scratch-files/a/plan.txt');
    // A second package of the same second keeps the time in its name.
    const second = await ok(await call('POST', 'setting/maintain/mysql/backup', {}));
    expect(second.filename).toBe(made.filename.replace(/\.tar$/, '_2.tar'));
    await ok(await call('DELETE', 'setting/maintain/mysql/auto_list', { filename: second.filename }));

    // Everything changes after the backup …
    await k().updateTable('scratch_notes').set({ note: 'after', config: '{}' }).execute();
    await k().insertInto('scratch_notes').values({ id: 2, note: 'new', config: '{}' }).execute();
    rmSync(path.join(dataDir, 'scratch-files', 'a', 'plan.txt'));
    writeFileSync(path.join(dataDir, 'scratch-files', 'stray.txt'), 'stray');
    await ok(await call('PUT', `setting/device_groups/${site.id}`, { name: 'Room B', weight: 2 }));
    await ok(await call('POST', 'setting/device_groups', { name: 'Room C', weight: 1 }));
    expect(await rowsOf()).not.toEqual(before);

    // … a wrong verification password changes nothing …
    const wrong = await restore(made.filename, 'not-the-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('密码错误，请重新输入！');
    expect((await k().selectFrom('scratch_notes').selectAll().execute()).length).toBe(2);

    // … and the restore brings back every configuration row, the file and the secret.
    expect(await ok(await restore(made.filename))).toMatchObject({ files: 1 });
    expect(await rowsOf()).toEqual(before);
    const row = await k().selectFrom('scratch_notes').selectAll().executeTakeFirstOrThrow();
    expect(secrets.decrypt(JSON.parse(String(row.config)).token)).toBe('s3cret-token');
    expect(readFileSync(path.join(dataDir, 'scratch-files', 'a', 'plan.txt'), 'utf8')).toBe('the plan');
    expect(existsSync(path.join(dataDir, 'scratch-files', 'stray.txt'))).toBe(false);
    const audit = await k().selectFrom('operation_logs').selectAll().where('module', '=', 'maintenance').execute();
    expect(audit.map((a) => [a.action, a.result])).toContainEqual(['restore', 1]);
  });

  it('refuses a foreign and a corrupt package with a message, and nothing changes', async () => {
    const good = (await ok(await call('GET', 'setting/maintain/mysql/auto_list'))).data[0].filename as string;
    const all = (await t.database.db.kysely.introspection.getTables()).map((x) => x.name);
    // The verification password's check counts as a login attempt (auth's throttle); the refusal is logged.
    const watched = all.filter((x) => x !== 'operation_logs' && x !== 'login_attempts');
    const digests = async () =>
      Object.fromEntries(await Promise.all(watched.map(async (x) => [x, await snapshotDigest(t.database.db, [x])])));
    const digest = await digests();
    writeFileSync(path.join(dataDir, 'scratch-files', 'keep.txt'), 'keep');

    writeFileSync(path.join(backups, 'backup_20990101000000.tar'), Buffer.from('PK\u0003\u0004 not a backup at all'));
    const foreign = await restore('backup_20990101000000.tar');
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('该文件不是 Sitewatch 备份包，未做任何更改。');

    // A damaged part, an entry the manifest does not list, a manifest changed after it was sealed
    // (a table added to what is restored), a part missing: each refused, nothing staged is used.
    const entries = await readEntries(path.join(backups, good));
    const [manifestEntry, ...parts] = entries;
    const manifest = JSON.parse(manifestEntry!.data.toString('utf8')) as Manifest;
    const flipped = parts.map((p) => {
      if (!p.name.startsWith('database.')) return p;
      const data = Buffer.from(p.data);
      data[Math.floor(data.length / 2)]! ^= 0xff;
      return { ...p, data };
    });
    const forged = [
      [manifestEntry!, ...flipped],
      [...entries, { name: 'uploads/scratch-files/evil.sh', data: Buffer.from('rm -rf /') }],
      [
        {
          name: 'manifest.json',
          data: Buffer.from(JSON.stringify({ ...manifest, tables: [...manifest.tables, 'kysely_migration'] })),
        },
        ...parts,
      ],
      [manifestEntry!, ...parts.filter((p) => !p.name.startsWith('database.'))],
    ];
    for (const [n, forgery] of forged.entries()) {
      const name = `backup_2099010100001${n}.tar`;
      await writeEntries(path.join(backups, name), forgery);
      const damaged = await restore(name);
      expect(damaged.statusCode, `forgery ${n}`).toBe(400);
      expect(damaged.json().message).toBe('备份包已损坏（缺少部分内容或校验和不符），未做任何更改。');
      rmSync(path.join(backups, name));
    }

    const traversal = await restore('../secret.key');
    expect(traversal.statusCode).toBe(400);
    expect(await digests()).toEqual(digest);
    expect(readFileSync(path.join(dataDir, 'scratch-files', 'keep.txt'), 'utf8')).toBe('keep');
    await ok(await call('DELETE', 'setting/maintain/mysql/auto_list', { filename: 'backup_20990101000000.tar' }));
    expect(
      (await call('DELETE', 'setting/maintain/mysql/auto_list', { filename: 'backup_20990101000001.tar' })).statusCode,
    ).toBe(404);
  });

  it('runs automatic backups on the schedule and keeps the latest three', async () => {
    const bad = await call('PUT', 'setting/maintain/mysql/auto_setting', { enabled: true, time: '25:00' });
    expect(bad.statusCode).toBe(400);
    // Two automatic backups already made (at 12:00, the second of the same second `_2`), as the
    // schedule's run makes them; then the schedule today at 12:01 and an hour later: four in all,
    // the latest three kept. (Not four runs over four hours: every engine's timers run on the test
    // clock meanwhile, 93 000 of them in four hours, most of this test's time.)
    await t.sitewatch.services.maintenance.create('config', true);
    await t.sitewatch.services.maintenance.create('config', true);
    const schedule = { enabled: true, date_mode: 1, days: 1, run_count: 2, time: '12:01', frequency: 1 };
    await ok(await call('PUT', 'setting/maintain/mysql/auto_setting', schedule));
    expect(await ok(await call('GET', 'setting/maintain/mysql/auto_setting'))).toEqual({ ...schedule, date: 1 });
    await t.clock.advance(61 * 60_000);
    const autos = (await ok(await call('GET', 'setting/maintain/mysql/auto_list'))).data.filter(
      (p: { auto: boolean }) => p.auto,
    );
    expect(autos.map((p: { filename: string }) => p.filename)).toEqual([
      'auto_backup_20260110130100.tar',
      'auto_backup_20260110120100.tar',
      'auto_backup_20260110120000_2.tar',
    ]);
    expect(await ok(await call('GET', 'setting/maintain/mysql/lastest_event'))).toMatchObject({
      file: 'auto_backup_20260110130100.tar',
      read: false,
    });
    await ok(await call('PUT', 'setting/maintain/mysql/lastest_event'));
    expect((await ok(await call('GET', 'setting/maintain/mysql/lastest_event'))).read).toBe(true);
    const download = await t.app.inject({
      method: 'GET',
      url: '/api/v1/setting/maintain/mysql/download?filename=auto_backup_20260110130100.tar',
      headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 13).toString()).toBe('manifest.json');
  });

  uploadAndHistoryCases(r);
});
