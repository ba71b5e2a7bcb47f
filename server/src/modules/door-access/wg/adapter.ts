import dgram from 'node:dgram';
import type { Timers } from '../../../clock/timers.ts';
import {
  type ControllerCard,
  ControllerError,
  type DoorController,
  type DoorEvent,
  type EventRead,
} from '../controller.ts';
import { checkReply, decode, encode, FrameError, fn } from './codec.ts';

/**
 * The WG / UHPPOTE adapter: one UDP socket per controller, one request at a time (the controllers
 * answer one at a time anyway), each retried on its timeout (the kernel's timers: a test's manual
 * clock drives it), each reply checked at the edge (`codec.ts`). A reply that does not check out
 * (a stale duplicate, a garbled frame, another controller's) is counted and ignored: the request
 * waits on for its own, and retries when its timeout comes. Requests carry a sequence number at
 * bytes 40..43, which WG controllers echo; a reply echoing another request's number is stale.
 */

export interface WgAdapterOptions {
  serial: number;
  address: string;
  port?: number;
  timers: Timers;
  /** Per attempt (default 2 000 ms). */
  timeoutMs?: number;
  /** Attempts after the first (default 2). */
  retries?: number;
  /** The shared event listener, when events are pushed to Sitewatch. */
  listener?: WgListener;
}

export interface WgAdapter extends DoorController {
  /** Replies refused at the edge (bad frames, stale duplicates). */
  readonly refused: () => number;
  /** Tells the controller where to push its events. */
  setListener(address: string, port: number): Promise<boolean>;
}

interface Waiting {
  seq: number;
  accept: (reply: Buffer) => unknown;
  resolve: (value: unknown) => void;
}

