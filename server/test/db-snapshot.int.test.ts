import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';
import { countWrites, snapshotDigest } from './helpers/db-snapshot.ts';

/** The matrices' change detectors see every kind of write, and a rolled-back one as none. */
describeEachDatabase('change detectors of the test helpers', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  it('count inserts, updates and deletes of any table; a digest sees the change of a row', async () => {
    const k = database.db.kysely;
    const written = await countWrites(database.db);
    const row = { name: 'test-k', value: '1' };
    const steps = [
      () => sql`insert into module_settings (k, v, updated_at) values (${row.name}, ${row.value}, 1)`.execute(k),
      () => sql`update module_settings set v = '2' where k = ${row.name}`.execute(k),
      () => sql`update module_settings set v = '2' where k = ${row.name}`.execute(k),
      () => sql`delete from module_settings where k = ${row.name}`.execute(k),
    ];
    for (const step of steps) {
      const [count, digest] = [await written(), await snapshotDigest(database.db)];
      await step();
      expect(await written()).toBeGreaterThan(count);
      // Writing a row back as it was changes no digest; every other step does.
      if (step !== steps[2]) expect(await snapshotDigest(database.db)).not.toBe(digest);
    }
    const count = await written();
    await k
      .transaction()
      .execute(async (trx) => {
        await sql`insert into module_settings (k, v, updated_at) values ('gone', '1', 1)`.execute(trx);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await written()).toBe(count);
  });
});
