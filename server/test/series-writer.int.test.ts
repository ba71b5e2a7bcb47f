import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { seedEstate } from '../../bench/estate.ts';
import { createChangedIds } from '../src/changed-ids.ts';
import { createItemRowWriter } from '../src/collector/item-rows.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { startSqlWriter } from '../src/series/writer.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

// A started store on SQLite writes through its writer thread (its own connection); on PostgreSQL
// through the server's pool. The same guarantees either way (docs/series-store.md, "The store's writer").
describeEachDatabase('series store: the writer thread', (dialect) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(dialect);
  });
  afterEach(async () => t.destroy());

  const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
  const thread = dialect === 'sqlite' ? 'worker' : 'main';

  it('stores, compacts, isolates a refused item and writes item rows through it; stop leaves nothing behind', async () => {
    const { devices } = await seedEstate(t.db, { items: 40, perDevice: 40 });
    const ids = devices.flatMap((d) => d.items);
    const drops: Array<{ itemId: number; samples: number }> = [];
    const store = createSeriesStore(t.db, {
      flushEveryMs: 3_600_000,
      compactEveryMs: 3_600_000,
      itemsPerSlice: 7,
      onDropped: ({ itemId, samples }) => drops.push({ itemId, samples }),
    });
    store.start();
    // The writer thread has started once the store's start-up work has settled.
    await store.settled();
    expect(store.writer().thread).toBe(thread);

    for (let s = 0; s < 3; s++) for (const id of ids) store.append(id, t0 + s * 1000, id + s);
    const flushed = await store.flush();
    expect(flushed).toMatchObject({ samples: 120, chunks: 1 });
    // Committed when the flush answers: the server's connection sees the block.
    const blocks = await t.db.kysely.selectFrom('sample_blocks').select(['n', 'claimed']).execute();
    expect(blocks).toEqual([{ n: 120, claimed: 0 }]);
    expect((await store.raw(ids[3]!, t0 / 1000, t0 / 1000 + 10)).map((s) => s.value)).toEqual([
      ids[3]!,
      ids[3]! + 1,
      ids[3]! + 2,
    ]);

    // A roll-up the database refuses: that item's samples are dropped and counted, the rest stored.
    const poisoned = ids[13]!;
    if (dialect === 'sqlite') {
      await sql
        .raw(
          `create trigger poison before insert on samples_1m when new.item_id = ${poisoned} begin select raise(abort, 'poisoned'); end`,
        )
        .execute(t.db.kysely);
    } else {
      await sql
        .raw(
          `create function poison() returns trigger language plpgsql as $$ begin if new.item_id = ${poisoned} then raise exception 'poisoned'; end if; return new; end $$`,
        )
        .execute(t.db.kysely);
      await sql
        .raw('create trigger poison before insert on samples_1m for each row execute function poison()')
        .execute(t.db.kysely);
    }
    const stats = await store.compact();
    expect(stats).toMatchObject({ blocks: 1, samples: 120, chunks: 39 });
    expect(drops).toEqual([{ itemId: poisoned, samples: 3 }]);
    const minutes = await store.rollups(ids, 'minute', t0 / 1000, t0 / 1000 + 60);
    expect(minutes.map((r) => r.item_id)).toEqual(ids.filter((id) => id !== poisoned));
    expect(minutes.every((r) => r.count === 3)).toBe(true);
    expect(await t.db.kysely.selectFrom('sample_blocks').select('seq').execute()).toEqual([]);

    // The collector's item rows go through the same writer while the store runs.
    const live = new Map(ids.map((id) => [id, { value: id + 0.5, state: 1, last_check: 1_700_000_000, info: '' }]));
    const dirty = createChangedIds();
    for (const id of ids) dirty.add(id);
    await createItemRowWriter(t.db, store.writer, live, dirty)();
    const rows = await t.db.kysely.selectFrom('items').select(['id', 'value']).where('id', 'in', ids).execute();
    expect(rows.every((r) => r.value === r.id + 0.5)).toBe(true);

    // Stop writes the last batch and compacts it before the thread closes; then the server's connection writes.
    store.append(ids[0]!, t0 + 10_000, 99);
    await store.stop();
    expect(store.writer().thread).toBe('main');
    expect(await t.db.kysely.selectFrom('sample_blocks').select('seq').execute()).toEqual([]);
    const last = await t.db.kysely
      .selectFrom('sample_chunks')
      .select(['n'])
      .where('item_id', '=', ids[0]!)
      .orderBy('t0')
      .execute();
    expect(last.map((r) => r.n)).toEqual([3, 1]);
  });

  it('a store stopped before its writer thread was online has no thread left when stop answers', async () => {
    // A thread left running opened the database file after the test had closed and removed it,
    // and made it again: the directory could not be removed (docs/series-store-log.md, "A late writer thread").
    const threads = () => (process.report.getReport() as { workers: unknown[] }).workers.length;
    const before = threads();
    const store = createSeriesStore(t.db);
    store.start();
    await store.stop();
    expect(threads()).toBeLessThanOrEqual(before);
    expect(store.writer().thread).toBe('main');
  });

  it('commits a large transaction whole: 100 000 rows in statements of ~100 distinct texts (more than the thread keeps prepared) and a 1.3 MB blob', async () => {
    const writer = await startSqlWriter(t.db);
    try {
      expect(writer.thread).toBe(thread);
      const pg = dialect === 'postgres';
      await sql
        .raw(`create table big (a integer, b double precision, c varchar(20), d ${pg ? 'bytea' : 'blob'})`)
        .execute(t.db.kysely);
      const statements: Array<{ sql: string; params: unknown[] }> = [];
      let a = 0;
      for (let rows = 1000; a < 100_000; rows--) {
        const params: unknown[] = [];
        const tuples: string[] = [];
        for (let r = 0; r < rows && a < 100_000; r++, a++) {
          const p = params.length;
          tuples.push(pg ? `($${p + 1}, $${p + 2}, $${p + 3})` : '(?, ?, ?)');
          params.push(a, a / 2, `v${a}`);
        }
        statements.push({ sql: `insert into big (a, b, c) values ${tuples.join(', ')}`, params });
      }
      const blob = new Uint8Array(1_300_000).map((_, i) => i % 251);
      statements.push({ sql: `insert into big (a, d) values (${pg ? '$1, $2' : '?, ?'})`, params: [-1, blob] });
      const results = await writer.transaction(statements);
      expect(results.reduce((n, r) => n + r.changes, 0)).toBe(100_001);
      const sums = await sql<{
        n: number | string;
        s: number | string;
      }>`select count(*) as n, sum(a) as s from big where a >= 0`.execute(t.db.kysely);
      expect(Number(sums.rows[0]!.n)).toBe(100_000);
      expect(Number(sums.rows[0]!.s)).toBe((99_999 * 100_000) / 2);
      const stored = await sql<{ d: Uint8Array }>`select d from big where a = -1`.execute(t.db.kysely);
      expect(Buffer.from(stored.rows[0]!.d).equals(Buffer.from(blob))).toBe(true);
    } finally {
      await writer.close();
    }
  });
});
