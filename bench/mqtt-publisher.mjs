// bench:e2e's MQTT load: one publisher process (bench/e2e.ts forks two). It writes QoS 0 PUBLISH
// packets (MQTT 3.1.1 §3.3) straight to its socket, a tick's worth in one write, instead of going
// through mqtt.js: that client spends several µs of CPU per publish, and at 100 000 messages/s the
// load generator took a large share of the two cores the product is measured on.
//   node mqtt-publisher.mjs <port> <rate/s> <seconds> <part> <parts>   (topics: BENCH_TOPICS, a JSON file)
// Every topic carries a constant value from 20.0 to 24.9 (as the mqtt.js publisher did), and the
// process tells its count of messages written every second (`process.send({ sent })`).
import { readFileSync } from 'node:fs';
import net from 'node:net';

const [port, rate, seconds, part, parts] = process.argv.slice(2).map(Number);
const topics = JSON.parse(readFileSync(process.env.BENCH_TOPICS, 'utf8')).filter((_, i) => i % parts === part);

/** The remaining length's variable-length bytes (§2.2.3). */
const varint = (n) => {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 128;
    out.push(byte);
  } while (n > 0);
  return out;
};
const utf8 = (text) => {
  const b = Buffer.from(text);
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
};
const packet = (type, body) => Buffer.concat([Buffer.from([type, ...varint(body.length)]), body]);

const publishes = topics.map((topic, i) =>
  packet(0x30, Buffer.concat([utf8(topic), Buffer.from(String(20 + (i % 50) / 10))])),
);

const socket = net.connect(port, '127.0.0.1');
socket.setNoDelay(true);
await new Promise((resolve, reject) => {
  socket.once('connect', resolve);
  socket.once('error', reject);
});
// CONNECT: protocol "MQTT" level 4, clean session, no keep-alive; then wait for CONNACK (return code 0).
socket.write(
  packet(0x10, Buffer.concat([utf8('MQTT'), Buffer.from([4, 2, 0, 0]), utf8(`bench-publisher-${process.pid}`)])),
);
const connack = await new Promise((resolve) => socket.once('data', resolve));
if (connack[0] !== 0x20 || connack[3] !== 0)
  throw new Error(`broker refused the connection: ${connack.toString('hex')}`);
socket.on('error', () => process.exit(0));

const started = performance.now();
let sent = 0;
let last = started;
// At most 50 ms of messages per write, so a publisher that fell behind catches up in steps.
const most = Math.max(1, Math.ceil(rate / 20));
while (performance.now() - started < seconds * 1000) {
  const due = Math.floor(((performance.now() - started) / 1000) * rate);
  const n = Math.min(due - sent, most);
  if (n > 0) {
    const chunk = new Array(n);
    for (let k = 0; k < n; k++) chunk[k] = publishes[(sent + k) % publishes.length];
    sent += n;
    // The kernel's buffer full: wait for the broker to read (what is not written is not counted late).
    if (!socket.write(Buffer.concat(chunk))) await new Promise((resolve) => socket.once('drain', resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 2));
  if (performance.now() - last >= 1000) {
    last = performance.now();
    process.send({ sent });
  }
}
socket.end();
