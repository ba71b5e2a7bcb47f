import { deviceOptions, serialSettings } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../src/bus/bus.ts';
import { createCollector } from '../src/collector/collector.ts';
import type { Driver } from '../src/collector/driver.ts';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { sleep } from './conformance/peers.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

/**
 * The collector's device loops in their worker thread (docs/series-store.md, "Both cores"): values
 * polled there are checked, published and kept on the main thread as in-process; writes and
 * reloads go to it; drivers it cannot rebuild (a test's fake) poll in-process.
 */
describeEachDatabase('collector worker', (dialect) => {
  let database: TestDatabase;
  const ids = { device: 0, items: [] as number[] };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const k = database.db.kysely;
    const now = Math.floor(Date.now() / 1000);
    const { id: site } = await k
      .insertInto('device_groups')
      .values({
        name: 'w',
        parent_id: 0,
        weight: 1,
        has_device: 1,
        background: '',
        scene: '',
        extend: '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const device = await k
      .insertInto('devices')
      .values({
        name: 'sim',
        device_group_id: site,
        driver: 'simulator',
        code: 'other',
        template_id: null,
        ip: '',
        port: null,
        protocol_id: 1,
        classification_id: 0,
        device_count: 1,
        serial: JSON.stringify(serialSettings.parse({})),
        zigbee_enable: 0,
        zigbee_address: '',
        protocol_version: '',
        options: JSON.stringify(deviceOptions.parse({})),
        check_interval: 1,
        enable: 1,
        state: 0,
        state_reason: '',
        state_time: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.device = device.id;
    const source = { kind: 'simulator', model: 'analog', base: 20, spread: 1, noise: 0.1, period_s: 600 };
    const rows = [0, 1, 2].map((i) => ({
      device_id: device.id,
      name: `i${i}`,
      item_cell_name: '',
      unit: '',
      location_id: 0,
      value_type: 1,
      threshold_min: -1000,
      threshold_max: 1000,
      status_threshold: '',
      recovery_point: 0,
      overrun_point: 0,
      alarm_level: 1,
      alarm_color: '',
      contact_group_id: 0,
      working_period_id: 0,
      overrun_action_id: 0,
      recovery_action_id: 0,
      check_interval: 1,
      repetitions: 1,
      notification_interval: 300,
      check_period_id: 0,
      notification_period_id: 0,
      alarm_period_id: 0,
      source: JSON.stringify({ ...source, fault_rate: 0, decimals: 2 }),
      enable: 1,
      state: 0,
      value: null,
      last_check: 0,
      info: '',
    }));
    ids.items = (await k.insertInto('items').values(rows).returning('id').execute()).map((r) => r.id);
  });
  afterAll(() => database?.destroy());

  /**
   * Resolves once `what()` holds, looked at after each answer published on the bus. The worker's
   * loops keep real timers (it runs drivers on its own thread), so answers come in real time.
   */
  const until = (bus: EventBus, what: () => boolean) =>
    new Promise<void>((resolve) => {
      if (what()) return resolve();
      const stop = bus.subscribe('samples', () => {
        if (!what()) return;
        stop();
        resolve();
      });
    });

  const run = async (drivers: Parameters<typeof createCollector>[0]['drivers'], thread?: 'main') => {
    const bus = createEventBus();
    const samples: Array<{ item_id: number; value: number | null }> = [];
    bus.subscribe('sample', (e) => samples.push(e));
    const started: Array<Record<string, unknown>> = [];
    const collector = createCollector({
      db: database.db,
      bus,
      drivers,
      ...(thread ? { thread } : {}),
      log: {
        warn: () => undefined,
        info: (obj, msg) => {
          if (msg === 'collector started') started.push(obj as Record<string, unknown>);
        },
      },
    });
    await collector.start();
    return { bus, samples, started, collector };
  };

  it('polls in the worker: values, device state, a write, a reload and stop as in-process', async () => {
    const { bus, samples, started, collector } = await run({ simulator: createSimulatorDriver() });
    try {
      expect(started).toEqual([{ devices: 1, items: 3, thread: 'worker' }]);
      await until(bus, () => ids.items.every((id) => typeof collector.liveItem(id)?.value === 'number'));
      expect(collector.liveDevice(ids.device)?.state).toBe(1);
      expect(samples.every((s) => ids.items.includes(s.item_id) && typeof s.value === 'number')).toBe(true);

      // A setpoint goes through the worker's session: the simulator answers it from then on.
      await collector.write(ids.items[1]!, 42.5);
      await until(bus, () => collector.liveItem(ids.items[1]!)?.value === 42.5);
      await expect(collector.write(999_999, 1)).rejects.toThrow('item is not being collected');

      // A reload re-installs the device; polling goes on with the fresh install.
      bus.publish('config.changed', { area: 'devices', ids: [ids.device] });
      const before = samples.length;
      await until(bus, () => samples.length >= before + 6);
    } finally {
      await collector.stop();
    }
    const after = samples.length;
    // Real time, for a thing that must not happen: a stopped collector's worker sends nothing for
    // longer than a poll interval (1 s) on its real timers.
    await sleep(1500);
    expect(samples.length).toBe(after);
  });

  it('polls in-process when a driver cannot be rebuilt in the worker, or when told to', async () => {
    const sim = createSimulatorDriver();
    // A wrapper of the test's own: the worker cannot make it.
    const wrapped: Driver = { name: 'simulator', sourceKind: 'simulator', connect: (d, s) => sim.connect(d, s) };
    for (const [drivers, thread] of [
      [{ simulator: wrapped }, undefined],
      [{ simulator: createSimulatorDriver() }, 'main'],
    ] as const) {
      const { bus, started, collector } = await run(drivers, thread);
      try {
        expect(started).toEqual([{ devices: 1, items: 3, thread: 'main' }]);
        await until(bus, () => typeof collector.liveItem(ids.items[0]!)?.value === 'number');
      } finally {
        await collector.stop();
      }
    }
  });
});
