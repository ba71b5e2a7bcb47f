import { deviceOptions, type ItemSource, serialSettings } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../src/bus/bus.ts';
import { createManualClock } from '../src/clock/manual.ts';
import { createPending, trackedTimers } from '../src/clock/timers.ts';
import { createCollector } from '../src/collector/collector.ts';
import type { DriverDevice, DriverItem } from '../src/collector/driver.ts';
import { encodeRegisters } from '../src/collector/drivers/modbus-common.ts';
import { modbusRtuDriver } from '../src/collector/drivers/modbus-rtu.ts';
import { modbusTcpDriver } from '../src/collector/drivers/modbus-tcp.ts';
import { mqttDriver } from '../src/collector/drivers/mqtt.ts';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { snmpDriver } from '../src/collector/drivers/snmp.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { describeDriverConformance } from './conformance/driver.suite.ts';
import {
  modbusPeer,
  modbusRtuPeer,
  mqttPeer,
  sleep,
  snmpdAvailable,
  snmpdPeer,
  socatAvailable,
} from './conformance/peers.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';

const device = (over: Partial<DriverDevice>): DriverDevice => ({
  id: 1,
  name: 'd',
  ip: '127.0.0.1',
  port: null,
  protocol_id: 1,
  protocol_version: '',
  serial: serialSettings.parse({}),
  options: deviceOptions.parse({ timeout_ms: 800 }),
  ...over,
});
const item = (id: number, source: ItemSource, value_type: 0 | 1 = 1): DriverItem => ({ id, value_type, source });
const modbus = (fn: 1 | 2 | 3 | 4, register: number, data_type: string, scale = 1, byte_order = 'ABCD') =>
  ({ kind: 'modbus', function: fn, register, data_type, byte_order, bit: null, scale }) as ItemSource;

// ---------- simulator ----------
describeDriverConformance('simulator', {
  driver: () => createSimulatorDriver(),
  device: () => device({}),
  items: () => [
    {
      item: item(1, {
        kind: 'simulator',
        model: 'analog',
        base: 23.5,
        spread: 0,
        noise: 0,
        period_s: 86400,
        fault_rate: 0,
        decimals: 1,
      }),
      expected: 23.5,
    },
    {
      item: item(
        2,
        { kind: 'simulator', model: 'status', base: 1, spread: 0, noise: 0, period_s: 600, fault_rate: 0, decimals: 0 },
        0,
      ),
      expected: 1,
    },
  ],
  writable: () => ({
    item: item(3, {
      kind: 'simulator',
      model: 'analog',
      base: 24,
      spread: 0,
      noise: 0,
      period_s: 86400,
      fault_rate: 0,
      decimals: 0,
    }),
    value: 26,
  }),
});

