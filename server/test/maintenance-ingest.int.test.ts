import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedEstate } from '../../bench/estate.ts';
import { createManualClock } from '../src/clock/manual.ts';
import type { Dialect } from '../src/db/kysely.ts';
import { contentsOf } from '../src/modules/maintenance/package.ts';
import { createSecretBox } from '../src/secrets/index.ts';
import { createSeriesStore, type SeriesStore } from '../src/series/store.ts';
import { type ManualTestApp, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { rowsByKey } from './helpers/db-snapshot.ts';
import { createFirstAdmin, encryptFor, publicKeyOf } from './helpers/login.ts';
import { multipartFile } from './helpers/site-estate.ts';

/** The product's ingest rate the backup runs beside (issue 30 "Must show"). */
const ratePerSecond = 10_000;
/** Simulated time per step of the driver, and samples appended in each. */
const stepMs = 100;
const items = 500;
const perStep = (ratePerSecond * stepMs) / 1000;
const start = Date.UTC(2026, 0, 10, 4, 0, 0);

/**
 * One install: an app on its own database, data dir and manual clock, with a started series store
 * (the collector's, without devices: the test is the collector). Both installs hold the same
 * `secret.key` (the box), as an install restored elsewhere must (docs/maintenance.md).
 */
const install = (dialect: Dialect, secrets: ReturnType<typeof createSecretBox>) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-ingest-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const clock = createManualClock(start);
  const state: { store?: SeriesStore } = {};
  const t = useTestApp(dialect, (database) => {
    // Compaction stays off while the driver runs: the blocks of each flush are the history, so the
    // package's history is a prefix of flushes and can be compared row for row.
    state.store = createSeriesStore(database.db, {
      timers: clock.timers,
      compactEveryMs: 3_600_000,
      compactAtSamples: 100_000_000,
    });
    return { clock: clock.now, timers: clock.timers, series: state.store, dataDir, secrets, logLevel: 'error' };
  }) as ManualTestApp;
  t.clock = clock;
  let password = '';
  let key = '';
  beforeAll(async () => {
    clock.settleWith((between) => t.sitewatch.settled(between));
    password = await createFirstAdmin(t.database.db);
    key = await publicKeyOf(t.app);
    await t.sitewatch.start();
    state.store!.start();
  });
  afterAll(async () => state.store?.stop());
  const headers = { authorization: 'Bearer admin-token' };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  const ok = async (res: Awaited<ReturnType<typeof call>>) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const store = () => state.store!;
  return { t, dataDir, call, ok, store, password: () => password, key: () => key };
};

/** Every row of each table as JSON, sorted (for a comparison row for row). */
const rowsOf = async (db: ManualTestApp['database']['db'], tables: string[]) => {
  const out: Record<string, string[]> = {};
  for (const table of tables) out[table] = [...(await rowsByKey(db, table)).values()].map((r) => r.json).sort();
  return out;
};

