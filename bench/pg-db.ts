import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { type Db, openDb } from '../server/src/db/kysely.ts';

/** A throw-away database on the PostgreSQL server at `url`, dropped by `drop()`. */
export const createPgDatabase = async (url: string): Promise<{ db: Db; drop(): Promise<void> }> => {
  const name = `sitewatch_bench_${process.pid}_${Date.now() % 100000}`;
  const admin = openDb({ databaseUrl: url, dataDir: tmpdir() });
  await sql`create database ${sql.id(name)}`.execute(admin.kysely);
  await admin.close();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    db: openDb({ databaseUrl: u.toString(), dataDir: tmpdir() }),
    async drop() {
      const again = openDb({ databaseUrl: url, dataDir: tmpdir() });
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(again.kysely);
      await again.close();
    },
  };
};