// ---------- Modbus TCP against modbus-serial's ServerTCP ----------
const mb = await modbusPeer();
const setRegs = (regs: number[], at: number, values: number[]) => {
  for (const [i, v] of values.entries()) regs[at + i] = v;
};
const fillModbus = () => {
  setRegs(mb.holding, 0, encodeRegisters(-123, { data_type: 'int16' })); // × 0.1 → -12.3
  setRegs(mb.holding, 1, encodeRegisters(655, { data_type: 'uint16' })); // × 0.1 → 65.5
  setRegs(mb.holding, 2, encodeRegisters(-70000, { data_type: 'int32' }));
  setRegs(mb.holding, 4, encodeRegisters(3_000_000_000, { data_type: 'uint32' })); // × 0.01
  setRegs(mb.input, 0, encodeRegisters(229.5, { data_type: 'float32' }));
  setRegs(mb.input, 2, encodeRegisters(12.25, { data_type: 'float32', byte_order: 'CDAB' }));
  setRegs(mb.input, 10, encodeRegisters(-5, { data_type: 'int32', byte_order: 'CDAB' }));
  setRegs(mb.input, 12, encodeRegisters(-1_234_567_890_123, { data_type: 'int64', byte_order: 'BADC' }));
  setRegs(mb.input, 16, encodeRegisters(230.100006, { data_type: 'float64', byte_order: 'DCBA' }));
  mb.holding[30] = 0b0100; // a status word: bit 2 set
  mb.coils[3] = true;
};
describe('modbus peer', () => {
  beforeAll(async () => {
    fillModbus();
    await mb.start();
  });
  afterAll(() => mb.stop());
  describeDriverConformance('modbus-tcp', {
    driver: () => modbusTcpDriver,
    device: () => device({ port: mb.port }),
    items: () => [
      { item: item(1, modbus(3, 0, 'int16', 0.1)), expected: -12.3 },
      { item: item(2, modbus(3, 1, 'uint16', 0.1)), expected: 65.5 },
      { item: item(3, modbus(3, 2, 'int32')), expected: -70000 },
      { item: item(4, modbus(3, 4, 'uint32', 0.01)), expected: 30_000_000 },
      { item: item(5, modbus(4, 0, 'float32')), expected: 229.5 },
      { item: item(6, modbus(4, 2, 'float32', 1, 'CDAB')), expected: 12.25 },
      { item: item(7, modbus(4, 10, 'int32', 1, 'CDAB')), expected: -5 },
      { item: item(8, modbus(1, 3, 'bit'), 0), expected: 1 },
      { item: item(11, modbus(4, 12, 'int64', 1, 'BADC')), expected: -1_234_567_890_123 },
      { item: item(12, modbus(4, 16, 'float64', 1, 'DCBA')), expected: 230.100006 },
      { item: item(13, { ...modbus(3, 30, 'bit'), bit: 2 } as ItemSource, 0), expected: 1 },
      { item: item(14, { ...modbus(3, 30, 'bit'), bit: 1 } as ItemSource, 0), expected: 0 },
    ],
    missing: () => item(9, modbus(3, 150, 'int16')),
    writable: () => ({ item: item(10, modbus(3, 20, 'int16', 0.1)), value: 24.5 }),
    stopPeer: () => mb.stop(),
    startPeer: () => mb.start(),
  });
});

// ---------- Modbus RTU on a serial line (socat pseudo-terminal pair, modbus-serial ServerSerial) ----------
describe.runIf(socatAvailable)('modbus rtu peer', async () => {
  const rtu = await modbusRtuPeer();
  beforeAll(async () => {
    setRegs(rtu.holding, 0, encodeRegisters(235, { data_type: 'int16' }));
    setRegs(rtu.holding, 1, encodeRegisters(480, { data_type: 'uint16' }));
    setRegs(rtu.holding, 2, encodeRegisters(1.5, { data_type: 'float32' }));
    await rtu.start();
  });
  afterAll(() => rtu.stop());
  describeDriverConformance('modbus-rtu', {
    driver: () => modbusRtuDriver,
    device: () => device({ ip: '', serial: serialSettings.parse({ name: rtu.path, baud_rate: 9600 }) }),
    items: () => [
      { item: item(1, modbus(3, 0, 'int16', 0.1)), expected: 23.5 },
      { item: item(2, modbus(3, 1, 'uint16', 0.1)), expected: 48 },
      { item: item(3, modbus(3, 2, 'float32')), expected: 1.5 },
    ],
    writable: () => ({ item: item(4, modbus(3, 10, 'int16')), value: -7 }),
    stopPeer: () => rtu.stop(),
    startPeer: () => rtu.start(),
  });
});

