import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from './kysely.ts';

describe('the SQLite connection, beside a second writer (the series store thread)', () => {
  let dir: string;
  let db: Db;
  let other: SQLite.Database;
  const open = async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-kysely-'));
    db = openDb({ dataDir: dir });
    await sql`create table t (v integer)`.execute(db.kysely);
    other = new SQLite(path.join(dir, 'sitewatch.db'));
  };
  afterEach(async () => {
    other.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits for a lock another connection holds without blocking the event loop', async () => {
    await open();
    other.exec('begin immediate');
    other.exec('insert into t values (1)');
    const ticks: number[] = [];
    const ticking = setInterval(() => ticks.push(performance.now()), 5);
    setTimeout(() => other.exec('commit'), 200);
    const started = performance.now();
    // A statement on its own, then a transaction: both find the database locked at first.
    const single = sql`insert into t values (2)`.execute(db.kysely);
    await single;
    const waited = performance.now() - started;
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into t values (3)`.execute(trx);
    });
    clearInterval(ticking);
    expect(waited).toBeGreaterThanOrEqual(190);
    // The timer kept firing while the statement waited: the thread was not asleep in SQLite (asleep,
    // it would fire once or not at all in those 190 ms; a loaded CI machine fired it exactly 10 times).
    expect(ticks.filter((t) => t < started + 190).length).toBeGreaterThan(4);
    const rows = await sql<{ v: number }>`select v from t order by v`.execute(db.kysely);
    expect(rows.rows.map((r) => r.v)).toEqual([1, 2, 3]);
  });

  it('begins a transaction when the other connection lets go, and keeps it whole', async () => {
    await open();
    other.exec('begin immediate');
    setTimeout(() => {
      other.exec('insert into t values (10)');
      other.exec('commit');
    }, 50);
    await db.kysely.transaction().execute(async (trx) => {
      // Read, then write from what was read: the lock is held from the begin, so the other
      // connection's row is seen and nothing is lost.
      const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(trx);
      await sql`insert into t values (${rows[0]!.n})`.execute(trx);
    });
    const rows = await sql<{ v: number }>`select v from t order by v`.execute(db.kysely);
    expect(rows.rows.map((r) => r.v)).toEqual([1, 10]);
  });
});
