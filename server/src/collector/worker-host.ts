import { Worker } from 'node:worker_threads';
import type { Answer } from './answer.ts';
import type { PolledDevice } from './devices.ts';
import type { DriverRecipe } from './drivers/index.ts';
import type { Poller, PollerEvents } from './poller.ts';
import type { FromWorker, ToWorker, WorkerData } from './worker-protocol.ts';

/** Items one install message carries at most. */
const installPartItems = 5_000;

/** The loops' events as the main thread takes them: answers as numbers (answer.ts). */
export type HostEvents = Omit<PollerEvents, 'answer'> & {
  answer(deviceId: number, gen: number, answer: Answer, tsMs: number, pushed: boolean): void;
};

/**
 * The worker's code: from source (tests, `SITEWATCH_FROM_SOURCE=1`) worker.ts through tsx, which
 * worker-boot.mjs registers first; from the build, dist/collector-worker.js beside dist/main.js
 * (one bundle per entry, server/build.mjs).
 */
const startWorker = (data: WorkerData): Worker =>
  new Worker(
    new URL(import.meta.url.endsWith('.ts') ? './worker-boot.mjs' : './collector-worker.js', import.meta.url),
    {
      workerData: data,
    },
  );

/**
 * Starts the collector worker and answers once it is ready (rejects when it cannot start: the
 * collector then polls in-process). Devices, removals, writes and stop go to it as messages;
 * its batches come back as `events`, in order. A worker that dies is started again with the
 * devices it had (logged).
 */
