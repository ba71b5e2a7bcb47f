import { type ChildProcess, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BusEvent } from '@sitewatch/contract/events';
import { type IfMetric, monitorState } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DriverDevice, DriverItem } from '../src/collector/driver.ts';
import { createIfMibDriver, ifOid, snmpIfMibDriver } from '../src/collector/drivers/snmp-ifmib.ts';
import { freePort, sleep, snmpdPeer, spawnSnmpd } from './conformance/peers.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

/**
 * Network devices against Debian's snmpd on loopback (docs/network-devices.md):
 * - a plain snmpd answers IF-MIB for this machine's real interfaces (lo and whatever else exists):
 *   the driver's states and speeds must equal what /usr/bin/snmpget reads from the same agent, and
 *   its rates for lo must lie within the bounds snmpget readings taken around each read allow;
 * - a second snmpd serves one synthetic port (ifIndex 1000) and its sysUpTime through its `pass`
 *   extension from a file the test writes: real SNMP, with counters and status the test chooses, so
 *   rates are checked exactly, a wrap and an agent restart go through the agent, and the port can go
 *   down (lo cannot) to open the port-down alarm through the collector and the alarm engine.
 */

const snmpget = (port: number, oids: string[]) =>
  execFileSync('/usr/bin/snmpget', ['-v2c', '-c', 'public', '-On', '-Oe', '-Ot', '-Oq', `127.0.0.1:${port}`, ...oids], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .map((line) => line.slice(line.indexOf(' ') + 1).trim());

const snmpwalkIndexes = (port: number, oid: string) =>
  execFileSync('/usr/bin/snmpwalk', ['-v2c', '-c', 'public', '-On', '-Oq', `127.0.0.1:${port}`, oid], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .map((line) => Number(line.split(' ')[0]!.split('.').pop()));

/** The synthetic port's OIDs and the snmpd `pass` types their values are answered with. */
const synthIndex = 1000;
const synthOids: Record<string, [string, string]> = {
  sysUpTime: [ifOid.sysUpTime, 'timeticks'],
  admin: [`${ifOid.ifAdminStatus}.${synthIndex}`, 'integer'],
  oper: [`${ifOid.ifOperStatus}.${synthIndex}`, 'integer'],
  speed: [`${ifOid.ifSpeed}.${synthIndex}`, 'gauge'],
  highSpeed: [`${ifOid.ifHighSpeed}.${synthIndex}`, 'gauge'],
  inOctets: [`${ifOid.ifHCInOctets}.${synthIndex}`, 'counter64'],
  outOctets: [`${ifOid.ifHCOutOctets}.${synthIndex}`, 'counter64'],
  inErrors: [`${ifOid.ifInErrors}.${synthIndex}`, 'counter'],
  outErrors: [`${ifOid.ifOutErrors}.${synthIndex}`, 'counter'],
  inDiscards: [`${ifOid.ifInDiscards}.${synthIndex}`, 'counter'],
  outDiscards: [`${ifOid.ifOutDiscards}.${synthIndex}`, 'counter'],
};
type SynthState = Record<keyof typeof synthOids, bigint | number>;

/** Debian's snmpd answering the synthetic port from a state file through `pass` (GET only). */
const synthSnmpd = async () => {
  const port = await freePort(true);
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-ifmib-'));
  const stateFile = path.join(dir, 'state');
  const script = path.join(dir, 'pass.sh');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      '# snmpd pass protocol: "-g OID" answers OID, type and value; GETNEXT and SET are not served.',
      '[ "$1" = "-g" ] || exit 0',
      `while read -r o t v; do if [ "$o" = "$2" ]; then printf '%s\\n%s\\n%s\\n' "$o" "$t" "$v"; exit 0; fi; done < '${stateFile}'`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  writeFileSync(
    path.join(dir, 'snmpd.conf'),
    [
      `agentAddress udp:127.0.0.1:${port}`,
      'rocommunity public 127.0.0.1',
      ...Object.values(synthOids).map(([oid]) => `pass .${oid} ${script}`),
      '',
    ].join('\n'),
  );
  const write = (s: SynthState) =>
    writeFileSync(
      stateFile,
      Object.entries(synthOids)
        .map(([k, [oid, type]]) => `.${oid} ${type} ${s[k as keyof SynthState]}\n`)
        .join(''),
    );
  let child: ChildProcess | null = null;
  return {
    port,
    write,
    async start() {
      child = await spawnSnmpd(dir);
    },
    async stop() {
      const c = child;
      child = null;
      if (c && c.exitCode === null) {
        await new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const baseSynth: SynthState = {
  sysUpTime: 100_000,
  admin: 1,
  oper: 1,
  speed: 1_000_000_000,
  highSpeed: 1000,
  inOctets: 1_000n,
  outOctets: 50_000n,
  inErrors: 0,
  outErrors: 0,
  inDiscards: 0,
  outDiscards: 0,
};

const deviceOf = (id: number, port: number): DriverDevice => ({
  id,
  name: `sw-${id}`,
  ip: '127.0.0.1',
  port,
  protocol_id: 1,
  protocol_version: 'v2c',
  serial: {} as DriverDevice['serial'],
  options: { community: 'public', timeout_ms: 2000 } as DriverDevice['options'],
});
const itemsOf = (ifIndex: number, metrics: readonly IfMetric[], first = 1): DriverItem[] =>
  metrics.map((metric, k) => ({
    id: first + k,
    value_type: 1,
    source: { kind: 'snmp-ifmib', if_index: ifIndex, metric },
  }));

describeEachDatabase('network devices over IF-MIB against Debian snmpd', (dialect) => {
  // Real time: rates are timed by the agents' own sysUpTime, and Debian's snmpd moves it and its
  // counters with the system's clock. What the tests wait for is the collector's samples (events).
  const t = useTestApp(dialect, { drivers: { 'snmp-ifmib': snmpIfMibDriver } });
  /** Resolves once `done()` holds, looked at after each answer the collector publishes. */
  const untilSampled = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      if (done()) return resolve();
      const stop = t.sitewatch.bus.subscribe('samples', () => {
        if (!done()) return;
        stop();
        resolve();
      });
    });
  const real = { peer: null as Awaited<ReturnType<typeof snmpdPeer>> | null };
  const synth = { peer: null as Awaited<ReturnType<typeof synthSnmpd>> | null };
  const ids = { north: 0, south: 0, realDevice: 0, synthDevice: 0, portDownItem: 0 };
  const realPorts: number[] = [];

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, token = 'admin-token') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await call(method, url, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const addItem = (deviceId: number, ifIndex: number, metric: IfMetric, extra: object = {}) =>
    ok('POST', 'setting/items', {
      device_id: deviceId,
      name: `${ifIndex} ${metric}`,
      item_cell_name: `port ${ifIndex}`,
      value_type: ['admin_status', 'oper_status', 'port_down'].includes(metric) ? 0 : 1,
      source: { kind: 'snmp-ifmib', if_index: ifIndex, metric },
      // Only the alarmed metrics carry thresholds; the others are recorded (telemetry).
      ...(Object.keys(extra).length === 0 ? { telemetry_only: true } : extra),
    });

  beforeAll(async () => {
    real.peer = await snmpdPeer();
    await real.peer.start();
    synth.peer = await synthSnmpd();
    synth.peer.write(baseSynth);
    await synth.peer.start();
    realPorts.push(...snmpwalkIndexes(real.peer.port, ifOid.ifDescr));

    ids.north = (await ok('POST', 'setting/device_groups', { name: 'North', weight: 1 })).id;
    ids.south = (await ok('POST', 'setting/device_groups', { name: 'South', weight: 1 })).id;
    const device = (name: string, site: number, port: number) =>
      ok('POST', 'setting/devices', {
        name,
        device_group_id: site,
        driver: 'snmp-ifmib',
        code: 'other',
        ip: '127.0.0.1',
        port,
        protocol_version: 'v2c',
        check_interval: 1,
      });
    ids.realDevice = (await device('core-sw', ids.north, real.peer.port)).id;
    ids.synthDevice = (await device('edge-sw', ids.south, synth.peer.port)).id;
    for (const ifIndex of realPorts) {
      for (const m of ['admin_status', 'oper_status', 'port_down', 'speed_mbps'] as const) {
        await addItem(ids.realDevice, ifIndex, m);
      }
    }
    for (const m of ['in_bps', 'out_bps', 'in_errors'] as const) await addItem(ids.realDevice, 1, m);
    ids.portDownItem = (await addItem(ids.synthDevice, synthIndex, 'port_down', { status_threshold: '1' })).id;
    await addItem(ids.synthDevice, synthIndex, 'oper_status');
    await addItem(ids.synthDevice, synthIndex, 'in_util', {
      threshold_min: 0,
      threshold_max: 80,
      recovery_point: 0,
      overrun_point: 0,
    });
    await t.sitewatch.start();
  }, 30_000);

  afterAll(async () => {
    await real.peer?.stop();
    await synth.peer?.stop();
  });

  /** Resolves after `n` more answers carrying the item (a poll under way may have read before a change). */
  const answers = (itemId: number, n: number) =>
    new Promise<void>((resolve) => {
      let seen = 0;
      const stop = t.sitewatch.bus.subscribe('samples', ({ ids, from, to }) => {
        for (let i = from; i < to; i++)
          if (ids[i] === itemId && ++seen === n) {
            stop();
            return resolve();
          }
      });
    });
  /** Waits until every item of the device has a value (rates after their second read). */
  const settled = async (deviceId: number) => {
    const items: number[] = (await ok('GET', `setting/items?device_id=${deviceId}&limit=1000`)).data.map(
      (i: { id: number }) => i.id,
    );
    const ready = (id: number) => {
      const state = t.sitewatch.collector?.liveItem(id)?.state;
      return state !== undefined && state !== monitorState.notReady && state !== monitorState.unknown;
    };
    await untilSampled(() => items.every(ready));
    return ok('GET', `port_net?device_id=${deviceId}`);
  };

  it('port states and speeds equal what snmpget reads from the same agent', async () => {
    const net = await settled(ids.realDevice);
    expect(net.ports.map((p: { if_index: number }) => p.if_index)).toEqual(realPorts);
    expect(realPorts).toContain(1);
    for (const p of net.ports) {
      const [admin, oper, high, speed] = snmpget(real.peer!.port, [
        `${ifOid.ifAdminStatus}.${p.if_index}`,
        `${ifOid.ifOperStatus}.${p.if_index}`,
        `${ifOid.ifHighSpeed}.${p.if_index}`,
        `${ifOid.ifSpeed}.${p.if_index}`,
      ]).map(Number);
      expect(p.metrics.admin_status.value, `admin ${p.if_index}`).toBe(admin);
      expect(p.metrics.oper_status.value, `oper ${p.if_index}`).toBe(oper);
      expect(p.metrics.port_down.value).toBe(admin === 1 && oper !== 1 && oper !== 5 ? 1 : 0);
      expect(p.metrics.speed_mbps.value).toBe(high! > 0 ? high : speed! / 1e6);
    }
    const lo = net.ports.find((p: { if_index: number }) => p.if_index === 1);
    expect(lo.metrics.oper_status.value).toBe(1);
    // snmpd caches interface counters for a few seconds: two reads 1 s apart may see the same counter (0 bit/s).
    expect(lo.metrics.in_bps.value).toBeGreaterThanOrEqual(0);
    const overview = await ok('GET', 'net_resource_Manage/overview');
    const row = overview.data.find((d: { id: number }) => d.id === ids.realDevice);
    expect(row.ports).toBe(realPorts.length);
    expect(row.ports_up).toBe(
      net.ports.filter((p: { metrics: { oper_status: { value: number } } }) => p.metrics.oper_status.value === 1)
        .length,
    );
  }, 20_000);

  it("a walk lists the agent's ports as snmpwalk does, with the metrics that already have items", async () => {
    const walk = await ok('GET', `net_resource_Manage/ports_walk?device_id=${ids.realDevice}`);
    expect(walk.ports.map((p: { if_index: number }) => p.if_index)).toEqual(realPorts);
    const lo = walk.ports.find((p: { if_index: number }) => p.if_index === 1);
    expect(lo.name).toBe('lo');
    expect(lo.metrics.sort()).toEqual([
      'admin_status',
      'in_bps',
      'in_errors',
      'oper_status',
      'out_bps',
      'port_down',
      'speed_mbps',
    ]);
    const [oper] = snmpget(real.peer!.port, [`${ifOid.ifOperStatus}.1`]);
    expect(lo.oper_status).toBe(Number(oper));
    // An agent that does not answer: a 400 naming the reason, never a 500.
    const deadPort = await freePort(true);
    const dead = await ok('POST', 'setting/devices', {
      name: 'dead-sw',
      device_group_id: ids.north,
      driver: 'snmp-ifmib',
      code: 'other',
      ip: '127.0.0.1',
      port: deadPort,
      protocol_version: 'v2c',
      options: { timeout_ms: 300 },
      enable: false,
    });
    const disabled = await call('GET', `net_resource_Manage/ports_walk?device_id=${dead.id}`);
    expect(disabled.status).toBe(400);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/setting/devices/${dead.id}`,
      headers: { authorization: 'Bearer admin-token' },
      payload: {
        name: 'dead-sw',
        device_group_id: ids.north,
        driver: 'snmp-ifmib',
        code: 'other',
        ip: '127.0.0.1',
        port: deadPort,
        protocol_version: 'v2c',
        options: { timeout_ms: 300 },
        enable: true,
      },
    });
    const silent = await call('GET', `net_resource_Manage/ports_walk?device_id=${dead.id}`);
    expect(silent.status, JSON.stringify(silent.body)).toBe(400);
    expect(silent.body.message).toMatch(/端口读取失败/);
    await call('DELETE', `setting/devices/${dead.id}`);
  });

  it("lo's rates from two reads lie within what snmpget readings taken around each read allow", async () => {
    const driver = createIfMibDriver();
    const session = await driver.connect(deviceOf(900_001, real.peer!.port));
    const oids = [ifOid.sysUpTime, `${ifOid.ifHCInOctets}.1`, `${ifOid.ifHCOutOctets}.1`];
    const reading = () => {
      const [up, inO, outO] = snmpget(real.peer!.port, oids);
      return { up: Number(up), in: Number(inO), out: Number(outO) };
    };
    const items = itemsOf(1, ['in_bps', 'out_bps']);
    try {
      const a = reading();
      await session.read(items);
      const b = reading();
      // Traffic on lo between the reads: the agent's own answers to a walk.
      execFileSync('/usr/bin/snmpwalk', ['-v2c', '-c', 'public', `127.0.0.1:${real.peer!.port}`, '1.3.6.1.2.1.2'], {
        stdio: 'ignore',
      });
      // Real time: Debian's snmpd refreshes interface counters every 3 s or so, on the system's
      // clock; the wait goes past one refresh.
      await sleep(3500);
      const c = reading();
      const second = await session.read(items);
      const d = reading();
      for (const [id, key] of [
        [1, 'in'],
        [2, 'out'],
      ] as const) {
        const rate = second.values.get(id)!;
        const low = ((c[key] - b[key]) * 8) / ((d.up - a.up) / 100);
        const high = ((d[key] - a[key]) * 8) / ((c.up - b.up) / 100);
        expect(rate, `${key}: ${low} ≤ ${rate} ≤ ${high}`).toBeGreaterThanOrEqual(Math.floor(low));
        expect(rate).toBeLessThanOrEqual(Math.ceil(high));
        expect(rate).toBeGreaterThan(0);
      }
    } finally {
      await session.close();
    }
  }, 20_000);

  it('rates equal delta octets × 8 / delta seconds exactly; a wrap counts through 2^64, an agent restart gives no rate', async () => {
    const driver = createIfMibDriver();
    const session = await driver.connect(deviceOf(900_002, synth.peer!.port));
    const items = itemsOf(synthIndex, ['in_bps', 'out_bps', 'in_util', 'in_errors', 'speed_mbps']);
    const max64 = (1n << 64n) - 1n;
    try {
      synth.peer!.write({ ...baseSynth, sysUpTime: 200_000, inOctets: 1_000n, outOctets: max64 - 999n, inErrors: 10 });
      const first = await session.read(items);
      expect(first.values.get(5)).toBe(1000);
      expect(first.errors.get(1)).toMatch(/first reading/);
      // 5 s of agent time later: 625 000 octets in (1 Mbit/s), 1 500 out through the wrap, 5 errors.
      synth.peer!.write({ ...baseSynth, sysUpTime: 200_500, inOctets: 626_000n, outOctets: 500n, inErrors: 15 });
      // snmpget reads the same values from the same agent.
      expect(
        snmpget(synth.peer!.port, [`${ifOid.ifHCInOctets}.${synthIndex}`, `${ifOid.ifHCOutOctets}.${synthIndex}`]),
      ).toEqual(['626000', '500']);
      const second = await session.read(items);
      expect(second.values.get(1)).toBe(((626_000 - 1_000) * 8) / 5);
      expect(second.values.get(2)).toBe((1_500 * 8) / 5);
      expect(second.values.get(3)).toBe(0.1); // 1 Mbit/s of a 1 Gbit/s port, in percent
      expect(second.values.get(4)).toBe(1);
      // The agent restarted: sysUpTime and counters start again. No rate, never a huge one.
      synth.peer!.write({ ...baseSynth, sysUpTime: 300, inOctets: 400n, outOctets: 100n, inErrors: 0 });
      const third = await session.read(items);
      expect(third.values.has(1)).toBe(false);
      expect(third.errors.get(1)).toMatch(/sysUpTime went back/);
      expect(third.values.has(2)).toBe(false);
      // The next interval has a rate again.
      synth.peer!.write({ ...baseSynth, sysUpTime: 1_300, inOctets: 1_650n, outOctets: 100n, inErrors: 0 });
      const fourth = await session.read(items);
      expect(fourth.values.get(1)).toBe(1_000);
      expect(fourth.values.get(2)).toBe(0);
    } finally {
      await session.close();
    }
  }, 20_000);

  it('a port that goes down opens a port-down alarm through the alarm engine, and it clears when the port is back', async () => {
    const raised: Array<BusEvent<'alarm.raised'>> = [];
    const recovered: Array<BusEvent<'alarm.recovered'>> = [];
    t.sitewatch.bus.subscribe('alarm.raised', (e) => raised.push(e));
    t.sitewatch.bus.subscribe('alarm.recovered', (e) => recovered.push(e));
    synth.peer!.write({ ...baseSynth, sysUpTime: 400_000 });
    const live = () => t.sitewatch.collector?.liveItem(ids.portDownItem);
    await untilSampled(() => live()?.value === 0 && live()?.state === monitorState.normal);
    // The synthetic port's link drops (admin still up).
    synth.peer!.write({ ...baseSynth, sysUpTime: 400_500, oper: 2 });
    await untilSampled(() => raised.some((e) => e.alarm.item_id === ids.portDownItem));
    const net = await ok('GET', `port_net?device_id=${ids.synthDevice}`);
    const port = net.ports[0];
    expect(port.metrics.port_down.value).toBe(1);
    expect(port.metrics.oper_status.value).toBe(2);
    expect(port.alarm).toBe(true);
    expect(net.device.ports_down).toBe(1);
    expect(net.device.alarms).toBeGreaterThanOrEqual(1);
    const overview = await ok('GET', 'net_resource_Manage/overview');
    expect(overview.ports_down).toBeGreaterThanOrEqual(1);
    synth.peer!.write({ ...baseSynth, sysUpTime: 401_000, oper: 1 });
    await untilSampled(() => recovered.some((e) => e.alarm.item_id === ids.portDownItem));
    // Shut down on purpose (admin down): not a port-down alarm. Two polls that read it are awaited.
    const before = raised.length;
    synth.peer!.write({ ...baseSynth, sysUpTime: 401_500, admin: 2, oper: 2 });
    await answers(ids.portDownItem, 2);
    expect(live()?.value).toBe(0);
    expect(raised.slice(before).some((e) => e.alarm.item_id === ids.portDownItem)).toBe(false);
    const shut = await ok('GET', `port_net?device_id=${ids.synthDevice}`);
    expect(shut.device.ports_down).toBe(0);
  }, 30_000);

  it('a site-restricted user sees only the network devices of their sites; a user without the page gets 403', async () => {
    const k = t.database.db.kysely;
    if ((await k.selectFrom('users').select('id').where('id', '=', 1).execute()).length === 0)
      await createUser(t.database.db, 'admin', 'Admin-Pass-123');
    await k.insertInto('roles').values({ id: 71, name: 'north net', remark: '', created_at: 0 }).execute();
    await k.insertInto('role_sites').values({ role_id: 71, site_id: ids.north }).execute();
    await k.insertInto('role_menus').values({ role_id: 71, menu_id: 106 }).execute();
    await k.insertInto('roles').values({ id: 72, name: 'north, no page', remark: '', created_at: 0 }).execute();
    await k.insertInto('role_sites').values({ role_id: 72, site_id: ids.north }).execute();
    const northId = await createUser(t.database.db, 'net-north', 'North-Pass-123', [71]);
    const noPageId = await createUser(t.database.db, 'net-nopage', 'Nopage-Pass-123', [72]);
    fakeTokens[`north-${dialect}`] = { user_id: northId, user_name: 'net-north', session_id: 1 };
    fakeTokens[`nopage-${dialect}`] = { user_id: noPageId, user_name: 'net-nopage', session_id: 1 };

    const all = await ok('GET', 'net_resource_Manage/overview');
    expect(all.data.map((d: { name: string }) => d.name).sort()).toEqual(['core-sw', 'edge-sw']);
    const north = await call('GET', 'net_resource_Manage/overview', undefined, `north-${dialect}`);
    expect(north.status).toBe(200);
    expect(north.body.data.data.map((d: { name: string }) => d.name)).toEqual(['core-sw']);
    expect(north.body.data.total).toBe(1);
    // Asking for the other site gives nothing of it.
    const other = await call(
      'GET',
      `net_resource_Manage/overview?device_group_id=${ids.south}`,
      undefined,
      `north-${dialect}`,
    );
    expect(other.body.data.data).toEqual([]);
    expect((await call('GET', `port_net?device_id=${ids.synthDevice}`, undefined, `north-${dialect}`)).status).toBe(
      404,
    );
    expect((await call('GET', `port_net?device_id=${ids.realDevice}`, undefined, `north-${dialect}`)).status).toBe(200);
    expect(
      (await call('GET', `net_resource_Manage/ports_walk?device_id=${ids.synthDevice}`, undefined, `north-${dialect}`))
        .status,
    ).toBe(404);
    expect((await call('GET', 'net_resource_Manage/overview', undefined, `nopage-${dialect}`)).status).toBe(403);
    expect((await call('GET', `port_net?device_id=${ids.realDevice}`, undefined, `nopage-${dialect}`)).status).toBe(
      403,
    );
    // Not a network device, or no such device: not found; a bad id: 400.
    expect((await call('GET', 'port_net?device_id=999999')).status).toBe(404);
    expect((await call('GET', 'port_net?device_id=abc')).status).toBe(400);
  });
});
