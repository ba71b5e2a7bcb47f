import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createSitewatch } from '../src/app.ts';
import { type Db, type Dialect, openDb } from '../src/db/kysely.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { loadOrCreateLoginKey } from '../src/modules/auth/index.ts';
import { contentsOf } from '../src/modules/maintenance/package.ts';
import { restoreSteps } from '../src/modules/maintenance/service.ts';
import { loadOrCreateSecretBox } from '../src/secrets/index.ts';
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
  /**
   * The server of this process, opened once: it makes the packages, and after each kill runs the
   * recovery a start runs, reads the state and restores A for the next round. Nothing of that is
   * held in memory between rounds: recover() reads the pending marker row and the `.restore`
   * folder afresh, the state is read from the tables and the folder, and the restore reads the
   * package; so it checks what a new start would find, without a whole app built each round.
   */
  let server: { s: Awaited<ReturnType<typeof createSitewatch>>; db: Db } | undefined;
  afterAll(async () => {
    await server?.s.app.close();
    await server?.db.close();
  });
  const files = () => (existsSync(path.join(dataDir, 'top-view')) ? readdirSync(path.join(dataDir, 'top-view')) : []);
  /**
   * Rows of every configuration table and the upload files, after the recovery a start runs; then,
   * when given, `next` restored (the next round's state).
   */
  const state = async (next?: string) => {
    const { s, db } = server!;
    await s.services.maintenance.recover();
    const tables = contentsOf(s.areas, 'config').tables;
    const seen = { rows: await snapshotDigest(db, tables), files: files().sort() };
    if (next) await s.services.maintenance.restore(next);
    return seen;
  };
  /** A child server, built and waiting for the package to restore (stopped dead at the step `stopAt` when given). */
  const startChild = async (stopAt: string) => {
    const proc = spawn(process.execPath, [await childBundle(child), dataDir, url, stopAt], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let text = '';
    const listeners = new Set<() => void>();
    let gone = false;
    const exited = new Promise<number | null>((resolve) =>
      proc.on('exit', (code) => {
        gone = true;
        for (const l of listeners) l();
        resolve(code);
      }),
    );
    proc.stdout.on('data', (d) => {
      text += String(d);
      for (const l of listeners) l();
    });
    const line = (what: string) =>
      new Promise<number>((resolve, reject) => {
        const check = () => {
          if (!text.includes(what)) {
            if (gone) reject(new Error(`the child ended before "${what}": ${text}`));
            return;
          }
          listeners.delete(check);
          resolve(performance.now());
        };
        listeners.add(check);
        check();
      });
    const ready = line('ready');
    return { proc, exited, line, ready, text: () => text };
  };
  type Child = Awaited<ReturnType<typeof startChild>>;
  /** Lets a ready child restore `file`, and kills it with SIGKILL `after` ms past the line `at`. */
  const runChild = async (c: Child, file: string, at: string, after: number) => {
    await c.ready;
    c.proc.stdin.write(`${file}\n`);
    await c.line(at);
    if (after) await new Promise((resolve) => setTimeout(resolve, after));
    c.proc.kill('SIGKILL');
    await c.exited;
  };

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
    const came = new Map<string, number>();
    // Each round starts from A (restored by the round before's check) and kills the child at a
    // step (stopped dead there) or a share of the step's span past it (in this process's restore
    // of B below): while the package is opened and checked, at the last moment before the rows'
    // transaction, two moments in it, between its commit and the swap of the files (the recovery
    // rolls forward), after the swap. (A kill before the restore begins proves nothing: not kept.)
    type Round = { at: string; share?: number; expect?: 'A' | 'B' };
    const rounds: Round[] = [
      { at: 'restoring', share: 0.5 },
      { at: restoreSteps.checked, expect: 'A' },
      ...[1 / 3, 2 / 3].map((share) => ({ at: restoreSteps.checked, share })),
      { at: restoreSteps.committed, expect: 'B' },
      { at: restoreSteps.swapped, expect: 'B' },
    ];
    server = {
      db,
      s: await createSitewatch({
        db,
        dataDir,
        loginKey: loadOrCreateLoginKey(dataDir),
        secrets: loadOrCreateSecretBox(dataDir),
        // Its own restore's step lines, with the moment each came (the rounds' kills are placed by them).
        logLevel: 'info',
        logStream: {
          write: (line: string) => {
            for (const step of Object.values(restoreSteps)) if (line.includes(step)) came.set(step, performance.now());
          },
        },
      }),
    };
    // The children are started ahead (built, then waiting for the package): a server's start is
    // most of a round's time, and it goes on meanwhile instead of after. (Only once this process's
    // server is built: a start seeds missing rows, two at once on an empty database collide.)
    const ahead = (i: number) => {
      const round = rounds[i];
      return round ? startChild(round.share === undefined ? round.at : '') : undefined;
    };
    const children = [ahead(0), ahead(1)];
    // State B: many rows (a restore long enough to be cut) and a file; then state A.
    const [pkgA, pkgB] = await (async ({ s, db: k }) => {
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
    })(server);
    // Package B restored here: the moments its steps came (ms after the call) place the kills
    // below that fall between two steps, as this machine takes a restore now.
    const began = performance.now();
    await server.s.services.maintenance.restore(pkgB);
    const checkedAt = Math.round(came.get(restoreSteps.checked)! - began);
    const rowsMs = Math.round(came.get(restoreSteps.committed)! - came.get(restoreSteps.checked)!);
    const stateB = await state(pkgA);
    const stateA = await state();
    expect(stateA).not.toEqual(stateB);
    expect(stateB.files).toEqual(['b.png']);
    const afterOf = (round: Round) =>
      round.share === undefined
        ? 0
        : Math.max(1, Math.round(round.share * (round.at === 'restoring' ? checkedAt : rowsMs)));
    const seen: string[] = [];
    for (const [i, round] of rounds.entries()) {
      children.push(ahead(i + 2));
      const after = afterOf(round);
      await runChild((await children[i])!, pkgB, round.at, after);
      const found = await state(pkgA);
      const which =
        JSON.stringify(found) === JSON.stringify(stateA)
          ? 'A'
          : JSON.stringify(found) === JSON.stringify(stateB)
            ? 'B'
            : 'mix';
      seen.push(`${round.at.replace(/^backup restore: ([^,]+).*$/, '$1')} +${after} ms: ${which}`);
      expect(which, JSON.stringify({ found, stateA, stateB })).not.toBe('mix');
      if (round.expect) expect(which, seen.at(-1)).toBe(round.expect);
    }
    // What the kills found (old state early, new state late), for the record.
    console.log(`[${dialect}] rows ${rowsMs} ms; ${seen.join(', ')}`);
  });
});