export const startPollerWorker = async (
  recipes: DriverRecipe[],
  events: HostEvents,
  maxBackoffMs: number | undefined,
  log?: { warn(obj: object, msg: string): void; error?(obj: object, msg: string): void },
): Promise<Poller> => {
  const installed = new Map<number, { device: PolledDevice; gen: number }>();
  const pending = new Map<number, { resolve: () => void; reject: (err: unknown) => void }>();
  let nextReq = 1;
  let stopping = false;
  let installs: Array<{ device: PolledDevice; gen: number }> = [];
  let worker: Worker;

  type Batch = Extract<FromWorker, { type: 'batch' }>;
  /** A batch being taken, and where: its next segment, event, reason and value. */
  interface Taking {
    b: Batch;
    from: Worker;
    s: number;
    e: number;
    err: number;
    /** The next entry of `reads`. */
    r: number;
    offset: number;
  }
  /**
   * Takes the batch's events and answers from where it stopped until it is done (true) or
   * `deadline` (performance.now()) passes after an answer (false).
   */
  const takeBatch = (t: Taking, deadline: number): boolean => {
    const { b } = t;
    const segments = b.h.length / 5;
    for (;;) {
      const s = t.s;
      while (t.e < b.events.length && b.events[t.e]!.at === s) {
        const v = b.events[t.e++]!;
        if (v.k === 'empty') events.empty(v.d, v.g);
        else if (v.k === 'alive') events.alive(v.d, v.g, v.recovered);
        else if (v.k === 'opened') events.opened(v.d, v.g, v.since, v.pushes);
        else events.failed(v.d, v.g, v.reason, v.ts, v.failures);
      }
      if (s === segments) return true;
      const count = b.h[s * 5 + 4]!;
      let reasons: Map<number, string> | null = null;
      while (t.err < b.errors.length && b.errors[t.err]![0] === s) {
        const [, id, reason] = b.errors[t.err++]!;
        reasons ??= new Map();
        reasons.set(id, reason);
      }
      let read: Set<number> | null = null;
      if (t.r < b.reads.length && b.reads[t.r]![0] === s) read = new Set(b.reads[t.r++]![1]);
      const answer: Answer = {
        ids: b.ids,
        values: b.values,
        from: t.offset,
        to: t.offset + count,
        errors: reasons,
        read,
      };
      // Moved past before it is taken: an answer that throws is not taken twice.
      t.offset += count;
      t.s = s + 1;
      events.answer(b.h[s * 5]!, b.h[s * 5 + 1]!, answer, b.h[s * 5 + 2]!, b.h[s * 5 + 3] === 1);
      if (performance.now() > deadline) return false;
    }
  };

  /**
   * Batches wait here and are taken a slice of at most `sliceMs` a turn: a port delivers every
   * message it holds in one go, and a main thread behind would take tens of thousands of values
   * without letting a timer, a socket or an HTTP request in (event-loop lag). Each batch is
   * acknowledged when it is all taken, so the worker's back-pressure still counts it.
   */
  const sliceMs = 8;
  const queue: Taking[] = [];
  let draining: NodeJS.Immediate | null = null;
  const drain = (deadline = performance.now() + sliceMs) => {
    draining = null;
    while (queue.length > 0) {
      const t = queue[0]!;
      let done: boolean;
      try {
        done = takeBatch(t, deadline);
      } catch (err) {
        // The batch goes on after the event or answer that threw.
        log?.warn({ err }, 'the collector could not take an answer');
        continue;
      }
      if (!done) break;
      queue.shift();
      // Taken: the worker's polls may go on (worker.ts, back-pressure).
      if (t.from === worker)
        t.from.postMessage({ type: 'ack', n: t.b.h.length / 5 + t.b.ids.length } satisfies ToWorker);
      if (performance.now() > deadline) break;
    }
    if (queue.length > 0) draining ??= setImmediate(drain);
  };

  const spawn = () =>
    new Promise<Worker>((resolve, reject) => {
      const w = startWorker({ recipes, maxBackoffMs });
      // Like the collector's timers, the thread alone does not keep the process running.
      w.unref();
      let ready = false;
      w.on('message', (m: FromWorker) => {
        if (m.type === 'batch') {
          queue.push({ b: m, from: w, s: 0, e: 0, err: 0, r: 0, offset: 0 });
          draining ??= setImmediate(drain);
        } else if (m.type === 'ready') {
          ready = true;
          resolve(w);
        } else {
          const p = pending.get(m.req);
          pending.delete(m.req);
          if (m.error === undefined) p?.resolve();
          else p?.reject(m.plain ? { message: m.error } : new Error(m.error));
        }
      });
      w.on('error', (err) => {
        if (!ready) reject(err);
        else log?.warn({ err }, 'the collector worker failed');
      });
      w.on('exit', (code) => {
        if (!ready) return reject(new Error(`the collector worker exited (${code}) while starting`));
        for (const p of pending.values()) p.reject(new Error('the collector worker stopped'));
        pending.clear();
        if (stopping) return;
        // Polling must go on: a new worker takes the same devices (their next polls say how they are).
        (log?.error ?? log?.warn)?.call(log, { code }, 'the collector worker exited; starting it again');
        void spawn().then(
          (next) => {
            worker = next;
            postInstalls(installed.values());
          },
          (err) => log?.warn({ err }, 'the collector worker could not be started again'),
        );
      });
    });

  const post = (m: ToWorker) => worker.postMessage(m);
  // Omit over each member of the union (a plain Omit of a union keeps only the shared fields).
  type Request = Extract<ToWorker, { req: number }>;
  const request = (m: Request extends infer R ? (R extends Request ? Omit<R, 'req'> : never) : never) =>
    new Promise<void>((resolve, reject) => {
      const req = nextReq++;
      pending.set(req, { resolve, reject });
      flushInstalls();
      post({ ...m, req } as ToWorker);
    });
  // Installs of one turn (a start, a reload of all devices) go together, in parts.
  const flushInstalls = () => {
    if (installs.length === 0) return;
    postInstalls(installs);
    installs = [];
  };
  /**
   * Devices go to the worker in messages of at most `installPartItems` items, each item with only
   * what its driver reads (no name, device or maximum age): one message of 100 000 items made the
   * worker hold its serialized copy and the whole clone at once, doubling its heap at start-up
   * (issue 18, memory). Messages keep their order, so a later remove or write still follows.
   */
  const postInstalls = (list: Iterable<{ device: PolledDevice; gen: number }>) => {
    let part: Array<{ device: PolledDevice; gen: number }> = [];
    let items = 0;
    for (const { device, gen } of list) {
      const polled: PolledDevice = {
        ...device,
        items: device.items.map(({ id, value_type, source, check_interval }) => ({
          id,
          value_type,
          source,
          check_interval,
        })),
      };
      part.push({ device: polled, gen });
      items += polled.items.length;
      if (items >= installPartItems) {
        post({ type: 'install', devices: part });
        part = [];
        items = 0;
      }
    }
    if (part.length > 0) post({ type: 'install', devices: part });
  };

  worker = await spawn();
  return {
    install(device, gen) {
      installed.set(device.id, { device, gen });
      if (installs.length === 0) queueMicrotask(flushInstalls);
      installs.push({ device, gen });
    },
    async remove(deviceId) {
      installed.delete(deviceId);
      await request({ type: 'remove', deviceId });
    },
    write: (deviceId, itemId, value) => request({ type: 'write', deviceId, itemId, value }),
    async stop() {
      stopping = true;
      installed.clear();
      await request({ type: 'stop' }).catch(() => undefined);
      // What the worker sent before it stopped is taken now, as it would have been before the reply.
      if (draining) clearImmediate(draining);
      drain(Number.POSITIVE_INFINITY);
      await worker.terminate();
    },
  };
};
