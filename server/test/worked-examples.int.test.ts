import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { modbusTcpDriver } from '../src/collector/drivers/modbus-tcp.ts';
import { mqttDriver } from '../src/collector/drivers/mqtt.ts';
import { snmpDriver } from '../src/collector/drivers/snmp.ts';
import { modbusPeer, mqttPeer, snmpdAvailable, snmpdPeer } from './conformance/peers.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/**
 * docs/integrator.md, run as written (issue 13, Build 5): every `http` block of the page is sent in
 * order, the device address replaced by a real peer on loopback (a Modbus TCP server, Debian's snmpd
 * serving UPS-MIB values, an MQTT broker); the `mosquitto_pub` message is published; the live values
 * must then match the page's `json answer` blocks. The page is the one source of the bodies.
 */

type Step =
  | { kind: 'http'; method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body: string | null }
  | { kind: 'publish'; topic: string; payload: string }
  | { kind: 'answer'; rows: Array<Record<string, unknown>> };

const page = readFileSync(new URL('../../docs/integrator.md', import.meta.url), 'utf8');

/** The page's sections ("## …") and, in each, its steps in order. */
const sections = page
  .split(/^## /m)
  .slice(1)
  .map((text) => {
    const title = text.slice(0, text.indexOf('\n'));
    const steps: Step[] = [];
    for (const m of text.matchAll(/^```(http|sh|json answer)\n([\s\S]*?)^```/gm)) {
      const [, lang, block] = m as unknown as [string, string, string];
      if (lang === 'http') {
        const [line, ...rest] = block.split('\n');
        const [method, path] = line!.trim().split(/\s+/) as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
        const body = rest.join('\n').trim();
        steps.push({ kind: 'http', method, path, body: body || null });
      } else if (lang === 'sh') {
        const topic = /-t '([^']+)'/.exec(block)?.[1];
        const payload = /-m '([^']+)'/.exec(block)?.[1];
        if (!topic || !payload) throw new Error(`no topic or message in ${block}`);
        steps.push({ kind: 'publish', topic, payload });
      } else steps.push({ kind: 'answer', rows: JSON.parse(block) });
    }
    return { title, steps };
  })
  .filter((s) => s.steps.length > 0);

// What the peers serve: the values the page's answers expect.
const ups = {
  '1.3.6.1.2.1.33.1.2.4.0': 95,
  '1.3.6.1.2.1.33.1.3.3.1.3.1': 229,
  '1.3.6.1.2.1.33.1.4.4.1.5.1': 41,
  '1.3.6.1.2.1.33.1.4.1.0': 3,
};
const snmpd = snmpdAvailable
  ? await snmpdPeer(Object.entries(ups).map(([oid, v]) => `override .${oid} integer ${v}`))
  : null;

