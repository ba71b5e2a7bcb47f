import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSeriesStore } from '../src/series/store.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

/** Makes the database refuse every roll-up row of one item, as a corrupt or out-of-range row would. */
const poison = async (t: TestDatabase, itemId: number) => {
  if (t.dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger poison before insert on samples_1m when new.item_id = ${itemId} begin select raise(abort, 'poisoned'); end`,
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
    .raw('create trigger poison before insert on samples_1m for each row execute function poison()')
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
    t.db.ping = async () => {
      throw down;
    };
    await expect(store.flush()).rejects.toBe(down);
    expect(store.pending()).toBe(10);
    expect(store.dropped()).toBe(0);
    t.db.ping = ping;
    await sql.raw('alter table gone rename to sample_chunks').execute(t.db.kysely);
    await store.flush();
    expect(store.pending()).toBe(0);
    expect(await store.raw(7, t0 / 1000, t0 / 1000)).toEqual([{ tsMs: t0, value: 7 }]);
  });
});
