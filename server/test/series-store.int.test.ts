import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSeriesStore, type SeriesStore } from '../src/series/store.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

/** Makes the database refuse every roll-up row of one item, as a corrupt or out-of-range row would. */
const poison = async (t: TestDatabase, itemId: number, table = 'samples_1m') => {
  if (t.dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger poison before insert on ${table} when new.item_id = ${itemId} begin select raise(abort, 'poisoned'); end`,
      )
      .execute(t.db.kysely);
    return;
  }
  await sql
    .raw(
      `create function poison() returns trigger language plpgsql as $$ begin if new.item_id = ${itemId} then raise exception 'poisoned'; end if; return new; end $$`,
    )
    .execute(t.db.kysely);
  await sql
    .raw(`create trigger poison before insert on ${table} for each row execute function poison()`)
    .execute(t.db.kysely);
};

describeEachDatabase('series store: a failing flush', (dialect) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(dialect);
  });
  afterEach(async () => t.destroy());

  it('drops only the samples the database refuses, stores the rest and keeps storing', async () => {
    await poison(t, 13);
    const drops: Array<{ itemId: number; samples: number }> = [];
    const store = createSeriesStore(t.db, { onDropped: ({ itemId, samples }) => drops.push({ itemId, samples }) });
    const t0 = Date.UTC(2026, 0, 1);
    for (let s = 0; s < 3; s++) for (let item = 1; item <= 40; item++) store.append(item, t0 + s * 1000, item + s);
    const first = await store.flush();
    expect(first.samples).toBe(120);
    expect(drops).toEqual([{ itemId: 13, samples: 3 }]);
    expect(store.dropped()).toBe(3);
    expect(store.pending()).toBe(0);
    // Every other item is stored with its roll-ups; the poisoned one has nothing half-written.
    expect(await store.raw(12, t0 / 1000, t0 / 1000 + 10)).toHaveLength(3);
    expect(await store.raw(13, t0 / 1000, t0 / 1000 + 10)).toHaveLength(0);
    const minutes = await store.rollups([12, 13, 14], 'minute', t0 / 1000, t0 / 1000 + 60);
    expect(minutes.map((r) => [r.item_id, r.count])).toEqual([
      [12, 3],
      [14, 3],
    ]);
    // The next flush is not held up by the last one's bad samples.
    store.append(12, t0 + 5000, 1);
    store.append(13, t0 + 5000, 1);
    await store.flush();
    expect(await store.raw(12, t0 / 1000, t0 / 1000 + 10)).toHaveLength(4);
    expect(store.dropped()).toBe(4);
  });

  it('keeps the whole batch for the next flush while the database does not answer', async () => {
    const store = createSeriesStore(t.db);
    const t0 = Date.UTC(2026, 0, 1);
    for (let item = 1; item <= 10; item++) store.append(item, t0, item);
    const ping = t.db.ping;
    const down = new Error('database down');
    // A database that refuses everything, the health check included.
    await sql.raw('alter table sample_chunks rename to gone').execute(t.db.kysely);
    await sql.raw('alter table sample_blocks rename to gone_blocks').execute(t.db.kysely);
    t.db.ping = async () => {
      throw down;
    };
    await expect(store.flush()).rejects.toBe(down);
    expect(store.pending()).toBe(10);
    expect(store.dropped()).toBe(0);
    t.db.ping = ping;
    await sql.raw('alter table gone rename to sample_chunks').execute(t.db.kysely);
    await sql.raw('alter table gone_blocks rename to sample_blocks').execute(t.db.kysely);
    await store.flush();
    expect(store.pending()).toBe(0);
    expect(await store.raw(7, t0 / 1000, t0 / 1000)).toEqual([{ tsMs: t0, value: 7 }]);
  });
});

/** Every sample the store holds for `items`, per item: raw samples and minute and hour roll-ups. */
const snapshot = async (store: SeriesStore, items: number[], t1: number, t2: number) => ({
  raw: await Promise.all(items.map((item) => store.raw(item, t1, t2))),
  minutes: (await store.rollups(items, 'minute', t1, t2)).map((r) => ({ ...r, ts: Number(r.ts) })),
  hours: (await store.rollups(items, 'hour', t1, t2)).map((r) => ({ ...r, ts: Number(r.ts) })),
});

const counts = async (t: TestDatabase) => {
  const k = t.db.kysely;
  const blocks = await k
    .selectFrom('sample_blocks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const chunks = await k
    .selectFrom('sample_chunks')
    .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.sum<number>('n').as('samples')])
    .executeTakeFirstOrThrow();
  const progress = await k.selectFrom('series_compaction').select('next_item').executeTakeFirstOrThrow();
  return {
    blocks: Number(blocks.n),
    chunks: Number(chunks.rows),
    samples: Number(chunks.samples ?? 0),
    nextItem: progress.next_item === null ? null : Number(progress.next_item),
  };
};

describeEachDatabase('series store: flush blocks and compaction', (dialect) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(dialect);
  });
  afterEach(async () => t.destroy());

  // Three flushes of 40 items over two minutes and an hour boundary, with one sample out of order.
  const t0 = Date.UTC(2026, 0, 1, 10, 59, 30);
  const feed = (store: SeriesStore, offset = 0) => {
    for (let s = 0; s < 3; s++) {
      for (let item = 1; item <= 40; item++) store.append(item + offset, t0 + s * 20_000 + item, item * 10 + s);
    }
  };
  const from = t0 / 1000 - 3600;
  const to = t0 / 1000 + 3600;
  const items = Array.from({ length: 40 }, (_, i) => i + 1);

  it('reads samples still in blocks, and compaction stores what a direct write did', async () => {
    // A started store's flush only appends blocks; compaction waits for its timer (an hour here).
    const store = createSeriesStore(t.db, { flushEveryMs: 3_600_000, compactEveryMs: 3_600_000, itemsPerSlice: 7 });
    store.start();
    for (let s = 0; s < 3; s++) {
      for (let item = 1; item <= 40; item++) store.append(item, t0 + s * 20_000 + item, item * 10 + s);
      await store.flush();
    }
    store.append(5, t0 + 1, -1); // later than its flush, earlier in time than the others of item 5
    await store.flush();
    expect(await counts(t)).toMatchObject({ blocks: 4, chunks: 0 });
    const open = await snapshot(store, items, from, to);
    expect(open.raw[4]!.map((s) => s.value)).toEqual([-1, 50, 51, 52]);
    expect(open.minutes.filter((r) => r.item_id === 5)).toEqual([
      { item_id: 5, ts: t0 / 1000 - 30, min: -1, max: 51, sum: 100, count: 3 },
      { item_id: 5, ts: t0 / 1000 + 30, min: 52, max: 52, sum: 52, count: 1 },
    ]);
    const read = await store.read(5, from, to, 100);
    expect(read.resolution).toBe('minute');

    // The same samples written by a store that compacts at every flush (the direct path).
    const direct = createSeriesStore(t.db);
    feed(direct, 100);
    direct.append(105, t0 + 1, -1);
    await direct.flush();
    // It compacted its own block only: the started store's stay for its own compaction.
    expect(await counts(t)).toMatchObject({ blocks: 4, chunks: 40, nextItem: null });

    const stats = await store.compact();
    expect(stats).toMatchObject({ blocks: 4, samples: 121, chunks: 40 });
    expect(await counts(t)).toEqual({ blocks: 0, chunks: 80, samples: 242, nextItem: null });
    // Compacted, the reads are what they were over the blocks, and what the direct write stored.
    const compacted = await snapshot(store, items, from, to);
    expect(compacted).toEqual(open);
    const shifted = await snapshot(
      direct,
      items.map((i) => i + 100),
      from,
      to,
    );
    const unshift = (rows: Array<{ item_id: number }>) => rows.map((r) => ({ ...r, item_id: r.item_id - 100 }));
    expect({ ...shifted, minutes: unshift(shifted.minutes), hours: unshift(shifted.hours) }).toEqual(compacted);
    expect(await store.read(5, from, to, 100)).toEqual(read);
    await store.stop();
  });

  it('claims nothing when there is nothing to compact, and two stores compacting at once store each sample once', async () => {
    const a = createSeriesStore(t.db, { flushEveryMs: 3_600_000, compactEveryMs: 3_600_000, itemsPerSlice: 3 });
    const b = createSeriesStore(t.db, { flushEveryMs: 3_600_000, compactEveryMs: 3_600_000, itemsPerSlice: 3 });
    a.start();
    b.start();
    expect(await a.compact()).toBeNull();
    expect(await counts(t)).toEqual({ blocks: 0, chunks: 0, samples: 0, nextItem: null });

    feed(a);
    await a.flush();
    feed(b, 100);
    await b.flush();
    // One claims both stores' blocks; the other finds its run in progress and joins or loses the race.
    await Promise.all([a.compact(), b.compact()]);
    await a.compact();
    expect(await counts(t)).toEqual({ blocks: 0, chunks: 80, samples: 240, nextItem: null });
    const hours = await a.rollups([...items, ...items.map((i) => i + 100)], 'hour', from, to);
    expect(hours.reduce((n, r) => n + r.count, 0)).toBe(240);
    await a.stop();
    await b.stop();
  });

  it('keeps samples with times between whole milliseconds (the block and chunk bounds are integers)', async () => {
    const store = createSeriesStore(t.db);
    store.append(1, t0 + 0.25, 1);
    store.append(1, t0 + 999.75, 2);
    await store.flush();
    expect(await store.raw(1, t0 / 1000, t0 / 1000 + 1)).toEqual([
      { tsMs: t0 + 0.25, value: 1 },
      { tsMs: t0 + 999.75, value: 2 },
    ]);
  });

  it('repeats a slice a crash interrupted and counts nothing twice', async () => {
    const store = createSeriesStore(t.db, { flushEveryMs: 3_600_000, compactEveryMs: 3_600_000, itemsPerSlice: 5 });
    store.start();
    feed(store);
    await store.flush();
    // Item 23's hour roll-up fails and the database stops answering: the run dies mid-way, as in a crash.
    await poison(t, 23, 'samples_1h');
    const ping = t.db.ping;
    const down = new Error('database down');
    t.db.ping = async () => {
      throw down;
    };
    await expect(store.compact()).rejects.toBe(down);
    const crashed = await counts(t);
    expect(crashed.blocks).toBe(1);
    // Slices before item 23 are stored with their progress; nothing of 23's slice after it is.
    expect(crashed.nextItem).toBeGreaterThan(1);
    expect(crashed.nextItem).toBeLessThanOrEqual(23);
    expect(crashed.samples).toBe((crashed.nextItem! - 1) * 3);
    // Reads in between count each sample once: the stored slices from the tables, the rest from the blocks.
    const between = await store.rollups(items, 'hour', from, to);
    expect(between.reduce((n, r) => n + r.count, 0)).toBe(120);

    // A restart: a new store on the same database resumes the run where it stopped.
    t.db.ping = ping;
    await sql.raw('drop trigger poison' + (t.dialect === 'postgres' ? ' on samples_1h' : '')).execute(t.db.kysely);
    const restarted = createSeriesStore(t.db);
    const resumed = await restarted.compact();
    expect(resumed?.samples).toBe(120 - (crashed.nextItem! - 1) * 3);
    expect(await counts(t)).toEqual({ blocks: 0, chunks: 40, samples: 120, nextItem: null });
    const hours = await restarted.rollups(items, 'hour', from, to);
    const minutes = await restarted.rollups(items, 'minute', from, to);
    for (const item of items) {
      expect(hours.filter((r) => r.item_id === item).reduce((n, r) => n + r.count, 0)).toBe(3);
      expect(minutes.filter((r) => r.item_id === item).map((r) => r.count)).toEqual([2, 1]);
      expect((await restarted.raw(item, from, to)).map((s) => s.value)).toEqual([
        item * 10,
        item * 10 + 1,
        item * 10 + 2,
      ]);
    }
    expect(restarted.dropped()).toBe(0);
    await store.stop();
  });
});