describeEachDatabase('the worked examples of docs/integrator.md', (dialect) => {
  // Polls run on the app's own clock, moved by the test; the peers answer in real time.
  const t = useManualTestApp(dialect, {
    drivers: { 'modbus-tcp': modbusTcpDriver, snmp: snmpDriver, mqtt: mqttDriver },
  });
  /** Resolves at the first usable value of a device: polled (Modbus, SNMP) or told by the broker (MQTT). */
  const firstValue = (deviceId: number) =>
    new Promise<void>((resolve) => {
      const stop = t.sitewatch.bus.subscribe('samples', ({ ids, values, from, to }) => {
        for (let i = from; i < to; i++) {
          if (Number.isNaN(values[i]!) || t.sitewatch.collector?.deviceOfItem(ids[i]!) !== deviceId) continue;
          stop();
          return resolve();
        }
      });
    });
  const peers = {} as { modbus: Awaited<ReturnType<typeof modbusPeer>>; mqtt: Awaited<ReturnType<typeof mqttPeer>> };

  beforeAll(async () => {
    peers.modbus = await modbusPeer();
    // float32 230.5, 12.25, 2.75 (big-endian words), frequency 5000 (uint16), energy 1234567 (uint32).
    peers.modbus.holding.splice(0, 7, 0x4366, 0x8000, 0x4144, 0x0000, 0x4030, 0x0000, 5000);
    peers.modbus.holding.splice(20, 2, 0x0012, 0xd687);
    await peers.modbus.start();
    peers.mqtt = await mqttPeer();
    await peers.mqtt.start();
    if (snmpd) await snmpd.start();
    await t.sitewatch.start();
  });
  afterAll(async () => {
    await peers.modbus?.stop();
    await peers.mqtt?.stop();
    await snmpd?.stop();
  });

  it('the page has a site and three worked examples, each ending in an answer', () => {
    expect(sections.map((s) => s.title.split(' ').slice(0, 3).join(' '))).toEqual([
      'Before you start:',
      '1. A power',
      '2. A UPS',
      '3. A room',
    ]);
    for (const s of sections.slice(1)) expect(s.steps.at(-1)?.kind).toBe('answer');
  });

  const ids: Record<string, number> = {};
  const fill = (text: string) =>
    text.replace(/<(\w+)>/g, (all, name: string) => (ids[name] === undefined ? all : String(ids[name])));

  /** Sends a step as the page writes it; a device body gets the loopback peer's address. */
  const send = async (step: Step & { kind: 'http' }, address: { ip: string; port: number } | null) => {
    const url = fill(step.path);
    let payload: Record<string, unknown> | undefined;
    if (step.body) {
      payload = JSON.parse(fill(step.body));
      if (url === '/api/v1/setting/devices' && address) payload = { ...payload, ...address };
    }
    const res = await t.app.inject({
      method: step.method,
      url,
      headers: { authorization: 'Bearer admin-token', 'accept-language': 'en_us' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${step.method} ${url}: ${res.body}`).toBe(200);
    const data = res.json().data;
    if (step.method === 'POST' && url === '/api/v1/setting/device_groups') ids.site_id = data.id;
    if (step.method === 'POST' && url === '/api/v1/setting/devices') ids.device_id = data.id;
    if (step.method === 'POST' && url === '/api/v1/setting/device_templates') ids.template_id = data.id;
    return data;
  };

  const run = async (index: number, address: { ip: string; port: number } | null) => {
    const { steps } = sections[index]!;
    let last: Step & { kind: 'http' } = steps[0] as Step & { kind: 'http' };
    for (const step of steps) {
      if (step.kind === 'http') {
        last = step;
        await send(step, address);
      } else if (step.kind === 'publish') {
        await peers.mqtt.publish(fill(step.topic), step.payload);
      } else {
        // The answer of the last GET, once the device has been read: its first poll falls within its
        // 5 s interval (a retained MQTT message comes when the session subscribes).
        const read = firstValue(ids.device_id!);
        await t.clock.advance(5_000);
        await read;
        await t.sitewatch.settled();
        const rows: Array<Record<string, unknown>> = await send(last, address);
        expect(rows).toEqual(expect.arrayContaining(step.rows.map((r) => expect.objectContaining(close(r)))));
      }
    }
  };
  /** Numbers of an answer compared to 6 significant digits (float32 and scaled readings). */
  const close = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? expect.closeTo(v, 6) : v]));

  it('before you start: the site', async () => {
    await run(0, null);
    expect(ids.site_id).toBeGreaterThan(0);
  });

  it('1. the power meter over Modbus TCP, its points imported from CSV', async () => {
    await run(1, { ip: '127.0.0.1', port: peers.modbus.port });
  });

  it.skipIf(!snmpd)('2. the UPS over SNMP v2c (Debian snmpd serving UPS-MIB values)', async () => {
    await run(2, { ip: '127.0.0.1', port: snmpd!.port });
  });

  it('3. the room sensor over MQTT, from a template', async () => {
    await run(3, { ip: '127.0.0.1', port: peers.mqtt.port });
  });
});
