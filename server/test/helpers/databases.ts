import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** A fresh, migrated database of the given dialect, private to the caller. */
export const createTestDatabase = async (dialect: Dialect): Promise<TestDatabase> => {
  if (dialect === 'sqlite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-test-'));
    const db = openDb({ dataDir });
    await migrateToLatest(db.kysely);
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
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const db = openDb({ databaseUrl: url.toString(), dataDir: tmpdir() });
  await migrateToLatest(db.kysely);
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
