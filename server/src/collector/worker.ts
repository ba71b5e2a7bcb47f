// The collector worker (worker-host.ts starts it): the device loops and drivers of poller.ts on a
// thread of their own, so polling, protocol decoding and the drivers' sockets use the second core.
// Each poll's answer goes to the main thread as numbers in transferable arrays, gathered per turn
// of this thread's event loop (worker-protocol.ts); the main thread judges, stores and shows them.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { encodeAnswer } from './answer.ts';
import type { PolledDevice } from './devices.ts';
import { errorText } from './driver.ts';
import { driversOf } from './drivers/index.ts';
import { createPoller } from './poller.ts';
import type { FromWorker, LoopEvent, ToWorker, WorkerData } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('the collector worker runs in a worker thread');
const post = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

const devices = new Map<number, PolledDevice>();
let h: number[] = [];
let ids: number[] = [];
let values: number[] = [];
let errors: Array<[number, number, string]> = [];
let reads: Array<[number, number[]]> = [];
let events: LoopEvent[] = [];
let scheduled = false;
/**
 * Back-pressure: answers and values posted that the main thread has not taken yet. Past the limit
 * (about 0.4 s of work at 120 000 values/s) polls wait until it has caught up to half of it, as
 * in-process polls wait for a busy thread: the message queue and memory stay bounded and the
 * main thread keeps time to answer HTTP.
 */
const unacknowledgedLimit = 50_000;
let unacknowledged = 0;
let closing = false;
let waiting: Array<() => void> = [];
const release = () => {
  const go = waiting;
  waiting = [];
  for (const resolve of go) resolve();
};

const flush = () => {
  scheduled = false;
  if (h.length === 0 && events.length === 0) return;
  const batch = {
    type: 'batch' as const,
    h: Float64Array.from(h),
    ids: Float64Array.from(ids),
    values: Float64Array.from(values),
    errors,
    reads,
    events,
  };
  unacknowledged += batch.h.length / 5 + batch.ids.length;
  h = [];
  ids = [];
  values = [];
  errors = [];
  reads = [];
  events = [];
  post(batch, [batch.h.buffer, batch.ids.buffer, batch.values.buffer] as ArrayBuffer[]);
};
const soon = () => {
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
};
const event = (e: LoopEvent) => {
  events.push(e);
  soon();
};
const segments = () => h.length / 5;

const data = workerData as WorkerData;
const poller = createPoller({
  drivers: driversOf(data.recipes),
  ...(data.maxBackoffMs !== undefined ? { maxBackoffMs: data.maxBackoffMs } : {}),
  gate: () =>
    closing || unacknowledged < unacknowledgedLimit ? null : new Promise<void>((resolve) => waiting.push(resolve)),
  events: {
    answer(deviceId, gen, result, tsMs, pushed, read) {
      const device = devices.get(deviceId);
      if (!device) return;
      const from = ids.length;
      const segment = segments();
      const reasons = encodeAnswer(device.items, result, pushed, ids, values);
      h.push(deviceId, gen, tsMs, pushed ? 1 : 0, ids.length - from);
      if (reasons) for (const [id, reason] of reasons) errors.push([segment, id, reason]);
      if (read) reads.push([segment, read.map((i) => i.id)]);
      soon();
    },
    empty: (d, g) => event({ k: 'empty', at: segments(), d, g }),
    alive: (d, g, recovered) => event({ k: 'alive', at: segments(), d, g, recovered }),
    opened: (d, g, since, pushes) => event({ k: 'opened', at: segments(), d, g, since, pushes }),
    failed: (d, g, reason, ts, failures) => event({ k: 'failed', at: segments(), d, g, reason, ts, failures }),
  },
});

const reply = (req: number, work: Promise<void>) =>
  work.then(
    () => {
      // What the loops said before the reply reaches the main thread before it.
      flush();
      post({ type: 'reply', req });
    },
    (err: unknown) => {
      flush();
      // Thrown as the driver threw it: an Error, or a plain object with a message (modbus-serial).
      post({ type: 'reply', req, error: errorText(err), plain: !(err instanceof Error) });
    },
  );

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'install':
      for (const { device, gen } of m.devices) {
        devices.set(device.id, device);
        poller.install(device, gen);
      }
      return;
    case 'remove':
      // Forgotten now, not when its loop has stopped: an install of the same device may come
      // while that loop finishes a poll, and its answers must not be dropped (docs/testing.md).
      devices.delete(m.deviceId);
      void reply(m.req, poller.remove(m.deviceId));
      return;
    case 'write':
      void reply(m.req, poller.write(m.deviceId, m.itemId, m.value));
      return;
    case 'ack':
      unacknowledged -= m.n;
      if (unacknowledged < unacknowledgedLimit / 2) release();
      return;
    case 'stop':
      // Loops waiting for the main thread stop rather than wait.
      closing = true;
      release();
      void reply(m.req, poller.stop());
      return;
  }
});
post({ type: 'ready' });

// SITEWATCH_MEMORY_LOG=<seconds>: this thread's own V8 heap on stderr (bench:memory accounts the
// process's RSS with it; the main thread's /metrics show only the main isolate).
const memoryLogS = Number(process.env.SITEWATCH_MEMORY_LOG ?? 0);
if (memoryLogS > 0)
  setInterval(() => {
    const h = getHeapStatistics();
    const mb = (n: number) => Math.round(n / 1e5) / 10;
    console.error(
      `collector worker heap: used ${mb(h.used_heap_size)} MB, total ${mb(h.total_heap_size)} MB, physical ${mb(h.total_physical_size)} MB, external ${mb(h.external_memory)} MB`,
    );
  }, memoryLogS * 1000).unref();