// ---------- SNMP against Debian's snmpd (v2c and a v3 user) ----------
describe.runIf(snmpdAvailable)('snmpd peer', async () => {
  const agent = await snmpdPeer();
  beforeAll(() => agent.start());
  afterAll(() => agent.stop());
  const snmpItems = () => [
    // sysUpTime (hundredths of a second → seconds) and the 1-minute load average (text) and ×100 integer.
    { item: item(1, { kind: 'snmp', oid: '1.3.6.1.2.1.1.3.0', scale: 0.01 }), expected: 0, tolerance: 1e9 },
    { item: item(2, { kind: 'snmp', oid: '1.3.6.1.4.1.2021.10.1.3.1', scale: 1 }), expected: 0, tolerance: 1000 },
    { item: item(3, { kind: 'snmp', oid: '.1.3.6.1.4.1.2021.10.1.5.1', scale: 0.01 }), expected: 0, tolerance: 1000 },
  ];
  for (const version of ['v2c', 'v1', 'v3'] as const) {
    describeDriverConformance(`snmp ${version}`, {
      driver: () => snmpDriver,
      device: () =>
        device({
          port: agent.port,
          protocol_version: version,
          options: deviceOptions.parse({
            timeout_ms: 800,
            community: 'public',
            v3_user: agent.v3.user,
            v3_auth_protocol: 'sha',
            v3_auth_key: agent.v3.auth,
            v3_priv_protocol: 'aes',
            v3_priv_key: agent.v3.priv,
          }),
        }),
      items: snmpItems,
      missing: () => item(9, { kind: 'snmp', oid: '1.3.6.1.4.1.99999.1.0', scale: 1 }),
      ...(version === 'v2c' ? { stopPeer: () => agent.stop(), startPeer: () => agent.start() } : {}),
    });
  }
  it('reads real values: uptime grows and the load average matches the integer form', async () => {
    const session = await snmpDriver.connect(device({ port: agent.port, protocol_version: 'v2c' }));
    const items = snmpItems().map((c) => c.item);
    const a = await session.read(items);
    // Real time: sysUpTime is the agent's own clock, which only the system's time moves.
    await sleep(1100);
    const b = await session.read(items);
    await session.close();
    expect(b.values.get(1)!).toBeGreaterThan(a.values.get(1)!);
    expect(Math.abs(a.values.get(2)! - a.values.get(3)!)).toBeLessThan(0.02);
  });
});

// ---------- MQTT against an aedes broker ----------
describe('mqtt peer', async () => {
  const broker = await mqttPeer();
  const prime = async () => {
    await broker.publish(
      'sitewatch/1/state',
      JSON.stringify({ temperature: 22.5, env: { humidity: '48.2' }, door: true }),
    );
  };
  beforeAll(() => broker.start());
  afterAll(() => broker.stop());
  const mq = (id: number, json_path: string, command_topic = '') =>
    item(id, { kind: 'mqtt', topic: 'sitewatch/{device_id}/state', json_path, scale: 1, command_topic });
  describeDriverConformance('mqtt', {
    driver: () => mqttDriver,
    device: () => device({ port: broker.port }),
    prime,
    items: () => [
      { item: mq(1, 'temperature'), expected: 22.5 },
      { item: mq(2, 'env.humidity'), expected: 48.2 },
      { item: mq(3, 'door'), expected: 1 },
    ],
    missing: () => mq(9, 'nothing.here'),
    stopPeer: () => broker.stop(),
    startPeer: () => broker.start(),
  });
  it('reads values as they arrive (first poll subscribes)', async () => {
    const session = await mqttDriver.connect(device({ id: 2, port: broker.port }));
    await broker.publish('sitewatch/2/state', '{"temperature": 30}');
    await session.read([mq(1, 'temperature')]);
    // Real time: a polled session keeps the broker's last message with no event of its own; the
    // broker hands it over on its loopback socket, well within 200 ms.
    await sleep(200);
    await broker.publish('sitewatch/2/state', '{"temperature": 31}');
    await sleep(200);
    expect((await session.read([mq(1, 'temperature')])).values.get(1)).toBe(31);
    await session.close();
  });
});

