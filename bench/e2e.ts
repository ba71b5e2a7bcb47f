// bench:e2e (issue 18): the real product as `npm start` runs it (bench/product.ts: production build,
// fresh data dir), configured through its HTTP API only, polling Modbus TCP peers on loopback
// (e2e-sim.ts: modbus-serial servers in their own process, 100 holding registers per device read
// in one request) and told values by Debian's mosquitto (a publisher in its own process). Each
// phase starts its own product. Measured over BENCH_SECONDS after a warm-up: values/s polled and
// judged (sitewatch_samples_total), stored (samples − store pending − dropped), CPU of the server
// process (all its threads, /proc), RSS, the main thread's event-loop lag (prom-client, per 5 s
// scrape), /readyz latency, and alarm latency: a probe register flipped across its threshold at
// the device → the alarm push on a signed-in WebSocket client (and from the poll that read it).
// Fails when a target of issue 18 is missed: Modbus ≥ 120 000 values/s polled, stored and judged
// (less the window edges' 0.3 %, below) with event-loop lag p99 < 50 ms; MQTT ≥ 100 000 messages/s.
//   BENCH_PHASES=modbus,mqtt  BENCH_DEVICES=1200  BENCH_INTERVAL=1  BENCH_SECONDS=60  BENCH_SIM_PORTS=4
//   BENCH_MQTT_RATE=105000  BENCH_MQTT_DEVICES=100  BENCH_MQTT_PUBLISHERS=2
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startMosquitto } from '../server/test/helpers/mosquitto.ts';
import { type BenchProduct, startProduct } from './product.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const phases = (process.env.BENCH_PHASES ?? 'modbus,mqtt').split(',');
const devices = env('BENCH_DEVICES', 1200);
const interval = env('BENCH_INTERVAL', 1);
const seconds = env('BENCH_SECONDS', 60);
const simPorts = env('BENCH_SIM_PORTS', 4);
// 5 % over the target: offered exactly 100 000/s, the publishers themselves sent 99 905/s in the
// window and the product judged all of it (99 922), failing a check it had not missed. Offered more,
// the check measures the product, not the publishers' window edges.
const mqttRate = env('BENCH_MQTT_RATE', 105_000);
const mqttDevices = env('BENCH_MQTT_DEVICES', 100);
const mqttPublishers = env('BENCH_MQTT_PUBLISHERS', 2);
const targets = { modbusPerS: 120_000, lagP99Ms: 50, mqttPerS: 100_000 };
const perDevice = 100;

const root = path.resolve(import.meta.dirname, '..');
// The product runs the production build: rebuilt first when its sources are newer.
const built = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clock = () => performance.timeOrigin + performance.now();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const pct = (list: number[], p: number) => {
  const s = [...list].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN) * 10) / 10;
};
/**
 * CPU seconds of a process, all its threads (utime + stime of /proc/<pid>/stat), or of its main
 * thread alone (/proc/<pid>/task/<pid>/stat: the thread whose id is the process's).
 */
