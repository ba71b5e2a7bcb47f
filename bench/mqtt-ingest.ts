// Benchmark: MQTT ingest from Debian's mosquitto into stored, evaluated samples (issue 13, Must show).
// The benchmark starts mosquitto on a free loopback port with a generated config, and the whole
// server on SQLite (collector with the MQTT driver, alarm engine, series store, push channel). A
// publisher in a separate process sends BENCH_RATE messages/s for BENCH_SECONDS, round-robin over
// BENCH_ITEMS topics (one number each). Every message is one sample: judged by the alarm engine as it
// arrives and written by the series store. Meanwhile probe items get one message a second each,
// alternating 20 and 35 °C (threshold 30): the time from publish to the browser's push message
// (alarm raise/recover, and the live value) is measured on a WebSocket client of /api/v1/ws.
// Prints messages/s offered, judged and stored, and the publish→push latencies p50/p99.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { createSitewatch } from '../server/src/app.ts';
import { mqttDriver } from '../server/src/collector/drivers/mqtt.ts';
import { openDb } from '../server/src/db/kysely.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createLoginKey, generateLoginKeyPem } from '../server/src/modules/auth/index.ts';
import { createPushHub } from '../server/src/push/hub.ts';
import { createSeriesStore } from '../server/src/series/store.ts';
import { startMosquitto } from '../server/test/helpers/mosquitto.ts';
import { seedEstate } from './estate.ts';

const items = Number(process.env.BENCH_ITEMS ?? 1000);
const rate = Number(process.env.BENCH_RATE ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const probes = Number(process.env.BENCH_PROBES ?? 20);
const perDevice = 10;

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-mqtt-'));
const broker = await startMosquitto();
const db = openDb({ dataDir });
await migrateToLatest(db.kysely);

// The estate: load devices of 10 items, each item on its own topic; one probe device.
const load = await seedEstate(db, { items, perDevice, siteName: 'mqtt load' });
const probe = await seedEstate(db, { items: probes, perDevice: probes, siteName: 'mqtt probes' });
const topicOf = new Map<number, string>();
await db.kysely.transaction().execute(async (trx) => {
  for (const d of [...load.devices, ...probe.devices]) {
    await trx
      .updateTable('devices')
      .set({ driver: 'mqtt', ip: '127.0.0.1', port: broker.port, check_interval: 10 })
      .where('id', '=', d.id)
      .execute();
    for (const [k, id] of d.items.entries()) {
      topicOf.set(id, `bench/${d.id}/p${k}`);
      const source = { kind: 'mqtt', topic: `bench/{device_id}/p${k}`, json_path: '', scale: 1, command_topic: '' };
      await trx
        .updateTable('items')
        .set({ source: JSON.stringify(source), threshold_min: 0, threshold_max: 30, max_age: 300 })
        .where('id', '=', id)
        .execute();
    }
  }
});
const loadTopics = load.devices.flatMap((d) => d.items.map((id) => topicOf.get(id)!));
const probeItems = probe.devices[0]!.items;

// The real app on a port.
const push = createPushHub();
const series = createSeriesStore(db, { flushEveryMs: 1000 });
const sitewatch = await createSitewatch({
  db,
  push,
  drivers: { mqtt: mqttDriver },
  series,
  loginKey: createLoginKey(generateLoginKeyPem()),
  authenticator: {
    authenticate: async (token) =>
      token === 'bench' ? { principal: { user_id: 1, user_name: 'admin', session_id: 1 } } : { reason: 'unknown' },
  },
  logLevel: 'warn',
});
const { app, bus } = sitewatch;
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as { port: number }).port;
let judged = 0;
// First and last judged sample of the load phase: the rate is taken over that span.
const span = { measuring: false, first: 0, last: 0 };
bus.subscribe('sample', (e) => {
  if (e.value === null) return;
  judged += 1;
  if (!span.measuring) return;
  const t = performance.now();
  if (span.first === 0) span.first = t;
  span.last = t;
});
await sitewatch.start();

// Wait until every device has subscribed: items that have not had a value yet are sent one again.
const setup = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
const seen = new Set<number>();
const unsubscribe = bus.subscribe('sample', (e) => {
  if (e.value !== null) seen.add(e.item_id);
});
const until = Date.now() + 30_000;
while (seen.size < topicOf.size && Date.now() < until) {
  for (const [id, topic] of topicOf) if (!seen.has(id)) setup.publish(topic, '20');
  await new Promise((r) => setTimeout(r, 300));
}
unsubscribe();
if (seen.size < topicOf.size) throw new Error(`only ${seen.size} of ${topicOf.size} items subscribed`);
await new Promise((r) => setTimeout(r, 500));
await series.flush();
const storedSum = async () =>
  Number(
    (
      await db.kysely
        .selectFrom('sample_chunks')
        .select((eb) => eb.fn.sum<number>('n').as('n'))
        .executeTakeFirstOrThrow()
    ).n ?? 0,
  );
const storedBefore = await storedSum();

