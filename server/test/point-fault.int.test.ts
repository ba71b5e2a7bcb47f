import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AlarmRow } from '@sitewatch/contract/alarms';
import { monitorState } from '@sitewatch/contract/monitoring';
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { modbusTcpDriver } from '../src/collector/drivers/modbus-tcp.ts';
import { mqttDriver } from '../src/collector/drivers/mqtt.ts';
import { snmpDriver } from '../src/collector/drivers/snmp.ts';
import type { Dialect } from '../src/db/kysely.ts';
import { createChannels } from '../src/notify/channels/index.ts';
import { snmpdAvailable, snmpdPeer } from './conformance/peers.ts';
import { watchAlarms } from './helpers/alarm-watch.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { nextEvent } from './helpers/events.ts';
import { type Mosquitto, startMosquitto } from './helpers/mosquitto.ts';
import { float32NaN, pymodbusPeer } from './helpers/pymodbus.ts';

/**
 * Point-fault alarms (issue 28, found 1–3, Build 1–3) against peers nobody here wrote: pymodbus
 * (a sensor answering NaN, a register hole, a meter answering NaN on every register), Debian's
 * snmpd (a missing OID, an OID that is not a number) and Debian's mosquitto (an item silent past
 * its maximum age while the others are current, a payload that is not JSON, a flapping item that
 * goes silent). Each fault opens its alarm after its repetitions, the browser is told and the
 * contact group notified, and it recovers by itself at a good value. Everything is awaited as an
 * event (the bus, the push, the notice), never as a time.
 */

// snmpd serves two OIDs through a `pass` script that reads a file per OID at every request: an
// empty file is a missing OID, `string` text one that is not a number, `integer` a good value.
const snmpDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-snmp-pass-'));
const passOid = '.1.3.6.1.4.1.2021.255';
const snmpServe = (n: 1 | 2, type: 'integer' | 'string' | null, value = '') =>
  writeFileSync(path.join(snmpDir, String(n)), type ? `${type}\n${value}\n` : '');
writeFileSync(
  path.join(snmpDir, 'pass.sh'),
  `#!/bin/sh\n[ "$1" = "-g" ] || exit 0\nf="${snmpDir}/\${2##*.}"\ncase "$2" in ${passOid}.1|${passOid}.2) [ -s "$f" ] && echo "$2" && cat "$f";; esac\nexit 0\n`,
);
chmodSync(path.join(snmpDir, 'pass.sh'), 0o755);
const snmpd = snmpdAvailable ? await snmpdPeer([`pass ${passOid} ${path.join(snmpDir, 'pass.sh')}`]) : null;
afterAll(() => rmSync(snmpDir, { recursive: true, force: true }));