export const createWgAdapter = async (opts: WgAdapterOptions): Promise<WgAdapter> => {
  const socket = dgram.createSocket('udp4');
  const port = opts.port ?? 60000;
  const timeoutMs = opts.timeoutMs ?? 2000;
  const retries = opts.retries ?? 2;
  let seq = 0;
  let refused = 0;
  let closed = false;
  let waiting: Waiting | null = null;
  /** Ends the attempt in flight at once (on close: nothing waits for a timer after it). */
  let abort: (() => void) | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  socket.on('message', (reply) => {
    const w = waiting;
    if (!w) {
      refused += 1;
      return;
    }
    try {
      if (reply.length >= 44) {
        const echoed = reply.readUInt32LE(40);
        if (echoed !== 0 && echoed !== w.seq) throw new FrameError('stale reply');
      }
      const value = w.accept(reply);
      waiting = null;
      w.resolve(value);
    } catch (err) {
      if (!(err instanceof FrameError) && !(err instanceof RangeError)) throw err;
      refused += 1;
    }
  });
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.bind(0, resolve));

  const attempt = (request: Buffer, w: Omit<Waiting, 'resolve'>) =>
    new Promise<{ ok: true; value: unknown } | { ok: false }>((resolve) => {
      const timer = opts.timers.setTimeout(() => {
        if (waiting?.seq === w.seq) waiting = null;
        resolve({ ok: false });
      }, timeoutMs);
      abort = () => {
        opts.timers.clearTimeout(timer);
        waiting = null;
        resolve({ ok: false });
      };
      waiting = {
        ...w,
        resolve: (value) => {
          opts.timers.clearTimeout(timer);
          resolve({ ok: true, value });
        },
      };
      socket.send(request, port, opts.address);
    });

  /** Sends `request` until a reply passes `accept`, or every attempt timed out. */
  const call = <T>(request: Buffer, fnCode: number, accept: (reply: Buffer) => T): Promise<T> => {
    const run = async () => {
      if (closed) throw new ControllerError('closed', 'controller connection closed');
      for (let i = 0; i <= retries; i++) {
        seq = (seq % 0xfffffffe) + 1;
        request.writeUInt32LE(seq, 40);
        const result = await attempt(request, {
          seq,
          accept: (reply) => {
            checkReply(reply, fnCode, opts.serial);
            return accept(reply);
          },
        });
        if (result.ok) return result.value as T;
        if (closed) throw new ControllerError('closed', 'controller connection closed');
      }
      throw new ControllerError('timeout', `controller ${opts.serial} did not answer`);
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  const s = opts.serial;
  const readCard = (reply: Buffer) => decode.card(reply);
  const subscribers = new Set<(e: DoorEvent) => void>();
  const detach = opts.listener?.attach(s, (e) => {
    for (const sub of subscribers) sub(e);
  });

  const adapter: WgAdapter = {
    refused: () => refused,
    probe: () => call(encode.getDevice(s), fn.getDevice, decode.device),
    status: () => call(encode.getStatus(s), fn.getStatus, decode.status),
    openDoor: (door) => call(encode.openDoor(s, door), fn.openDoor, decode.ok),
    setDoorMode: (door, mode, delay) =>
      call(encode.setDoorControl(s, door, mode, delay), fn.setDoorControl, (r) => {
        const got = decode.doorControl(r);
        if (got.door !== door) throw new FrameError(`door ${got.door} answered for ${door}`);
        return { mode: got.mode, delaySeconds: got.delaySeconds };
      }),
    getDoorMode: (door) =>
      call(encode.getDoorControl(s, door), fn.getDoorControl, (r) => {
        const got = decode.doorControl(r);
        if (got.door !== door) throw new FrameError(`door ${got.door} answered for ${door}`);
        return { mode: got.mode, delaySeconds: got.delaySeconds };
      }),
    putCard: (card) => call(encode.putCard(s, card), fn.putCard, decode.ok),
    deleteCard: (card) => call(encode.deleteCard(s, card), fn.deleteCard, decode.ok),
    deleteAllCards: () => call(encode.deleteCards(s), fn.deleteCards, decode.ok),
    getCard: (card) =>
      call(encode.getCardById(s, card), fn.getCardById, (r) => {
        const got = readCard(r);
        if (got && got.card !== card) throw new FrameError('another card answered');
        return got;
      }),
    async listCards() {
      const count = await call(encode.getCards(s), fn.getCards, decode.cardCount);
      const out: ControllerCard[] = [];
      const seen = new Set<number>();
      // Deleted cards leave holes in the controller's table: read until `count` cards are found.
      for (let index = 1; out.length < count && index <= count + 10_000; index++) {
        const card = await call(encode.getCardByIndex(s, index), fn.getCardByIndex, readCard);
        if (card && !seen.has(card.card)) {
          seen.add(card.card);
          out.push(card);
        }
        if (!card && index > count * 2) break;
      }
      return out;
    },
    setTime: (local) => call(encode.setTime(s, local), fn.setTime, decode.time),
    getTime: () => call(encode.getTime(s), fn.getTime, decode.time),
    lastEventIndex: () => call(encode.getEventIndex(s), fn.getEventIndex, decode.eventIndex),
    event: (index): Promise<EventRead> => call(encode.getEvent(s, index), fn.getEvent, (r) => decode.event(r, index)),
    setListener: (address, listenPort) => call(encode.setListener(s, address, listenPort), fn.setListener, decode.ok),
    subscribe(onEvent) {
      subscribers.add(onEvent);
      return () => subscribers.delete(onEvent);
    },
    async close() {
      closed = true;
      detach?.();
      abort?.();
      await queue;
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
  return adapter;
};

/**
 * The one UDP port controllers push their events to (each frame a status frame, 0x20): it checks
 * every frame at the edge and hands each event to the adapter of its serial. Frames from a serial
 * nobody attached, and frames that do not check out, are counted and dropped.
 */
export interface WgListener {
  readonly port: number;
  attach(serial: number, onEvent: (event: DoorEvent) => void): () => void;
  refused(): number;
  close(): Promise<void>;
}

export const startWgListener = async (address = '127.0.0.1', port = 0): Promise<WgListener> => {
  const socket = dgram.createSocket('udp4');
  const handlers = new Map<number, (event: DoorEvent) => void>();
  let refused = 0;
  socket.on('message', (bytes) => {
    try {
      const serial = checkReply(bytes, fn.getStatus, 0);
      const status = decode.status(bytes);
      const handler = handlers.get(serial);
      if (!handler || !status.lastEvent) throw new FrameError('not ours');
      handler(status.lastEvent);
    } catch {
      refused += 1;
    }
  });
  // A port taken or an address not this host's refuses the start (the area logs it and goes on):
  // an error event that nobody waits for would leave the bind, and the server's start, pending forever.
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, address, () => {
      socket.off('error', reject);
      resolve();
    });
  }).catch((err) => {
    socket.close();
    throw err;
  });
  socket.on('error', () => {});
  return {
    port: socket.address().port,
    attach(serial, onEvent) {
      handlers.set(serial, onEvent);
      return () => handlers.delete(serial);
    },
    refused: () => refused,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
};
