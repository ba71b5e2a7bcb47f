import { monitorState } from '@sitewatch/contract/monitoring';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { seedEstate } from '../../bench/estate.ts';
import { createEventBus } from '../src/bus/bus.ts';
import { createCollector } from '../src/collector/collector.ts';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

/**
 * A device whose items are added one request after another is reloaded once per item, and the
 * reloads overlap (network.spec adds a port's 12 items so). Whatever their order, the device ends
 * up polled with every item it has.
 */
describeEachDatabase('collector reloads', (dialect) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(dialect);
  });
  afterEach(async () => t.destroy());

  it('a burst of reloads of one device, each after an item was added, installs every item', async () => {
    const { devices } = await seedEstate(t.db, { items: 1, perDevice: 1, deviceCheckInterval: 3600 });
    const device = devices[0]!;
    const collector = createCollector({
      db: t.db,
      bus: createEventBus(),
      drivers: { simulator: createSimulatorDriver({ commFaultRate: 0 }) },
    });
    await collector.start();
    try {
      const first = await t.db.kysely
        .selectFrom('items')
        .selectAll()
        .where('id', '=', device.items[0]!)
        .executeTakeFirstOrThrow();
      const added: number[] = [];
      const reloads: Promise<void>[] = [];
      for (let n = 0; n < 12; n++) {
        const { id: _id, ...row } = first;
        const { id } = await t.db.kysely
          .insertInto('items')
          .values({ ...row, name: `added-${n}` })
          .returning('id')
          .executeTakeFirstOrThrow();
        added.push(id);
        reloads.push(collector.reload(device.id));
      }
      await Promise.all(reloads);
      expect(added.filter((id) => collector.deviceOfItem(id) !== device.id)).toEqual([]);
    } finally {
      await collector.stop();
    }
  });

  it('tells the items whose live state is not in their row until it is written, and forgets removed ones', async () => {
    const { devices } = await seedEstate(t.db, { items: 3, perDevice: 3, deviceCheckInterval: 3600 });
    const device = devices[0]!;
    const bus = createEventBus();
    const collector = createCollector({ db: t.db, bus, drivers: { simulator: createSimulatorDriver() } });
    await collector.start();
    try {
      const [a, b, c] = device.items as [number, number, number];
      collector.accept(
        device.id,
        {
          values: new Map([
            [a, 1],
            [b, 2],
            [c, 3],
          ]),
          errors: new Map(),
        },
        1_000,
      );
      // Checked, and not yet judged: not ready, which no row says yet.
      const unsaved = () => new Map(collector.unsavedStates());
      expect(unsaved()).toEqual(
        new Map([
          [a, monitorState.notReady],
          [b, monitorState.notReady],
          [c, monitorState.notReady],
        ]),
      );
      await collector.persist();
      expect(unsaved().size).toBe(0);
      // The engine judges one: unsaved until the row writer writes it.
      bus.publish('item.state', {
        item_id: b,
        device_id: device.id,
        state: monitorState.abnormal,
        info: '',
        alarm: true,
        ts_ms: 2_000,
      } as never);
      expect(unsaved()).toEqual(new Map([[b, monitorState.abnormal]]));
      // Deleted before its row was written: no longer counted in its live state.
      await t.db.kysely.deleteFrom('items').where('id', '=', b).execute();
      await collector.reload(device.id);
      expect(unsaved().size).toBe(0);
      bus.publish('item.state', {
        item_id: a,
        device_id: device.id,
        state: monitorState.abnormal,
        info: '',
        alarm: true,
        ts_ms: 3_000,
      } as never);
      await collector.persist();
      expect(unsaved().size).toBe(0);
      const row = await t.db.kysely.selectFrom('items').select('state').where('id', '=', a).executeTakeFirstOrThrow();
      expect(row.state).toBe(monitorState.abnormal);
    } finally {
      await collector.stop();
    }
  });
});
