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

  /**
   * Runs `then` after the event loop has turned `n` times: only a wait that leaves the thread free
   * lets it run (asleep in SQLite, the thread would turn no more until the lock wait gave up).
   */
  const afterTurns = (n: number, then: () => void) => {
    let turns = 0;
    const turn = () => {
      turns += 1;
      if (turns === n) then();
      else setImmediate(turn);
    };
    setImmediate(turn);
  };

  it('waits for a lock another connection holds without blocking the event loop', async () => {
    await open();
    other.exec('begin immediate');
    other.exec('insert into t values (1)');
    // The other connection lets go only once the loop has turned ten times while the insert waits.
    let released = false;
    afterTurns(10, () => {
      other.exec('commit');
      released = true;
    });
    // A statement on its own, then a transaction: the first finds the database locked.
    await sql`insert into t values (2)`.execute(db.kysely);
    expect(released).toBe(true);
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into t values (3)`.execute(trx);
    });
    const rows = await sql<{ v: number }>`select v from t order by v`.execute(db.kysely);
    expect(rows.rows.map((r) => r.v)).toEqual([1, 2, 3]);
  });

  it('begins a transaction when the other connection lets go, and keeps it whole', async () => {
    await open();
    other.exec('begin immediate');
    afterTurns(5, () => {
      other.exec('insert into t values (10)');
      other.exec('commit');
    });
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