// The browser side: signed in, watching every site.
const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`);
await new Promise((resolve) => ws.once('open', resolve));
ws.send(JSON.stringify({ type: 'auth', token: 'bench' }));
await new Promise((resolve) => ws.once('message', resolve));
ws.send(JSON.stringify({ type: 'watch', site_ids: null }));
const probeSent = new Map<number, { value: number; at: number }>();
const alarmLatencies: number[] = [];
const liveLatencies: number[] = [];
ws.on('message', (raw: Buffer) => {
  const at = performance.now();
  const m = JSON.parse(raw.toString('utf8')) as {
    type: string;
    event?: string;
    alarm?: { item_id: number; value: number | null };
    items?: Array<{ id: number; value: number | null }>;
  };
  if (m.type === 'alarm' && (m.event === 'raise' || m.event === 'recover') && m.alarm) {
    const sent = probeSent.get(m.alarm.item_id);
    if (sent) alarmLatencies.push(at - sent.at);
  }
  if (m.type === 'live') {
    for (const i of m.items ?? []) {
      const sent = probeSent.get(i.id);
      if (sent && i.value === sent.value) {
        liveLatencies.push(at - sent.at);
        probeSent.set(i.id, { ...sent, value: Number.NaN });
      }
    }
  }
});

// The load: a separate process publishes at the offered rate (QoS 0, as sensors do).
const publisherFile = path.join(dataDir, 'publisher.mjs');
writeFileSync(
  publisherFile,
  `import mqtt from ${JSON.stringify(import.meta.resolve('mqtt'))};
const [port, rate, seconds] = process.argv.slice(2).map(Number);
const topics = JSON.parse(process.env.BENCH_TOPICS);
const client = await mqtt.connectAsync('mqtt://127.0.0.1:' + port);
const started = performance.now();
let sent = 0;
while (performance.now() - started < seconds * 1000) {
  const due = Math.floor(((performance.now() - started) / 1000) * rate);
  while (sent < due) {
    client.publish(topics[sent % topics.length], String(20 + (sent % 50) / 10));
    sent += 1;
  }
  await new Promise((r) => setTimeout(r, 2));
}
await client.endAsync();
process.send({ sent, seconds: (performance.now() - started) / 1000 });
`,
);
const judgedBefore = judged;
span.measuring = true;
const publisher = fork(publisherFile, [String(broker.port), String(rate), String(seconds)], {
  env: { ...process.env, BENCH_TOPICS: JSON.stringify(loadTopics) },
});
const published = new Promise<{ sent: number; seconds: number }>((resolve) =>
  publisher.once('message', resolve as never),
);

// Probes: one message a second per probe item, alternating 35 (raise) and 20 (recover).
const prober = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
let round = 0;
let probesSent = 0;
const probeTimer = setInterval(() => {
  round += 1;
  for (const [k, id] of probeItems.entries()) {
    setTimeout(
      () => {
        const value = round % 2 === 1 ? 35 + k / 100 : 20 + k / 100;
        probeSent.set(id, { value, at: performance.now() });
        probesSent += 1;
        prober.publish(topicOf.get(id)!, String(value));
      },
      (k * 1000) / probeItems.length,
    );
  }
}, 1000);

const result = await published;
clearInterval(probeTimer);
// Let the last messages arrive and be judged (the span includes this drain), then write everything
// that waits.
let last = -1;
while (judged !== last) {
  last = judged;
  await new Promise((r) => setTimeout(r, 250));
}
const elapsed = (span.last - span.first) / 1000;
const flushStarted = performance.now();
await series.flush();
const finalFlushMs = performance.now() - flushStarted;
const stored = (await storedSum()) - storedBefore;
const pct = (list: number[], p: number) => {
  const s = [...list].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0) * 10) / 10;
};
const judgedLoad = judged - judgedBefore;
console.log(
  JSON.stringify(
    {
      database: db.dialect,
      broker: 'Debian mosquitto (loopback)',
      load_items: items,
      offered_messages_per_s: rate,
      published: result.sent,
      publish_seconds: Math.round(result.seconds * 10) / 10,
      sent_with_probes: result.sent + probesSent,
      judged_samples: judgedLoad,
      judged_seconds: Math.round(elapsed * 10) / 10,
      judged_per_s: Math.round(judgedLoad / elapsed),
      stored_samples: stored,
      stored_per_s: Math.round(stored / elapsed),
      lost: result.sent + probesSent - stored,
      flush_ms_p50: pct(series.flushLatencies(), 50),
      flush_ms_p99: pct(series.flushLatencies(), 99),
      final_flush_ms: Math.round(finalFlushMs),
      alarm_push_ms: { n: alarmLatencies.length, p50: pct(alarmLatencies, 50), p99: pct(alarmLatencies, 99) },
      live_push_ms: { n: liveLatencies.length, p50: pct(liveLatencies, 50), p99: pct(liveLatencies, 99) },
    },
    null,
    2,
  ),
);
ws.close();
await prober.endAsync(true);
await setup.endAsync(true);
await app.close();
await db.close();
await broker.destroy();
rmSync(dataDir, { recursive: true, force: true });
