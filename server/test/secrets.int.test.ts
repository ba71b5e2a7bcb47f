import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/db/kysely.ts';

// Issue 11, finding 7: the data dir and the SQLite files were world-readable (0644).
describe('data dir and database file modes', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sitewatch-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const mode = (f: string) => statSync(f).mode & 0o777;

  it('a new data dir is 0700 and the db, -wal and -shm files 0600', async () => {
    const dataDir = path.join(root, 'new');
    const db = openDb({ dataDir });
    await sql`create table t (x integer)`.execute(db.kysely);
    await sql`insert into t values (1)`.execute(db.kysely);
    expect(mode(dataDir)).toBe(0o700);
    for (const f of ['sitewatch.db', 'sitewatch.db-wal', 'sitewatch.db-shm'])
      expect(mode(path.join(dataDir, f)), f).toBe(0o600);
    await db.close();
  });

  it('an existing open dir and database are tightened at the next start', async () => {
    const dataDir = path.join(root, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    const first = openDb({ dataDir });
    await sql`create table t (x integer)`.execute(first.kysely);
    await first.close();
    const { chmodSync } = await import('node:fs');
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'sitewatch.db'), 0o644);
    const again = openDb({ dataDir });
    await sql`select 1`.execute(again.kysely);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'sitewatch.db'))).toBe(0o600);
    await again.close();
  });
});
