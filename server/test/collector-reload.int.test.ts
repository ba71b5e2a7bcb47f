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
});
