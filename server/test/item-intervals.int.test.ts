import { randomBytes } from 'node:crypto';
import { monitorState } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAlarmEngine } from '../src/alarms/engine.ts';
import { createEventBus } from '../src/bus/bus.ts';
import { createManualClock } from '../src/clock/manual.ts';
import { createPending, trackedTimers } from '../src/clock/timers.ts';
import { createCollector } from '../src/collector/collector.ts';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { snmpDriver } from '../src/collector/drivers/snmp.ts';
import { createSecretBox, type SecretBox } from '../src/secrets/index.ts';
import { snmpdPeer } from './conformance/peers.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/** The ids the cases share: the site, the agent's device and its items. */
interface Made {
  site: number;
  snmp: number;
  fast: number;
  slow: number;
  mqtt: number;
  mqttItem: number;
}

/**
 * What the cases share: API calls, SNMP agents on Debian's snmpd (its port once started), the items
 * of the first, and a collector driven on a manual clock with the alarm engine beside it.
 */
const intervalRig = (t: ReturnType<typeof useTestApp>, box: SecretBox, at: Made, port: () => number) => {
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await call(method, url, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const snmpItem = (name: string, oid: string, check_interval?: number) => ({
    device_id: at.snmp,
    name,
    telemetry_only: true,
    source: { kind: 'snmp', oid },
    ...(check_interval === undefined ? {} : { check_interval }),
  });

  /**
   * A collector on a manual clock: `advance` runs its polls in time order, each waiting for the
   * agent's real answer (the poll's work is tracked), so a minute of schedule takes the time of its I/O.
   * The alarm engine beside it on the bus judges the samples: item states are its own.
   */
  const drivenCollector = async (bus: ReturnType<typeof createEventBus>) => {
    const clock = createManualClock();
    const work = createPending();
    clock.settleWith(() => work.settled());
    const timers = trackedTimers(clock.timers, work);
    const collector = createCollector({
      db: t.database.db,
      bus,
      drivers: { snmp: snmpDriver },
      secrets: box,
      timers,
      now: clock.now,
    });
    const { notifier, alarmSettings } = t.sitewatch.services;
    const alarms = createAlarmEngine({
      db: t.database.db,
      bus,
      notifier,
      settings: alarmSettings,
      clock: clock.now,
      timers,
    });
    await alarms.start();
    await collector.start();
    const stop = async () => {
      await collector.stop();
      await alarms.stop();
    };
    return { clock, collector, stop };
  };

  /** Runs `polls` polls of the one enabled device on a driven clock; `after` sees the collector after each. */
  const drive = async (polls: number, after: (collector: ReturnType<typeof createCollector>, poll: number) => void) => {
    const bus = createEventBus();
    const sampled: number[][] = [];
    bus.subscribe('samples', ({ ids, from, to }) => {
      sampled.push(Array.from({ length: to - from }, (_, i) => ids[from + i]!));
    });
    const { clock, collector, stop } = await drivenCollector(bus);
    try {
      // One interval at a time: the first holds the first poll (a random start), each after it one poll.
      for (let poll = 0; poll < polls; poll++) {
        await clock.advance(5000);
        after(collector, poll);
      }
    } finally {
      await stop();
    }
    return sampled;
  };
  const agent = async (name: string) =>
    (
      await ok('POST', 'setting/devices', {
        name,
        device_group_id: at.site,
        driver: 'snmp',
        code: 'host',
        ip: '127.0.0.1',
        port: port(),
        protocol_version: 'v2c',
        check_interval: 5,
        options: { timeout_ms: 2000 },
      })
    ).id as number;
  const enable = (id: number, on: boolean) =>
    t.database.db.kysely
      .updateTable('devices')
      .set({ enable: on ? 1 : 0 })
      .where('id', '=', id)
      .execute();

  return { call, ok, snmpItem, drivenCollector, drive, agent, enable };
};

/**
 * Issue 28, finding 5: an item's `check_interval` was accepted, stored and ignored (an SNMP item
 * set to 20 s was sampled every 5 s with its device). Items are now read at their own interval
 * within their device's schedule (docs/monitoring.md "Item intervals"); MQTT items, whose values
 * come as they are published, refuse one. Devices and items are made through the API.
 */
describeEachDatabase('item check intervals', (dialect) => {
  const box = createSecretBox(randomBytes(32));
  const t = useTestApp(dialect, { secrets: box });
  let snmpd: Awaited<ReturnType<typeof snmpdPeer>>;
  const at: Made = { site: 0, snmp: 0, fast: 0, slow: 0, mqtt: 0, mqttItem: 0 };
  const { call, ok, snmpItem, drivenCollector, drive, agent, enable } = intervalRig(t, box, at, () => snmpd.port);

  beforeAll(async () => {
    snmpd = await snmpdPeer();
    await snmpd.start();
    at.site = (await ok('POST', 'setting/device_groups', { name: 'Intervals', weight: 1 })).id;
    at.snmp = await agent('agent');
    // sysUpTime with its device; the 1-minute load average (UCD-SNMP laLoad.1) every 20 s.
    at.fast = (await ok('POST', 'setting/items', snmpItem('uptime', '1.3.6.1.2.1.1.3.0'))).id;
    at.slow = (await ok('POST', 'setting/items', snmpItem('load', '1.3.6.1.4.1.2021.10.1.3.1', 20))).id;
  });
  afterAll(() => snmpd?.stop());

  it('an item without an interval is read at every poll of its device (0, the default)', async () => {
    expect((await ok('GET', `setting/items/${at.fast}`)).check_interval).toBe(0);
    expect((await ok('GET', `setting/items/${at.slow}`)).check_interval).toBe(20);
  });

  it('an SNMP item with check_interval 20 on a 5 s device is sampled every 20 s; its device item every 5 s', async () => {
    const bus = createEventBus();
    /** Per poll: when (monotonic ms) and which items were sampled with which value. */
    const polls: Array<{ at: number; items: Map<number, number | null> }> = [];
    let clockOf: (() => number) | null = null;
    bus.subscribe('samples', ({ ids, values, from, to }) => {
      const items = new Map<number, number | null>();
      for (let i = from; i < to; i++) items.set(ids[i]!, Number.isNaN(values[i]!) ? null : values[i]!);
      polls.push({ at: clockOf!(), items });
    });
    const { clock, collector, stop } = await drivenCollector(bus);
    clockOf = clock.timers.monotonic;
    try {
      // The first poll comes within one interval (a random start); then 60 s of the device's schedule.
      await clock.advance(5000);
      const first = polls.length;
      expect(first).toBe(1);
      for (let s = 0; s < 12; s++) {
        await clock.advance(5000);
        // Between its reads the slow item keeps its value and state: a poll that did not ask for
        // it is no "no value".
        const slow = collector.liveItem(at.slow);
        expect(slow?.value, `poll ${s + 1}`).toEqual(expect.any(Number));
        expect(slow?.state, `poll ${s + 1}`).not.toBe(monitorState.unknown);
      }
    } finally {
      await stop();
    }
    const start = polls[0]!.at;
    const timesOf = (id: number) => polls.filter((p) => p.items.has(id)).map((p) => p.at - start);
    expect(timesOf(at.fast)).toEqual(Array.from({ length: 13 }, (_, i) => i * 5000));
    expect(timesOf(at.slow)).toEqual([0, 20_000, 40_000, 60_000]);
    // Every read answered with a number, never a null sample.
    expect(polls.every((p) => [...p.items.values()].every((v) => typeof v === 'number'))).toBe(true);
    expect(collector.liveDevice(at.snmp)?.state).toBe(monitorState.normal);
  });

  it('a poll that reads some items judges the device by all: a failing item makes it abnormal, not down; nothing due, nothing read', async () => {
    await enable(at.snmp, false);
    try {
      // A point the agent does not have, read at every poll, beside a good one read every 20 s.
      const mixed = await agent('mixed');
      const missing = (
        await ok('POST', 'setting/items', { ...snmpItem('missing', '1.3.6.1.4.1.99999.1.0'), device_id: mixed })
      ).id;
      const good = (
        await ok('POST', 'setting/items', { ...snmpItem('load', '1.3.6.1.4.1.2021.10.1.3.1', 20), device_id: mixed })
      ).id;
      const states: number[] = [];
      await drive(5, (collector) => {
        const device = collector.liveDevice(mixed)!;
        states.push(device.state);
        expect(device.reason).toContain('missing: ');
        expect(collector.liveItem(good)?.value).toEqual(expect.any(Number));
        expect(collector.liveItem(missing)?.state).toBe(monitorState.unknown);
      });
      // Before, the polls that read only the failing point took the device for down (its communication alarm).
      expect(states).toEqual(Array(5).fill(monitorState.abnormal));
      await enable(mixed, false);

      // Only an item of 20 s on a 5 s device: the polls between read nothing and change nothing.
      const slowOnly = await agent('slow-only');
      const uptime = (
        await ok('POST', 'setting/items', { ...snmpItem('uptime', '1.3.6.1.2.1.1.3.0', 20), device_id: slowOnly })
      ).id;
      const after: number[] = [];
      const sampled = await drive(5, (collector) => after.push(collector.liveDevice(slowOnly)!.state));
      expect(sampled).toEqual([[uptime], [uptime]]);
      expect(after).toEqual(Array(5).fill(monitorState.normal));
      await enable(slowOnly, false);
    } finally {
      await enable(at.snmp, true);
    }
  });

  it('in the collector worker too: the polls that skip an item leave it as it was', async () => {
    const device = (
      await ok('POST', 'setting/devices', {
        name: 'sim',
        device_group_id: at.site,
        driver: 'simulator',
        code: 'other',
        check_interval: 1,
      })
    ).id;
    const source = { kind: 'simulator', model: 'analog', base: 20, spread: 0, noise: 0, fault_rate: 0 };
    const every = (await ok('POST', 'setting/items', { device_id: device, name: 'each', telemetry_only: true, source }))
      .id;
    const third = (
      await ok('POST', 'setting/items', {
        device_id: device,
        name: 'third',
        telemetry_only: true,
        check_interval: 3,
        source,
      })
    ).id;
    const bus = createEventBus();
    const seen: Array<Set<number>> = [];
    let nulls = 0;
    let done: () => void = () => undefined;
    const fourPolls = new Promise<void>((resolve) => {
      done = resolve;
    });
    bus.subscribe('samples', ({ ids, values, from, to }) => {
      const items = new Set<number>();
      for (let i = from; i < to; i++) {
        // (The SNMP device has no driver here: its items' null samples are not counted.)
        if (Number.isNaN(values[i]!) && (ids[i] === every || ids[i] === third)) nulls += 1;
        items.add(ids[i]!);
      }
      if (items.has(every)) seen.push(items);
      if (seen.length === 4) done();
    });
    const started: object[] = [];
    const collector = createCollector({
      db: t.database.db,
      bus,
      drivers: { simulator: createSimulatorDriver() },
      secrets: box,
      log: { warn: () => undefined, info: (obj) => started.push(obj) },
    });
    await collector.start();
    try {
      await fourPolls;
    } finally {
      await collector.stop();
    }
    expect(started).toEqual([expect.objectContaining({ thread: 'worker' })]);
    // Read at the first poll and every third one after it; never a null sample for it in between.
    expect(seen.slice(0, 4).map((s) => s.has(third))).toEqual([true, false, false, true]);
    expect(nulls).toBe(0);
    expect(collector.liveItem(third)?.state).not.toBe(monitorState.unknown);
  });

  it('an MQTT item refuses an interval of its own, also in a bulk change; 0 is taken', async () => {
    at.mqtt = (
      await ok('POST', 'setting/devices', {
        name: 'broker',
        device_group_id: at.site,
        driver: 'mqtt',
        code: 'temp_hum',
        ip: '127.0.0.1',
        port: 1883,
        enable: false,
      })
    ).id;
    const item = {
      device_id: at.mqtt,
      name: 'temp',
      telemetry_only: true,
      source: { kind: 'mqtt', topic: 'sensors/{device_id}/temp' },
    };
    const refused = await call('POST', 'setting/items', { ...item, check_interval: 20 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('MQTT监控项按消息到达即时采集，检查间隔须为0');
    expect(refused.body.data.fields).toEqual([
      { path: 'body.check_interval', message: 'MQTT监控项按消息到达即时采集，检查间隔须为0' },
    ]);
    at.mqttItem = (await ok('POST', 'setting/items', item)).id;
    expect((await ok('GET', `setting/items/${at.mqttItem}`)).check_interval).toBe(0);
    const bulk = await ok('PUT', 'setting/items/bulk', { ids: [at.mqttItem, at.fast], set: { check_interval: 30 } });
    expect(bulk).toEqual({
      updated: 1,
      failed: [{ id: at.mqttItem, message: 'MQTT监控项按消息到达即时采集，检查间隔须为0' }],
    });
    expect((await ok('GET', `setting/items/${at.mqttItem}`)).check_interval).toBe(0);
    expect((await ok('GET', `setting/items/${at.fast}`)).check_interval).toBe(30);
  });
});
