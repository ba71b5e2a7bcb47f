import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe } from 'vitest';
import { type Db, type Dialect, openDb } from '../../src/db/kysely.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/** Set by `npm test`, which starts a throw-away PostgreSQL cluster. */
const pgUrl = process.env.SITEWATCH_TEST_PG_URL;
if (!pgUrl && process.env.SITEWATCH_REQUIRE_PG === '1') {
  throw new Error('SITEWATCH_TEST_PG_URL is not set but PostgreSQL tests are required');
}

export const testDialects: Dialect[] = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  db: Db;
  dialect: Dialect;
  /** Another connection to the same database, as a second process would open (the caller closes it). */
  connect(): Db;
  /** Drops the database (PostgreSQL) or removes its directory (SQLite). */
  destroy(): Promise<void>;
}

let counter = 0;

/**
 * The migrations' fingerprint: a template database is migrated once per fingerprint and copied for
 * each test database (a copy takes milliseconds, migrating 120–300 ms; a run makes hundreds).
 */
const migrationsFingerprint = (() => {
  const dir = fileURLToPath(new URL('../../src/db/', import.meta.url));
  const hash = createHash('sha256');
  const files = [
    'migrate.ts',
    ...readdirSync(path.join(dir, 'migrations'))
      .sort()
      .map((f) => `migrations/${f}`),
  ];
  for (const file of files) hash.update(file).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 16);
})();

/** A migrated SQLite file, made once per fingerprint; workers racing to make it rename identical files. */
let sqliteTemplate: Promise<string> | null = null;
const sqliteTemplateFile = (): Promise<string> => {
  sqliteTemplate ??= (async () => {
    const file = path.join(tmpdir(), `sitewatch-template-${migrationsFingerprint}.db`);
    if (existsSync(file)) return file;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-template-'));
    const db = openDb({ dataDir });
    await migrateToLatest(db.kysely);
    await db.close(); // the last connection's close checkpoints the WAL into the file
    renameSync(path.join(dataDir, 'sitewatch.db'), file);
    rmSync(dataDir, { recursive: true, force: true });
    return file;
  })();
  return sqliteTemplate;
};

/** A migrated PostgreSQL template database, made once per fingerprint under an advisory lock. */
let pgTemplate: Promise<string> | null = null;
const pgTemplateName = (url: string): Promise<string> => {
  pgTemplate ??= (async () => {
    const name = `sitewatch_template_${migrationsFingerprint}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock(7305)');
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_${process.pid}`;
        await admin.query(`drop database if exists ${building}`);
        await admin.query(`create database ${building}`);
        const target = new URL(url);
        target.pathname = `/${building}`;
        const db = openDb({ databaseUrl: target.toString(), dataDir: tmpdir() });
        await migrateToLatest(db.kysely);
        await db.close();
        // A closed pool's backends may still be leaving; the rename needs the database to itself.
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [building]);
        await admin.query(`alter database ${building} rename to ${name}`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(7305)').catch(() => {});
      await admin.end();
    }
    return name;
  })();
  return pgTemplate;
};

/** A fresh, migrated database of the given dialect, private to the caller. */
export const createTestDatabase = async (dialect: Dialect): Promise<TestDatabase> => {
  if (dialect === 'sqlite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-test-'));
    copyFileSync(await sqliteTemplateFile(), path.join(dataDir, 'sitewatch.db'));
    const db = openDb({ dataDir });
    return {
      db,
      dialect,
      connect: () => openDb({ dataDir }),
      destroy: async () => {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!pgUrl) throw new Error('PostgreSQL is not configured for tests');
  counter += 1;
  const name = `sitewatch_test_${process.pid}_${counter}_${Date.now() % 100000}`;
  const template = await pgTemplateName(pgUrl);
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const db = openDb({ databaseUrl: url.toString(), dataDir: tmpdir() });
  return {
    db,
    dialect,
    connect: () => openDb({ databaseUrl: url.toString(), dataDir: tmpdir() }),
    destroy: async () => {
      await db.close();
      const cleaner = new pg.Client({ connectionString: pgUrl });
      await cleaner.connect();
      await cleaner.query(`drop database if exists ${name} with (force)`);
      await cleaner.end();
    },
  };
};

/** Runs the same suite on SQLite and, when configured, on PostgreSQL. */
export const describeEachDatabase = (name: string, suite: (dialect: Dialect) => void) => {
  for (const dialect of testDialects) describe(`${name} [${dialect}]`, () => suite(dialect));
};