const cpuSeconds = (pid: number, mainThread = false) => {
  const file = mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** The server's own figures from /metrics (loopback may read it). */
const metrics = async (product: BenchProduct) => {
  const text = await (await fetch(`${product.base}/metrics`)).text();
  const get = (name: string) => Number(text.match(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm'))?.[1] ?? Number.NaN);
  return {
    samples: get('sitewatch_samples_total'),
    pending: get('sitewatch_series_pending'),
    dropped: get('sitewatch_series_dropped'),
    flushP99Ms: get('sitewatch_series_flush_p99_seconds') * 1000,
    rssMb: get('process_resident_memory_bytes') / 1e6,
    lagP99Ms: get('nodejs_eventloop_lag_p99_seconds') * 1000,
    lagMaxMs: get('nodejs_eventloop_lag_max_seconds') * 1000,
  };
};

/** A template of 100 points, a base device per port, copied (50 a call) up to `count` devices. */
const configure = async (
  product: BenchProduct,
  site: number,
  template: object,
  device: (port: number, index: number) => object,
  ports: number[],
  count: number,
) => {
  const { id: templateId } = await product.api('POST', 'setting/device_templates', template);
  const ids: number[] = [];
  for (const [i, port] of ports.entries()) {
    const share = Math.floor(count / ports.length) + (i < count % ports.length ? 1 : 0);
    if (share === 0) continue;
    const base = await product.api('POST', 'setting/devices', {
      ...device(port, i),
      device_group_id: site,
      template_id: templateId,
    });
    ids.push(base.id);
    for (let left = share - 1; left > 0; left -= 50) {
      const copies = await product.api('POST', `setting/devices/${base.id}/copy`, { count: Math.min(50, left) });
      ids.push(...copies.map((d: { id: number }) => d.id));
    }
  }
  return { templateId, ids };
};

interface Window {
  polledPerS: number;
  storedPerS: number;
  cpuPct: number;
  /** The main thread's CPU ms per 1 000 values: what it costs per value, whatever the load. */
  mainCpuMsPerK: number;
  rssMb: number;
  lagP99Ms: number;
  lagMaxMs: number;
  lagP99MedianMs: number;
  readyP99Ms: number;
  flushP99Ms: number;
  load: string;
}

/** Watches the server for `seconds`: rates from /metrics, CPU from /proc, lag per 5 s scrape, /readyz every 200 ms. */
const measure = async (product: BenchProduct, during?: () => void): Promise<Window> => {
  await metrics(product); // resets the lag histogram: the window's scrapes cover the window only
  const m0 = await metrics(product);
  const cpu0 = cpuSeconds(product.serverPid);
  const main0 = cpuSeconds(product.serverPid, true);
  const t0 = performance.now();
  const lagP99: number[] = [];
  const rss: number[] = [];
  const ready: number[] = [];
  let lagMax = 0;
  let nextScrape = t0 + 5000;
  while (performance.now() - t0 < seconds * 1000) {
    during?.();
    const r0 = performance.now();
    const res = await fetch(`${product.base}/readyz`).catch(() => null);
    await res?.arrayBuffer().catch(() => undefined);
    ready.push(res?.ok ? performance.now() - r0 : Number.POSITIVE_INFINITY);
    if (performance.now() >= nextScrape) {
      nextScrape += 5000;
      const m = await metrics(product);
      lagP99.push(m.lagP99Ms);
      lagMax = Math.max(lagMax, m.lagMaxMs);
      rss.push(m.rssMb);
    }
    await sleep(200);
  }
  const m1 = await metrics(product);
  const elapsed = (performance.now() - t0) / 1000;
  const stored = (m: typeof m0) => m.samples - m.pending - m.dropped;
  return {
    polledPerS: Math.round((m1.samples - m0.samples) / elapsed),
    storedPerS: Math.round((stored(m1) - stored(m0)) / elapsed),
    cpuPct: Math.round(((cpuSeconds(product.serverPid) - cpu0) / elapsed) * 100),
    mainCpuMsPerK:
      Math.round(((cpuSeconds(product.serverPid, true) - main0) * 1e8) / Math.max(1, m1.samples - m0.samples)) / 100,
    rssMb: Math.round(Math.max(m1.rssMb, ...rss)),
    lagP99Ms: Math.round(Math.max(0, ...lagP99) * 10) / 10,
    lagMaxMs: Math.round(lagMax * 10) / 10,
    lagP99MedianMs: pct(lagP99, 50),
    readyP99Ms: pct(ready, 99),
    flushP99Ms: Math.round(m1.flushP99Ms),
    load: load(),
  };
};

const signedInSocket = async (product: BenchProduct, watch: number[] | null) => {
  const ws = new WebSocket(`${product.base.replace('http', 'ws')}/api/v1/ws`);
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(JSON.stringify({ type: 'auth', token: product.headers.authorization!.slice('Bearer '.length) }));
  await new Promise((resolve) => ws.once('message', resolve));
  if (watch) ws.send(JSON.stringify({ type: 'watch', site_ids: watch }));
  return ws;
};

const started = async (name: string) => {
  const product = await startProduct(name, await freePort());
  await product.signIn();
  // The browser only signs in; the bench's own client watches (a page left open would add its load).
  await product.page.goto('about:blank');
  return product;
};

const modbusPoint = (k: number) => ({
  name: `r${k}`,
  value_type: 1,
  threshold_min: 0,
  threshold_max: 30,
  source: { kind: 'modbus', function: 3, register: k, data_type: 'uint16', byte_order: 'ABCD', bit: null, scale: 1 },
});

const modbusPhase = async () => {
  const sim = fork(path.join(import.meta.dirname, 'e2e-sim.ts'), [String(simPorts)]);
  const { ports, probePort } = await new Promise<{ ports: number[]; probePort: number }>((resolve) =>
    sim.once('message', resolve as never),
  );
  const product = await started('e2e-modbus');
  try {
    const site = (await product.api('POST', 'setting/device_groups', { name: 'bench modbus', weight: 1 })).id;
    const probeSite = (await product.api('POST', 'setting/device_groups', { name: 'bench probe', weight: 1 })).id;
    const template = {
      name: 'bench modbus 100',
      category_code: 'other',
      driver: 'modbus-tcp',
      items: Array.from({ length: perDevice }, (_, k) => modbusPoint(k)),
    };
    const device = (port: number, i: number) => ({
      name: `m-${i}`,
      driver: 'modbus-tcp',
      code: 'other',
      ip: '127.0.0.1',
      port,
      check_interval: interval,
      options: { timeout_ms: 3000, modbus_max_block: 100 },
    });
    const setupStart = performance.now();
    const { templateId } = await configure(product, site, template, device, ports, devices);
    const probe = await product.api('POST', 'setting/devices', {
      ...device(probePort, 0),
      name: 'probe',
      device_group_id: probeSite,
      template_id: templateId,
    });
    const probeItems = (await product.api('GET', `setting/items?device_id=${probe.id}&limit=100`)).data as Array<{
      id: number;
      name: string;
    }>;
    const registerOf = new Map(probeItems.map((i) => [i.id, Number(i.name.slice(1))]));
    console.error(
      `modbus: ${devices} devices × ${perDevice} registers every ${interval} s configured through the API in ${Math.round(
        (performance.now() - setupStart) / 1000,
      )} s; warming up (load ${load()})`,
    );
    await sleep(20_000);

    // Alarm latency: one probe register at a time flips across its threshold (20 ↔ 35).
    const ws = await signedInSocket(product, [probeSite]);
    const flips = new Map<number, { value: number; at: number; answered?: number }>();
    const fromDevice: number[] = [];
    const fromAnswer: number[] = [];
    sim.on('message', (m: { type: string; register: number; value: number; at: number }) => {
      const f = flips.get(m.register);
      if (m.type === 'flipped') flips.set(m.register, { value: m.value, at: m.at });
      else if (m.type === 'answered' && f && f.value === m.value) f.answered = m.at;
    });
    ws.on('message', (raw: Buffer) => {
      const at = clock();
      const m = JSON.parse(raw.toString('utf8')) as { type: string; event?: string; alarm?: { item_id: number } };
      if (m.type !== 'alarm' || (m.event !== 'raise' && m.event !== 'recover') || !m.alarm) return;
      const register = registerOf.get(m.alarm.item_id);
      const f = register === undefined ? undefined : flips.get(register);
      if (!f || register === undefined || (m.event === 'raise') !== f.value > 30) return;
      fromDevice.push(at - f.at);
      if (f.answered) fromAnswer.push(at - f.answered);
      flips.delete(register);
    });
    let round = 0;
    // 1–2 s apart at random, so flips do not lock in phase with the 1 s polls.
    let nextFlip = 0;
    const flip = () => {
      if (performance.now() < nextFlip) return;
      nextFlip = performance.now() + 1000 + Math.random() * 1000;
      const register = round % 10;
      const value = Math.floor(round / 10) % 2 === 0 ? 35 : 20;
      round += 1;
      sim.send({ type: 'flip', register, value });
    };
    const result = await measure(product, flip);
    ws.close();
    return {
      ...result,
      offeredPerS: Math.round((devices * perDevice) / interval),
      alarm: { n: fromDevice.length, flips: round, ...latencies(fromDevice, fromAnswer) },
    };
  } finally {
    await product.close();
    sim.kill();
  }
};

const latencies = (fromDevice: number[], fromAnswer: number[]) => ({
  deviceToPushP50Ms: pct(fromDevice, 50),
  deviceToPushP99Ms: pct(fromDevice, 99),
  answerToPushP50Ms: pct(fromAnswer, 50),
  answerToPushP99Ms: pct(fromAnswer, 99),
});

const mqttPhase = async () => {
  const broker = await startMosquitto();
  const product = await started('e2e-mqtt');
  const publishers: ChildProcess[] = [];
  const files: string[] = [];
  try {
    const site = (await product.api('POST', 'setting/device_groups', { name: 'bench mqtt', weight: 1 })).id;
    const template = {
      name: 'bench mqtt 100',
      category_code: 'other',
      driver: 'mqtt',
      items: Array.from({ length: perDevice }, (_, k) => ({
        name: `p${k}`,
        value_type: 1,
        threshold_min: 0,
        threshold_max: 30,
        source: { kind: 'mqtt', topic: `bench/{device_id}/p${k}`, json_path: '', scale: 1, command_topic: '' },
      })),
    };
    const device = (port: number, i: number) => ({
      name: `q-${i}`,
      driver: 'mqtt',
      code: 'other',
      ip: '127.0.0.1',
      port,
      check_interval: 10,
    });
    const { ids } = await configure(product, site, template, device, [broker.port], mqttDevices);
    const topics = ids.flatMap((id) => Array.from({ length: perDevice }, (_, k) => `bench/${id}/p${k}`));
    console.error(`mqtt: ${topics.length} topics on ${ids.length} devices; warming up (load ${load()})`);
    await sleep(15_000);
    const file = fileURLToPath(new URL('./mqtt-publisher.mjs', import.meta.url));
    // 10 000 topics are too long for a child's environment: they go in a file.
    const topicsFile = path.join(tmpdir(), `sitewatch-bench-e2e-topics-${process.pid}.json`);
    files.push(topicsFile);
    writeFileSync(topicsFile, JSON.stringify(topics));
    // Each publisher tells its count every second; the rate is taken over the window.
    const sentBy: number[] = [];
    for (let part = 0; part < mqttPublishers; part++) {
      const p = fork(file, [broker.port, mqttRate / mqttPublishers, seconds + 60, part, mqttPublishers].map(String), {
        env: { ...process.env, BENCH_TOPICS: topicsFile },
        execArgv: [],
      });
      publishers.push(p);
      sentBy.push(0);
      p.on('message', (m: { sent: number }) => {
        sentBy[part] = m.sent;
      });
    }
    await sleep(2000);
    const sum = () => sentBy.reduce((a, b) => a + b, 0);
    const sent0 = sum();
    const t0 = performance.now();
    const result = await measure(product);
    const publishedPerS = Math.round((sum() - sent0) / ((performance.now() - t0) / 1000));
    return { ...result, offeredPerS: mqttRate, publishedPerS };
  } finally {
    for (const p of publishers) p.kill();
    for (const f of files) rmSync(f, { force: true });
    await product.close();
    await broker.destroy();
  }
};

const rows: Array<Record<string, unknown>> = [];
const failures: string[] = [];
console.error(`bench:e2e: load average ${load()} at the start`);
if (phases.includes('modbus')) {
  const r = await modbusPhase();
  rows.push({ phase: 'modbus', ...r });
  console.error(JSON.stringify(rows.at(-1)));
  // The product cannot poll more than is offered (120 000/s), so a measured rate falls either side
  // of it by what the window's two edges catch: a poll more or less of some devices (100 values at
  // once, random phases) and the values still queued for the main thread (up to the lag max × the
  // rate). Four runs once polls kept their schedule (4213bfe): 119 804-120 312, i.e. -0.16/+0.26 %.
  // The check allows 0.3 % under and no more; the drift that schedule fixed cost 0.3-0.6 %.
  const modbusFloor = Math.floor(targets.modbusPerS * 0.997);
  if (r.polledPerS < modbusFloor) failures.push(`Modbus ${r.polledPerS} values/s < ${modbusFloor}`);
  if (r.storedPerS < modbusFloor) failures.push(`Modbus stored ${r.storedPerS}/s < ${modbusFloor}`);
  if (!(r.lagP99Ms < targets.lagP99Ms)) failures.push(`event-loop lag p99 ${r.lagP99Ms} ms >= ${targets.lagP99Ms} ms`);
}
if (phases.includes('mqtt')) {
  const r = await mqttPhase();
  rows.push({ phase: 'mqtt', ...r });
  if (r.polledPerS < targets.mqttPerS) failures.push(`MQTT ${r.polledPerS} messages/s < ${targets.mqttPerS}`);
}

const columns: Array<[string, (r: Record<string, unknown>) => unknown]> = [
  ['phase', (r) => r.phase],
  ['offered/s', (r) => r.offeredPerS],
  ['polled+judged/s', (r) => r.polledPerS],
  ['stored/s', (r) => r.storedPerS],
  ['CPU %', (r) => r.cpuPct],
  ['main thread CPU ms / 1 000 values', (r) => r.mainCpuMsPerK],
  ['RSS MB', (r) => r.rssMb],
  ['lag p99 max/median ms', (r) => `${r.lagP99Ms} / ${r.lagP99MedianMs}`],
  ['lag max ms', (r) => r.lagMaxMs],
  ['/readyz p99 ms', (r) => r.readyP99Ms],
  ['flush p99 ms', (r) => r.flushP99Ms],
  [
    'alarm p50/p99 ms (device→push; poll→push)',
    (r) => {
      const a = r.alarm as (ReturnType<typeof latencies> & { n: number }) | undefined;
      return a
        ? `${a.deviceToPushP50Ms}/${a.deviceToPushP99Ms}; ${a.answerToPushP50Ms}/${a.answerToPushP99Ms} (n ${a.n})`
        : '';
    },
  ],
  ['load at end', (r) => r.load],
];
console.log(`| ${columns.map(([c]) => c).join(' | ')} |`);
console.log(`| ${columns.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(`| ${columns.map(([, f]) => String(f(r) ?? '')).join(' | ')} |`);
console.log(JSON.stringify(rows));
if (failures.length > 0) {
  console.error(`FAIL: ${failures.join('; ')}`);
  process.exitCode = 1;
}
