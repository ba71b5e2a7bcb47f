import { afterEach, beforeEach, expect, it } from 'vitest';
import { seedEstate } from '../../bench/estate.ts';
import { createChangedIds } from '../src/changed-ids.ts';
import { createItemRowWriter } from '../src/collector/item-rows.ts';
import { inProcessWriter } from '../src/series/writer.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

interface LiveRow {
  value: number | null;
  state: number;
  last_check: number;
  info: string;
}

describeEachDatabase('item rows: the collector writes live values and states', (dialect) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(dialect);
  });
  afterEach(async () => t.destroy());

  const rowsOf = async (ids: number[]) =>
    t.db.kysely
      .selectFrom('items')
      .select(['id', 'value', 'state', 'last_check', 'info'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();

  it('writes every changed item in statements of a few row counts, and only the changed ones', async () => {
    // 623 items: one statement of 500 and a rest of 123 (100 + 20 + 3 × 1) in one write.
    const { devices } = await seedEstate(t.db, { items: 623, perDevice: 100 });
    const ids = devices.flatMap((d) => d.items);
    const live = new Map<number, LiveRow>();
    const dirty = createChangedIds();
    for (const [i, id] of ids.entries()) {
      live.set(id, {
        value: i % 7 === 0 ? null : i + 0.25,
        state: i % 4,
        last_check: 1_700_000_000 + i,
        info: i % 7 === 0 ? `no value ${i}` : '',
      });
      dirty.add(id);
    }
    // An id the collector no longer knows is skipped.
    dirty.add(999_999);
    const write = createItemRowWriter(t.db, () => inProcessWriter(t.db), live, dirty);
    await write();
    expect(dirty.size).toBe(0);
    const rows = await rowsOf(ids);
    expect(rows).toHaveLength(623);
    for (const r of rows) {
      const want = live.get(r.id)!;
      expect({ value: r.value, state: r.state, last_check: Number(r.last_check), info: r.info }).toEqual(want);
    }

    // A second write takes only what changed since.
    const [first, second] = ids;
    live.set(first!, { value: 42.5, state: 2, last_check: 1_800_000_000, info: '' });
    const untouched = live.get(second!)!;
    live.set(second!, { value: -1, state: 3, last_check: 1_800_000_001, info: 'not written' });
    dirty.add(first!);
    await write();
    const [a, b] = await rowsOf([first!, second!]);
    expect(a).toMatchObject({ value: 42.5, state: 2, info: '' });
    expect(Number(a!.last_check)).toBe(1_800_000_000);
    expect(b).toMatchObject({ value: untouched.value, state: untouched.state, info: untouched.info });
  });
});