describeEachDatabase('backup while the product ingests 10 000 samples/s, restored into a fresh install', (dialect) => {
  const secrets = createSecretBox(randomBytes(32));
  const source = install(dialect, secrets);
  const fresh = install(dialect, secrets);

  it('backs up the configuration and the history mid-ingest; a fresh install answers the same, row for row', async () => {
    const { t } = source;
    const { devices } = await seedEstate(t.database.db, { items, perDevice: 50 });
    const ids = devices.flatMap((d) => d.items);
    expect(ids).toHaveLength(items);

    // The driver: `perStep` samples each `stepMs` of the kernel's clock (10 000 per simulated
    // second), pushed as fast as the store takes them (each advance flushes on the store's timer).
    let appended = 0;
    let value = 0;
    const step = async () => {
      const ts = t.clock.now();
      for (let i = 0; i < perStep; i++) source.store().append(ids[(appended + i) % items]!, ts, value++);
      appended += perStep;
      await t.clock.advance(stepMs);
    };
    const flushedRows = async () =>
      Number(
        (
          await t.database.db.kysely
            .selectFrom('sample_blocks')
            .select((e) => e.fn.sum<number>('n').as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      );

    // One simulated second before the backups, then both backups run while the driver goes on.
    const quietStart = performance.now();
    for (let i = 0; i < 1000 / stepMs; i++) await step();
    const quietRate = Math.round(ratePerSecond / ((performance.now() - quietStart) / 1000));
    const wallStart = performance.now();
    const simStart = t.clock.now();
    const before = await flushedRows();
    let done = false;
    const backups = Promise.all([
      source.call('POST', 'setting/maintain/mysql/backup', { kind: 'config' }).then(source.ok),
      source.call('POST', 'setting/maintain/mysql/backup', { kind: 'history' }).then(source.ok),
    ]).finally(() => {
      done = true;
    });
    let stepsDuring = 0;
    while (!done || t.clock.now() - simStart < 2000) {
      await step();
      if (!done) stepsDuring++;
    }
    const [configPackage, history] = await backups;
    // The rest of the last second flushed: the source's whole history is in the tables.
    await t.clock.advance(1000);
    const wallSeconds = (performance.now() - wallStart) / 1000;
    const ingested = (await flushedRows()) - before;
    const realRate = Math.round(ingested / wallSeconds);
    console.info(
      `[${dialect}] ingest alone: ${quietRate} samples/s; beside the backups: ${ingested} samples in ${wallSeconds.toFixed(2)} s wall = ${realRate} samples/s; ` +
        `${stepsDuring} steps (${stepsDuring * perStep} samples) while the backups ran; config ${configPackage.size} B, history ${history.size} B`,
    );
    // Every sample appended is stored, and the backups ran while the driver did. The rate is the
    // product's on its clock; the real rate (wall time, beside both backups) is measured and told:
    // it moves with the machine's load, so it is not a pass mark (docs/maintenance.md has figures).
    expect(await flushedRows()).toBe(appended);
    expect(stepsDuring).toBeGreaterThan(0);

    // The fresh install takes both packages by upload (checked as a restore checks them), then
    // restores the history (with its own administrator) and the configuration.
    const upload = async (filename: string) => {
      const file = readFileSync(path.join(source.dataDir, 'backups', filename));
      const form = multipartFile('file', filename, file, 'application/x-tar');
      const res = await fresh.t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/maintain/mysql/upload',
        headers: { ...form.headers, authorization: 'Bearer admin-token' },
        payload: form.payload,
      });
      return (await fresh.ok(res)).filename as string;
    };
    const restore = async (filename: string, password: string) =>
      fresh.ok(
        await fresh.call('POST', 'setting/maintain/mysql/restore', {
          filename,
          verify_password: encryptFor(fresh.key(), password),
        }),
      );
    await restore(await upload(history.filename), fresh.password());
    await restore(await upload(configPackage.filename), fresh.password());

    // The history: the package holds whole flushes, a prefix of the source's, row for row.
    const restoredBlocks = await fresh.t.database.db.kysely
      .selectFrom('sample_blocks')
      .select(['seq', 'n'])
      .orderBy('seq')
      .execute();
    const lastSeq = restoredBlocks.at(-1)!.seq;
    const sourceBlocks = await t.database.db.kysely.selectFrom('sample_blocks').select('seq').execute();
    expect(restoredBlocks.length).toBeGreaterThan(0);
    expect(sourceBlocks.length).toBeGreaterThan(restoredBlocks.length);
    const historyTables = contentsOf(t.sitewatch.areas, 'history').tables;
    const sourceHistory = await rowsOf(t.database.db, historyTables);
    const freshHistory = await rowsOf(fresh.t.database.db, historyTables);
    const asOfBackup = sourceHistory.sample_blocks!.filter((json) => JSON.parse(json).seq <= lastSeq);
    expect(freshHistory).toEqual({ ...sourceHistory, sample_blocks: asOfBackup });
    const inPackage = restoredBlocks.reduce((sum, b) => sum + Number(b.n), 0);
    expect(inPackage).toBeGreaterThanOrEqual(before);

    // And answers the same: an item's samples up to the backup read the same through the API.
    const lastTs =
      Math.max(...(await fresh.store().raw(ids[0]!, start / 1000, start / 1000 + 3600)).map((s) => s.tsMs)) / 1000;
    const read = async (app: typeof source, id: number) =>
      app.ok(await app.call('GET', `series/items/${id}?t1=${start / 1000}&t2=${Math.floor(lastTs) - 1}&points=5000`));
    for (const id of [ids[0]!, ids[items - 1]!]) expect(await read(fresh, id)).toEqual(await read(source, id));

    // The configuration: every declared table of the package, row for row (the restore's own
    // operation log and the alarm engine's id block aside, as in maintenance.int.test.ts).
    const configTables = contentsOf(t.sitewatch.areas, 'config').tables.filter(
      (x) => x !== 'operation_logs' && x !== 'id_blocks',
    );
    // The latest-backup notice is written as each package is made, so which of the two the
    // configuration package caught depends on their order; it is left out on both sides.
    const config = async (db: ManualTestApp['database']['db']) => {
      const rows = await rowsOf(db, configTables);
      rows.module_settings = rows.module_settings!.filter((json) => JSON.parse(json).k !== 'backup_latest');
      return rows;
    };
    expect(await config(fresh.t.database.db)).toEqual(await config(t.database.db));
  }, 120_000);
});