/** The app, what reaches people of its alarms, and the calls the cases make. */
const useEstate = (dialect: Dialect) => {
  const watch = watchAlarms();
  const logLines: string[] = [];
  const t = useTestApp(dialect, {
    drivers: { 'modbus-tcp': modbusTcpDriver, snmp: snmpDriver, mqtt: mqttDriver },
    notifyChannels: { ...createChannels(), webhook: watch.webhook },
    logLevel: 'warn',
    logStream: { write: (line: string) => logLines.push(line) },
  });
  const peers = {
    modbus: null as Awaited<ReturnType<typeof pymodbusPeer>> | null,
    broker: null as Mosquitto | null,
    publisher: null as mqtt.MqttClient | null,
  };
  const ids = { site: 0, group: 0, meter: 0, dead: 0, snmp: 0, gateway: 0 };
  const items: Record<string, number> = {};
  const prefix = `pf/${dialect}`;

  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json().data;
  };
  const device = async (name: string, over: object) =>
    (await ok('POST', 'setting/devices', { name, device_group_id: ids.site, check_interval: 1, ...over })).id as number;
  const item = async (key: string, device_id: number, source: object, over: object = {}) => {
    items[key] = (
      await ok('POST', 'setting/items', {
        device_id,
        name: key,
        value_type: 1,
        threshold_min: -1000,
        threshold_max: 1000,
        overrun_point: 0,
        recovery_point: 0,
        notification_interval: 0,
        contact_group_id: ids.group,
        source,
        ...over,
      })
    ).id;
  };
  const modbus = (register: number, data_type = 'float32') => ({
    kind: 'modbus',
    function: 3,
    register,
    data_type,
    scale: 1,
  });
  const publish = (topic: string, payload: string | Buffer, retain = false) =>
    peers.publisher!.publishAsync(`${prefix}/${ids.gateway}/${topic}`, payload, { qos: 0, retain });
  const live = (key: string) => t.sitewatch.collector!.liveItem(items[key]!);
  const bus = () => t.sitewatch.bus;

  /**
   * The item's point-fault alarm raised after `cause` (or, with `cause` null, the one its first
   * checks opened): pushed to the browser and notified to its group.
   */
  const faultOf = async (key: string, cause: (() => unknown) | null) => {
    const isFault = (m: { alarm: AlarmRow }) => m.alarm.item_id === items[key] && m.alarm.kind === 'point_fault';
    const earlier = new Set(watch.raised.filter(isFault).map((m) => m.alarm.status_id));
    const raised = watch.raise((m) => isFault(m) && (cause === null || !earlier.has(m.alarm.status_id)));
    await cause?.();
    const { alarm } = await raised;
    expect(alarm).toMatchObject({ kind: 'point_fault', status_label: 'point_fault', level: 3, value: null });
    const notice = await watch.notified(alarm);
    expect(notice.fields).toMatchObject({ item: key, info: alarm.info });
    return alarm;
  };
  /** Its recovery at a good value (`cause`), pushed too. */
  const recoveryOf = async (alarm: AlarmRow, cause: () => unknown) => {
    const recovered = nextEvent(bus(), 'alarm.recovered', (e) => e.alarm.status_id === alarm.status_id);
    await cause();
    expect((await recovered).alarm.end_time).not.toBeNull();
    await watch.pushed(alarm, 'recover');
    await watch.notified(alarm, 'recovery');
  };
  /** The point faults and communication alarms of a device now open. */
  const openAlarms = async (deviceId: number) => {
    await t.sitewatch.alarms.flush();
    return t.database.db.kysely
      .selectFrom('alarms')
      .select(['item_id', 'kind', 'info'])
      .where('device_id', '=', deviceId)
      .where('end_time', 'is', null)
      .orderBy('id')
      .execute();
  };
  return {
    watch,
    logLines,
    t,
    peers,
    ids,
    items,
    prefix,
    ok,
    device,
    item,
    modbus,
    publish,
    live,
    bus,
    faultOf,
    recoveryOf,
    openAlarms,
  };
};

