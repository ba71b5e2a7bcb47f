import { monitorState } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { abnormalStates } from '../src/modules/monitoring/context.ts';
import { seedDemo } from '../src/modules/monitoring/demo.ts';
import { createMonitoringRepository } from '../src/modules/monitoring/repository.ts';
import { createMonitoringService } from '../src/modules/monitoring/service.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

// overview/statistics counts live item states: the rows counted by state, corrected by the items
// whose live state the collector has not written yet (or, while there are many, every row read).
describeEachDatabase('dashboard statistics from counted rows and unsaved live states', (dialect) => {
  let database: TestDatabase;
  let rows: Array<{ id: number; state: number; site: number }>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    rows = await database.db.kysely
      .selectFrom('items')
      .innerJoin('devices', 'devices.id', 'items.device_id')
      .select(['items.id', 'items.state', 'devices.device_group_id as site'])
      .execute();
  });
  afterAll(() => database.destroy());

  const statisticsWith = (live: Map<number, number>, unsaved: Array<[number, number]>) =>
    createMonitoringService({
      repo: createMonitoringRepository(database.db),
      live: {
        liveItem: (id) => {
          const state = live.get(id);
          return state === undefined ? undefined : { value: null, state, last_check: 0, info: '' };
        },
        liveDevice: () => undefined,
        write: async () => undefined,
        unsavedStates: () => unsaved,
      },
    }).statistics;
  const expected = (live: Map<number, number>, sites: number[] | null) => {
    const mine = rows.filter((r) => !sites || sites.includes(r.site)).map((r) => live.get(r.id) ?? r.state);
    return {
      items: mine.length,
      item_normal: mine.filter((s) => s === monitorState.normal).length,
      item_abnormal: mine.filter((s) => abnormalStates.has(s)).length,
    };
  };

  it('equal the rows with the live states, for every site and all, by the counted rows and by every row', async () => {
    const sites = [...new Set(rows.map((r) => r.site))];
    expect(sites.length).toBeGreaterThan(1);
    const [a, b, c] = rows.filter((r) => r.site === sites[0]);
    const [d] = rows.filter((r) => r.site === sites[1]);
    // Items whose engine state is not in their row yet, one whose live state is its row's, one deleted.
    const live = new Map([
      [a!.id, monitorState.abnormal],
      [b!.id, monitorState.unknown],
      [c!.id, c!.state],
      [d!.id, monitorState.notReady],
    ]);
    const unsaved: Array<[number, number]> = [...live, [999_999, monitorState.abnormal]];
    // Past 2 000 unsaved items (the collector's first seconds), every row is read instead.
    const many: Array<[number, number]> = [
      ...unsaved,
      ...Array.from({ length: 2000 }, (_, i): [number, number] => [1_000_000 + i, 2]),
    ];
    for (const list of [unsaved, many]) {
      const statistics = statisticsWith(live, list);
      for (const allowed of [null, [sites[0]!], [sites[1]!], []]) {
        expect(await statistics(allowed), `${list.length} unsaved, sites ${allowed}`).toMatchObject(
          expected(live, allowed),
        );
      }
    }
    expect(expected(live, null)).not.toEqual(expected(new Map(), null));
  });
});
