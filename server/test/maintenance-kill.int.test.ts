import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createSitewatch } from '../src/app.ts';
import { type Db, type Dialect, openDb } from '../src/db/kysely.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { contentsOf } from '../src/modules/maintenance/package.ts';
import { loadOrCreateSecretBox } from '../src/secrets/index.ts';
import { testLoginKey } from './helpers/build-app.ts';
import { childBundle } from './helpers/child-bundle.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';

/**
 * kill -9 during a restore leaves the old state or the new one, never a mix (issue 30, "Must show"):
 * a server process restores package B over state A and is killed at moments spread over the
 * restore; the next start (the area's recovery) must find rows and upload files all A or all B.
 */
const pgUrl = process.env.SITEWATCH_TEST_PG_URL;
const child = path.resolve(import.meta.dirname, 'helpers/restore-child.ts');

describeEachDatabase('kill -9 during a restore', (dialect: Dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-kill-'));
  let url = '';
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (url) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`);
      await admin.end();
    }
  });
  const open = () => openDb({ dataDir, databaseUrl: url || undefined });
  const withApp = async <T>(work: (s: Awaited<ReturnType<typeof createSitewatch>>, db: Db) => Promise<T>) => {
    const db = open();
    const s = await createSitewatch({
      db,
      dataDir,
      loginKey: testLoginKey,
      secrets: loadOrCreateSecretBox(dataDir),
      logLevel: 'silent',
    });
    try {
      return await work(s, db);
    } finally {
      await s.app.close();
      await db.close();
    }
  };
  const files = () => (existsSync(path.join(dataDir, 'top-view')) ? readdirSync(path.join(dataDir, 'top-view')) : []);
  /**
   * Rows of every configuration table and the upload files, after the start's recovery; then, when
   * given, `next` restored by the same start (the next round's state: one start a round, not two).
   */
  const state = (next?: string) =>
    withApp(async (s, db) => {
      await s.services.maintenance.recover();
      const tables = contentsOf(s.areas, 'config').tables;
      const seen = { rows: await snapshotDigest(db, tables), files: files().sort() };
      if (next) await s.services.maintenance.restore(next);
      return seen;
    });

  it('leaves the old rows and files or the new ones, never a mix', { timeout: 240_000 }, async () => {
    if (dialect === 'postgres') {
      const name = `sitewatch_kill_${process.pid}_${Date.now() % 100000}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const u = new URL(pgUrl!);
      u.pathname = `/${name}`;
      url = u.toString();
    }
    const db = open();
    await migrateToLatest(db.kysely);
    await db.close();
    // State B: many rows (a restore long enough to be cut) and a file; then state A.
    const [pkgA, pkgB] = await withApp(async (s, k) => {
      const logs = Array.from({ length: 20_000 }, (_, i) => ({
        time: 1_700_000_000 + i,
        module: 'kill',
        action: 'b',
        target: String(i),
        result: 1,
        user_id: null,
        user_name: 'b',
        ip: '',
        detail: 'x'.repeat(50),
      }));
      for (let i = 0; i < logs.length; i += 1000)
        await k.kysely
          .insertInto('operation_logs')
          .values(logs.slice(i, i + 1000))
          .execute();
      mkdirSync(path.join(dataDir, 'top-view'), { recursive: true });
      writeFileSync(path.join(dataDir, 'top-view', 'b.png'), 'b');
      const b = await s.services.maintenance.create('config');
      await k.kysely.deleteFrom('operation_logs').where('action', '=', 'b').execute();
      await k.kysely
        .insertInto('device_groups')
        .values({
          name: 'only in A',
          parent_id: 0,
          weight: 1,
          has_device: 0,
          longitude: null,
          latitude: null,
          background: '',
          scene: '',
          extend: '',
          created_at: 1,
          updated_at: 1,
        })
        .execute();
      rmSync(path.join(dataDir, 'top-view', 'b.png'));
      writeFileSync(path.join(dataDir, 'top-view', 'a.png'), 'a');
      const a = await s.services.maintenance.create('config');
      return [path.join(dataDir, 'backups', a.filename), path.join(dataDir, 'backups', b.filename)];
    });
    const restoreHere = (file: string) => withApp((s) => s.services.maintenance.restore(file));
    await restoreHere(pkgB);
    const stateB = await state();
    await restoreHere(pkgA);
    const stateA = await state();
    expect(stateA).not.toEqual(stateB);
    expect(stateB.files).toEqual(['b.png']);

    const seen: string[] = [];
    // Spread over the restore as each database takes it (pg_restore is a process of its own), dense
    // where loaded CI runs saw the switch from A to B (SQLite 80-110 ms and 400-700 ms; PostgreSQL
    // 1.5-4 s): every round costs two server starts and a child's.
    const delays = dialect === 'sqlite' ? [0, 80, 110, 150, 400, 700, 4000] : [0, 600, 800, 1500, 2500, 4000];
    // Each round starts from A: restored here first, then by the round before's start.
    await restoreHere(pkgA);
    for (const delayMs of delays) {
      const proc = spawn(process.execPath, [await childBundle(child), dataDir, url, pkgB], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise((resolve) => proc.on('exit', resolve));
      await new Promise<void>((resolve) => proc.stdout.on('data', (d) => String(d).includes('restoring') && resolve()));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      proc.kill('SIGKILL');
      await exited;
      const after = await state(pkgA);
      const which =
        JSON.stringify(after) === JSON.stringify(stateA)
          ? 'A'
          : JSON.stringify(after) === JSON.stringify(stateB)
            ? 'B'
            : 'mix';
      seen.push(`${delayMs} ms: ${which}`);
      expect(which, JSON.stringify({ after, stateA, stateB })).not.toBe('mix');
    }
    // What the kills found (old state early, new state late), for the record.
    console.log(`[${dialect}] ${seen.join(', ')}`);
  });
});