/** The peers, and the devices and items on them configured through the API as a person would. */
const setUp = async (estate: ReturnType<typeof useEstate>, dialect: Dialect) => {
  const { watch, t, peers, ids, ok, device, item, modbus, publish, bus, prefix } = estate;
  watch.listen(t.push);
  // Every notice goes out as itself: this file raises more than the flood limit's 20 a minute.
  const commons = await ok('GET', 'setting/alarm_commons');
  await ok('PUT', 'setting/alarm_commons', { ...commons, flood_limit: 0 });
  ids.site = (await ok('POST', 'setting/device_groups', { name: `测点故障 ${dialect}`, weight: 1 })).id;
  const hook = await ok('POST', 'setting/alarm_push', {
    name: 'duty hook',
    kind: 'webhook',
    config: { url: 'http://127.0.0.1:9/hook' },
  });
  ids.group = (await ok('POST', 'setting/contact_groups', { name: '值班', email: false, channel_ids: [hook.id] })).id;

  const modbusPeer = await pymodbusPeer({
    holding: [
      { address: 10, type: 'float32', value: 230 },
      { address: 12, type: 'float32', value: 5 },
      { address: 20, registers: [7] },
      // 30 is a hole: exception 2. The dead meter's two points answer NaN.
      { address: 40, registers: float32NaN },
      { address: 42, registers: float32NaN },
    ],
  });
  peers.modbus = modbusPeer;
  const meter = { driver: 'modbus-tcp', code: 'power_meter', ip: '127.0.0.1', port: modbusPeer.port };
  ids.meter = await device('PM-F', meter);
  await item('volt', ids.meter, modbus(10));
  await item('amp', ids.meter, modbus(12), { repetitions: 2 });
  await item('count', ids.meter, modbus(20, 'uint16'));
  await item('hole', ids.meter, modbus(30, 'uint16'));
  ids.dead = await device('PM-DEAD', meter);
  await item('dead1', ids.dead, modbus(40));
  await item('dead2', ids.dead, modbus(42));

  if (snmpd) {
    snmpServe(1, null);
    snmpServe(2, 'string', 'abc');
    await snmpd.start();
    ids.snmp = await device('UPS-F', {
      driver: 'snmp',
      code: 'ups',
      ip: '127.0.0.1',
      port: snmpd.port,
      protocol_version: 'v2c',
    });
    const snmp = (oid: string) => ({ kind: 'snmp', oid, scale: 1 });
    await item('uptime', ids.snmp, snmp('1.3.6.1.2.1.1.3.0'), { threshold_max: 1e12 });
    await item('missing', ids.snmp, snmp(`${passOid.slice(1)}.1`));
    await item('text', ids.snmp, snmp(`${passOid.slice(1)}.2`));
  }

  peers.broker = await startMosquitto();
  peers.publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${peers.broker.port}`);
  ids.gateway = await device('TH-F', { driver: 'mqtt', code: 'temp_hum', ip: '127.0.0.1', port: peers.broker.port });
  const topic = (name: string, json_path = '') => ({
    kind: 'mqtt',
    topic: `${prefix}/{device_id}/${name}`,
    json_path,
    scale: 1,
  });
  await item('temp', ids.gateway, topic('env', 'temp'));
  await item('hum', ids.gateway, topic('env', 'hum'));
  await item('steady', ids.gateway, topic('steady'), { max_age: 0 });
  await item('slow', ids.gateway, topic('slow'), { max_age: 1 });
  await item('flap', ids.gateway, topic('flap'), { threshold_min: 0, threshold_max: 30, max_age: 2 });
  await publish('env', '{"temp": 23.4, "hum": 41}', true);
  await publish('steady', '1', true);

  const answered = nextEvent(
    bus(),
    'device.state',
    (e) => e.device_id === ids.meter && e.state === monitorState.abnormal,
  );
  await t.sitewatch.start();
  // The meter answers, its hole is its one unreadable point.
  expect((await answered).reason).toBe('hole: exception 2: illegal data address');
};

describeEachDatabase('point-fault alarms against real peers', (dialect) => {
  const estate = useEstate(dialect);
  const { t, peers, ids, items, logLines, ok, publish, live, bus, faultOf, recoveryOf, openAlarms } = estate;
  beforeAll(() => setUp(estate, dialect));
  afterAll(async () => {
    peers.modbus?.stop();
    await peers.publisher?.endAsync(true);
    await peers.broker?.destroy();
    await snmpd?.stop();
  });

  it('a sensor that starts answering NaN raises its point fault after its repetitions, pushed and notified, and recovers at a good value', async () => {
    const checks: Array<number | null> = [];
    const off = bus().subscribe('sample', (s) => {
      if (s.item_id === items.amp) checks.push(s.value);
    });
    const alarm = await faultOf('amp', () => peers.modbus!.set('holding', { address: 12, registers: float32NaN }));
    off();
    // Two empty checks in a row (repetitions 2) before it opened; unknown with the reason meanwhile.
    expect(checks.slice(-2)).toEqual([null, null]);
    expect(alarm.info).toBe('value is not a number (NaN)');
    expect(live('amp')).toMatchObject({
      state: monitorState.unknown,
      info: 'value is not a number (NaN)',
      alarm: true,
    });
    // The station page shows the item in alarm; the device answers, so it is abnormal and stays up.
    const station = await ok('GET', `device_groups/device/data?device_group_id=${ids.site}`);
    const meter = station.find((d: { id: number }) => d.id === ids.meter);
    expect(meter.items.find((i: { id: number }) => i.id === items.amp)).toMatchObject({
      state: monitorState.unknown,
      alarm: true,
      info: 'value is not a number (NaN)',
    });
    // The alarm list has it with its reason.
    const review = await ok('GET', 'review?limit=100');
    expect(review.data.find((a: AlarmRow) => a.status_id === alarm.status_id)).toMatchObject({
      kind: 'point_fault',
      info: 'value is not a number (NaN)',
    });
    await recoveryOf(alarm, () => peers.modbus!.set('holding', { address: 12, type: 'float32', value: 5.5 }));
    expect(live('amp')).toMatchObject({ state: monitorState.normal, value: 5.5, alarm: false });
  });

  it('a point in a register hole (exception 2) has its point fault; filling the hole recovers it', async () => {
    const alarm = await faultOf('hole', null);
    expect(alarm.info).toBe('exception 2: illegal data address');
    await recoveryOf(alarm, () => peers.modbus!.set('holding', { address: 30, registers: [99] }));
    expect(live('hole')).toMatchObject({ state: monitorState.normal, value: 99 });
  });

  it('a meter answering NaN on every register is one device-level alarm, not one per point', async () => {
    const open = await openAlarms(ids.dead);
    expect(open).toEqual([{ item_id: 0, kind: 'communication', info: 'value is not a number (NaN)' }]);
    expect(t.sitewatch.collector!.liveDevice(ids.dead)).toMatchObject({ state: monitorState.unknown });
    // One point comes back: the device answers, so the communication alarm recovers and the point
    // still unreadable has its own fault.
    const comm = nextEvent(
      bus(),
      'alarm.recovered',
      (e) => e.alarm.device_id === ids.dead && e.alarm.kind === 'communication',
    );
    const fault = await faultOf('dead2', () =>
      peers.modbus!.set('holding', { address: 40, type: 'float32', value: 1 }),
    );
    await comm;
    expect(fault.info).toBe('value is not a number (NaN)');
    await recoveryOf(fault, () => peers.modbus!.set('holding', { address: 42, type: 'float32', value: 2 }));
    expect(await openAlarms(ids.dead)).toEqual([]);
  });

  it.runIf(snmpd)(
    'a missing SNMP OID and an OID that is not a number have their point faults, and recover',
    async () => {
      const missing = await faultOf('missing', null);
      expect(missing.info).toMatch(/nosuch/i);
      const text = await faultOf('text', null);
      expect(text.info).toBe('text is not a number: "abc"');
      await recoveryOf(missing, () => snmpServe(1, 'integer', '42'));
      await recoveryOf(text, () => snmpServe(2, 'integer', '43'));
      expect([live('missing')?.value, live('text')?.value]).toEqual([42, 43]);
    },
  );

  it('an MQTT item silent past its maximum age while the others are current has its point fault', async () => {
    const alarm = await faultOf('slow', () => publish('slow', '5'));
    expect(alarm.info).toBe('no value for 1 s');
    expect(t.sitewatch.collector!.liveDevice(ids.gateway)?.state).toBe(monitorState.abnormal);
    await recoveryOf(alarm, () => publish('slow', '6'));
    // Nothing more comes: it goes silent again, and a message more ends it.
    const again = await faultOf('slow', () => undefined);
    await recoveryOf(again, () => publish('slow', '7'));
  });

  it('a payload that is not JSON makes its items unknown with the reason and raises their faults; the log says it once', async () => {
    const hum = nextEvent(
      bus(),
      'alarm.raised',
      (e) => e.alarm.item_id === items.hum && e.alarm.kind === 'point_fault',
    );
    const temp = await faultOf('temp', () => publish('env', '{"temp": 23.4, "hum":'));
    expect(temp.info).toMatch(/^payload is not valid JSON: ./);
    expect((await hum).alarm.info).toBe(temp.info);
    expect(live('temp')).toMatchObject({ state: monitorState.unknown, info: temp.info, value: 23.4 });
    // Random bytes: still unknown, and the log has one line for both messages (once a minute).
    const bytes = nextEvent(bus(), 'item.state', (e) => e.item_id === items.temp && e.info !== temp.info);
    await publish('env', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x7b]));
    expect((await bytes).info).toMatch(/^payload is not valid JSON: ./);
    expect(logLines.filter((l) => l.includes('a message could not be read'))).toHaveLength(1);
    expect(JSON.parse(logLines.find((l) => l.includes('a message could not be read'))!)).toMatchObject({
      device: ids.gateway,
    });
    await recoveryOf(temp, () => publish('env', '{"temp": 22, "hum": 40}'));
    expect(live('hum')).toMatchObject({ state: monitorState.normal, value: 40 });
  });

  it('a flapping item that goes silent is unknown with its reason, not jitter; the jitter mark comes back with values only', async () => {
    const jittering = nextEvent(
      bus(),
      'item.state',
      (e) => e.item_id === items.flap && e.state === monitorState.jitter,
    );
    // Each message is a sample of its own: 20 and 40 alternate across the 30 °C threshold.
    for (let i = 0; i < 16; i++) await publish('flap', i % 2 ? '40' : '20');
    expect((await jittering).info).toMatch(/^jitter \d+(\.\d+)?%$/);
    const silent = await nextEvent(
      bus(),
      'item.state',
      (e) => e.item_id === items.flap && e.state !== monitorState.jitter,
    );
    expect(silent).toMatchObject({ state: monitorState.unknown, info: 'no value for 2 s' });
    expect(live('flap')).toMatchObject({ state: monitorState.unknown, info: 'no value for 2 s' });
    expect(t.sitewatch.alarms.isJittering(items.flap!)).toBe(true);
    const back = nextEvent(bus(), 'item.state', (e) => e.item_id === items.flap);
    await publish('flap', '20');
    expect(await back).toMatchObject({ state: monitorState.jitter });
    expect(live('flap')).toMatchObject({ state: monitorState.jitter, value: 20 });
  });
});