// ---------- the collector: a dead peer turns its device unknown and stalls nothing ----------
describe('collector with real peers', async () => {
  let database: TestDatabase;
  const peer = await modbusPeer();
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    fillModbus();
    for (const [i, v] of mb.holding.entries()) peer.holding[i] = v;
    await peer.start();
  });
  afterAll(async () => {
    await peer.stop();
    await database.destroy();
  });

  it('marks a killed Modbus device unknown within 2 intervals, keeps polling the others, and recovers', async () => {
    const k = database.db.kysely;
    const now = Math.floor(Date.now() / 1000);
    const { id: site } = await k
      .insertInto('device_groups')
      .values({
        name: 's',
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
    const addDevice = async (name: string, driver: string, port: number | null) =>
      (
        await k
          .insertInto('devices')
          .values({
            name,
            device_group_id: site,
            driver,
            code: 'other',
            template_id: null,
            ip: '127.0.0.1',
            port,
            protocol_id: 1,
            classification_id: 0,
            device_count: 1,
            serial: JSON.stringify(serialSettings.parse({})),
            zigbee_enable: 0,
            zigbee_address: '',
            protocol_version: '',
            options: JSON.stringify(deviceOptions.parse({ timeout_ms: 400 })),
            check_interval: 1,
            enable: 1,
            state: 0,
            state_reason: '',
            state_time: 0,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const addItem = async (deviceId: number, source: ItemSource) =>
      (
        await k
          .insertInto('items')
          .values({
            device_id: deviceId,
            name: 'i',
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
            source: JSON.stringify(source),
            enable: 1,
            state: 0,
            value: null,
            last_check: 0,
            info: '',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const mbDevice = await addDevice('mb', 'modbus-tcp', peer.port);
    const mbItem = await addItem(mbDevice, modbus(3, 0, 'int16', 0.1));
    const simDevice = await addDevice('sim', 'simulator', null);
    const simItem = await addItem(simDevice, {
      kind: 'simulator',
      model: 'analog',
      base: 20,
      spread: 1,
      noise: 0.1,
      period_s: 600,
      fault_rate: 0,
      decimals: 2,
    });
    const store = createSeriesStore(database.db);
    const samples: Array<[number, number | null]> = [];
    const states: Array<[number, number]> = [];
    const bus = createEventBus();
    bus.subscribe('sample', (e) => {
      samples.push([e.item_id, e.value]);
      if (e.value !== null) store.append(e.item_id, e.ts_ms, e.value);
    });
    bus.subscribe('device.state', (e) => states.push([e.device_id, e.state]));
    // Poll timing runs on a clock the test moves; each poll's I/O with the real peer (a refused
    // connection, the 400 ms timeout of a silent one) is awaited before time moves on.
    const clock = createManualClock();
    const polls = createPending();
    clock.settleWith(() => polls.settled());
    const collector = createCollector({
      db: database.db,
      bus,
      drivers: { 'modbus-tcp': modbusTcpDriver, simulator: createSimulatorDriver() },
      maxBackoffMs: 2000,
      now: clock.now,
      timers: trackedTimers(clock.timers, polls),
    });
    await collector.start();
    try {
      // First polls fall within the first interval.
      await clock.advance(1_000);
      expect(collector.liveDevice(mbDevice)?.state).toBe(1);
      expect(collector.liveItem(mbItem)?.value).toBe(-12.3);

      await peer.stop();
      await clock.advance(2_000);
      expect(collector.liveDevice(mbDevice)?.state).toBe(4);
      expect(collector.liveDevice(mbDevice)?.reason).toMatch(/ECONNREFUSED|closed|no answer|Port Not Open|connect/i);
      // Item states are the alarm engine's (none runs here): the collector only sent the empty check.
      expect(samples.filter(([id]) => id === mbItem).at(-1)).toEqual([mbItem, null]);
      expect(collector.liveItem(mbItem)?.state).toBe(0);
      // The other device keeps its one-second rhythm while the dead one is retried.
      const before = collector.liveItem(simItem)!.last_check;
      await clock.advance(2_000);
      expect(collector.liveItem(simItem)!.last_check).toBe(before + 2);
      expect(collector.liveDevice(simDevice)?.state).toBe(1);

      await peer.start();
      // Retried within its capped back-off (2 s here).
      await clock.advance(2_000);
      expect(collector.liveDevice(mbDevice)?.state).toBe(1);
      // A value ends "unknown"; judging it is the alarm engine's (none runs here), so it is not ready.
      expect(collector.liveItem(mbItem)).toMatchObject({ value: -12.3, state: 0 });

      // The alarm engine hears every check and every device state change.
      expect(samples).toContainEqual([mbItem, -12.3]);
      expect(samples).toContainEqual([mbItem, null]);
      expect(states.filter(([d]) => d === mbDevice).map(([, st]) => st)).toEqual([1, 4, 1]);

      // Writes go through the same driver.
      await collector.write(mbItem, 25.6);
      expect(peer.holding[0]).toBe(256);
    } finally {
      await collector.stop();
      await store.stop();
    }
    const saved = await k
      .selectFrom('devices')
      .select(['id', 'state'])
      .where('id', '=', mbDevice)
      .executeTakeFirstOrThrow();
    expect(saved.state).toBe(1);
    const chunks = await k
      .selectFrom('sample_chunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(chunks.n)).toBeGreaterThan(0);
  }, 30_000);
});
