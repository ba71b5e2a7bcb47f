import dgram from 'node:dgram';
import type { Timers } from '../../../clock/timers.ts';
import type { ControllerCard, DoorMode } from '../controller.ts';
import { FRAME, fn, frame, GUARD, MAGIC, readDate, writeDate, writeDateTime } from './codec.ts';

/**
 * A WG / UHPPOTE controller on loopback: it answers the real 64-byte frames on a UDP port, keeps
 * cards, doors, a ring of events and its clock, pushes each event to its listener, and injects
 * faults (drop, delay, duplicate, corrupt; `link down` drops every frame both ways while events
 * still go into the ring). The tests, the conformance suite and the demo use this one
 * (docs/door-access.md, "The simulator"). It binds 127.0.0.1 only.
 */

export interface SimulatorFaults {
  /** Replies to drop before answering again (a count, so tests are exact). */
  drop?: number;
  /** Milliseconds each reply waits (on the given timers). */
  delayMs?: number;
  /** Replies sent twice. */
  duplicate?: number;
  /** Replies with their bytes garbled (a bad magic, a BCD date that is not one, a short frame, in turn). */
  corrupt?: number;
}

export interface SimulatorOptions {
  serial: number;
  timers: Timers;
  /** Local wall time of the controller, `YYYY-MM-DD HH:mm:ss` (from the test's clock). */
  now: () => string;
  /** Events the ring keeps before it overwrites the oldest (real controllers: ~100 000). */
  ringSize?: number;
  port?: number;
  /** Answers every serial as its own (one simulator behind many test controllers; state shared). */
  anySerial?: boolean;
}

interface SimEvent {
  index: number;
  type: number;
  granted: boolean;
  door: number;
  direction: number;
  card: number;
  time: string;
  reason: number;
}

export interface WgSimulator {
  readonly serial: number;
  readonly port: number;
  readonly cards: Map<number, ControllerCard>;
  readonly doors: Map<number, { mode: DoorMode; delay: number; open: boolean }>;
  faults: SimulatorFaults;
  /** While false, nothing goes in or out (the events still go into the ring). */
  linkUp: boolean;
  /** Frames answered (requests that were not dropped). */
  answered: number;
  swipe(card: number, door: number, direction?: 'in' | 'out'): SimEvent;
  pressButton(door: number): SimEvent;
  forceOpen(door: number): SimEvent;
  /** The door's sensor reads shut again (reason 24, door closed). */
  closeDoor(door: number): SimEvent;
  lastIndex(): number;
  listener(): { address: string; port: number };
  close(): Promise<void>;
}

const writeEvent = (out: Buffer, e: SimEvent | undefined, offset = 8) => {
  if (!e) return;
  out.writeUInt32LE(e.index, offset);
  out.writeUInt8(e.type, offset + 4);
  out.writeUInt8(e.granted ? 1 : 0, offset + 5);
  out.writeUInt8(e.door, offset + 6);
  out.writeUInt8(e.direction, offset + 7);
  out.writeUInt32LE(e.card >>> 0, offset + 8);
  writeDateTime(out, offset + 12, e.time);
  out.writeUInt8(e.reason, offset + 19);
};

type SimDoors = Map<number, { mode: DoorMode; delay: number; open: boolean }>;

/** A status frame (the reply to 0x20, and what the listener gets for each event). */
const statusOf = (serial: number, e: SimEvent | undefined, doors: SimDoors, now: string) => {
  const out = frame(fn.getStatus, serial);
  writeEvent(out, e);
  for (let d = 1; d <= 4; d++) out.writeUInt8(doors.get(d)?.open ? 1 : 0, 27 + d);
  const bcd = (s: string) => ((Number(s[0]) << 4) | Number(s[1])) & 0xff;
  const [date, time] = now.split(' ') as [string, string];
  out.writeUInt8(bcd(time.slice(0, 2)), 37);
  out.writeUInt8(bcd(time.slice(3, 5)), 38);
  out.writeUInt8(bcd(time.slice(6, 8)), 39);
  out.writeUInt8(bcd(date.slice(2, 4)), 51);
  out.writeUInt8(bcd(date.slice(5, 7)), 52);
  out.writeUInt8(bcd(date.slice(8, 10)), 53);
  return out;
};

const cardOf = (f: number, serial: number, card: ControllerCard | undefined) => {
  const out = frame(f, serial);
  if (!card) return out;
  out.writeUInt32LE(card.card, 8);
  writeDate(out, 12, card.from);
  writeDate(out, 16, card.to);
  for (let d = 1; d <= 4; d++) {
    const p = card.doors[d];
    out.writeUInt8(p === true ? 1 : typeof p === 'number' ? p : 0, 19 + d);
  }
  out.writeUIntLE(card.pin & 0xffffff, 24, 3);
  return out;
};

const okOf = (f: number, serial: number, yes: boolean) => {
  const out = frame(f, serial);
  out.writeUInt8(yes ? 1 : 0, 8);
  return out;
};

const readPermissions = (req: Buffer) => {
  const doorsOf: ControllerCard['doors'] = {};
  for (let d = 1; d <= 4; d++) {
    const p = req[19 + d] ?? 0;
    if (p === 1) doorsOf[d] = true;
    else if (p >= 2 && p <= 254) doorsOf[d] = p;
  }
  return doorsOf;
};

export const startWgSimulator = async (opts: SimulatorOptions): Promise<WgSimulator> => {
  const socket = dgram.createSocket('udp4');
  const ringSize = opts.ringSize ?? 100_000;
  const ring = new Map<number, SimEvent>();
  let last = 0;
  let listener = { address: '0.0.0.0', port: 0 };
  let corruptTurn = 0;
  const cards = new Map<number, ControllerCard>();
  const doors = new Map<number, { mode: DoorMode; delay: number; open: boolean }>();
  for (let d = 1; d <= 4; d++) doors.set(d, { mode: 'controlled', delay: 3, open: false });

  const record = (e: Omit<SimEvent, 'index' | 'time'>): SimEvent => {
    last += 1;
    const event = { ...e, index: last, time: opts.now() };
    ring.set(last, event);
    ring.delete(last - ringSize);
    if (sim.linkUp && listener.port !== 0) {
      const out = statusFrame(event);
      socket.send(out, listener.port, listener.address === '0.0.0.0' ? '127.0.0.1' : listener.address);
    }
    return event;
  };

  const statusFrame = (e: SimEvent | undefined) => statusOf(opts.serial, e, doors, opts.now());
  const cardFrame = (f: number, card: ControllerCard | undefined) => cardOf(f, opts.serial, card);
  const ok = (f: number, yes = true) => okOf(f, opts.serial, yes);

  const answer = (req: Buffer): Buffer | null => {
    if (req.length !== FRAME || req[0] !== MAGIC) return null;
    const f = req[1] ?? 0;
    const to = req.readUInt32LE(4);
    if (to !== 0 && to !== opts.serial && !opts.anySerial) return null;
    switch (f) {
      case fn.getDevice: {
        const out = frame(f, opts.serial);
        Buffer.from([127, 0, 0, 1, 255, 0, 0, 0, 127, 0, 0, 1]).copy(out, 8);
        Buffer.from([0x00, 0x12, 0x23, 0x34, 0x45, 0x56]).copy(out, 20);
        out.writeUInt8(0x06, 26);
        out.writeUInt8(0x62, 27);
        writeDate(out, 28, '2020-01-01');
        return out;
      }
      case fn.getStatus:
        return statusFrame(ring.get(last));
      case fn.getTime: {
        const out = frame(f, opts.serial);
        writeDateTime(out, 8, opts.now());
        return out;
      }
      case fn.setTime: {
        const out = frame(f, opts.serial);
        req.copy(out, 8, 8, 15);
        return out;
      }
      case fn.openDoor: {
        const door = req[8] ?? 0;
        const d = doors.get(door);
        if (!d || d.mode === 'normallyClosed') return ok(f, false);
        record({ type: 2, granted: true, door, direction: 1, card: 0, reason: 44 });
        return ok(f);
      }
      case fn.setDoorControl: {
        const door = req[8] ?? 0;
        const mode = (['', 'normallyOpen', 'normallyClosed', 'controlled'] as const)[req[9] ?? 0];
        const d = doors.get(door);
        if (!d || !mode) return frame(f, opts.serial);
        d.mode = mode;
        d.delay = req[10] ?? 0;
        return req.subarray(0, FRAME);
      }
      case fn.getDoorControl: {
        const door = req[8] ?? 0;
        const d = doors.get(door);
        const out = frame(f, opts.serial);
        if (!d) return out;
        out.writeUInt8(door, 8);
        out.writeUInt8({ normallyOpen: 1, normallyClosed: 2, controlled: 3 }[d.mode], 9);
        out.writeUInt8(d.delay, 10);
        return out;
      }
      case fn.putCard: {
        const number = req.readUInt32LE(8);
        try {
          const from = readDate(req, 12);
          const to = readDate(req, 16);
          if (!from || !to || number === 0) return ok(f, false);
          cards.set(number, { card: number, from, to, doors: readPermissions(req), pin: req.readUIntLE(24, 3) });
          return ok(f);
        } catch {
          return ok(f, false);
        }
      }
      case fn.deleteCard:
        return ok(f, cards.delete(req.readUInt32LE(8)));
      case fn.deleteCards: {
        if (req.readUInt32LE(8) !== GUARD) return ok(f, false);
        cards.clear();
        return ok(f);
      }
      case fn.getCards: {
        const out = frame(f, opts.serial);
        out.writeUInt32LE(cards.size, 8);
        return out;
      }
      case fn.getCardById:
        return cardFrame(f, cards.get(req.readUInt32LE(8)));
      case fn.getCardByIndex:
        return cardFrame(f, [...cards.values()][req.readUInt32LE(8) - 1]);
      case fn.setListener: {
        listener = { address: Array.from(req.subarray(8, 12)).join('.'), port: req.readUInt16LE(12) };
        return ok(f);
      }
      case fn.getListener: {
        const out = frame(f, opts.serial);
        for (const [i, p] of listener.address.split('.').entries()) out.writeUInt8(Number(p), 8 + i);
        out.writeUInt16LE(listener.port, 12);
        return out;
      }
      case fn.getEventIndex: {
        const out = frame(f, opts.serial);
        out.writeUInt32LE(last, 8);
        return out;
      }
      case fn.getEvent: {
        const index = req.readUInt32LE(8);
        const out = frame(f, opts.serial);
        if (index > last || index === 0) return out;
        const e = ring.get(index);
        if (!e) {
          out.writeUInt32LE(index, 8);
          out.writeUInt8(0xff, 12);
          return out;
        }
        writeEvent(out, e);
        return out;
      }
      default:
        return null;
    }
  };

  const garble = (out: Buffer): Buffer => {
    const kind = corruptTurn++ % 3;
    const bad = Buffer.from(out);
    if (kind === 0) bad.writeUInt8(0x99, 0);
    else if (kind === 1) bad.fill(0xee, 8, 40);
    else return bad.subarray(0, 40);
    return bad;
  };

  const send = (out: Buffer, port: number, address: string) => {
    if (sim.linkUp) socket.send(out, port, address);
  };

  socket.on('message', (req, rinfo) => {
    if (!sim.linkUp) return;
    let out = answer(req);
    if (!out) return;
    // WG controllers echo the request's sequence number (bytes 40..43).
    out = Buffer.from(out);
    req.copy(out, 40, 40, 44);
    if (opts.anySerial && req.readUInt32LE(4) !== 0) out.writeUInt32LE(req.readUInt32LE(4), 4);
    const faults = sim.faults;
    if ((faults.drop ?? 0) > 0) {
      faults.drop = (faults.drop ?? 0) - 1;
      return;
    }
    sim.answered += 1;
    if ((faults.corrupt ?? 0) > 0) {
      faults.corrupt = (faults.corrupt ?? 0) - 1;
      out = garble(out);
    }
    const copies = (faults.duplicate ?? 0) > 0 ? 2 : 1;
    if (copies === 2) faults.duplicate = (faults.duplicate ?? 0) - 1;
    const reply = out;
    const go = () => {
      for (let i = 0; i < copies; i++) send(reply, rinfo.port, rinfo.address);
    };
    if (faults.delayMs) opts.timers.setTimeout(go, faults.delayMs);
    else go();
  });
  socket.on('error', () => {});

  await new Promise<void>((resolve) => socket.bind(opts.port ?? 0, '127.0.0.1', resolve));

  const sim: WgSimulator = {
    serial: opts.serial,
    port: socket.address().port,
    cards,
    doors,
    faults: {},
    linkUp: true,
    answered: 0,
    swipe(card, door, direction = 'in') {
      const c = cards.get(card);
      const today = opts.now().slice(0, 10);
      const d = doors.get(door);
      const allowed = !!c && !!c.doors[door] && c.from <= today && today <= c.to && d?.mode !== 'normallyClosed';
      return record({
        type: 1,
        granted: allowed,
        door,
        direction: direction === 'in' ? 1 : 2,
        card,
        reason: allowed ? 1 : 6,
      });
    },
    pressButton: (door) => record({ type: 2, granted: true, door, direction: 1, card: 0, reason: 20 }),
    forceOpen(door) {
      const d = doors.get(door);
      if (d) d.open = true;
      return record({ type: 3, granted: false, door, direction: 1, card: 0, reason: 38 });
    },
    closeDoor(door) {
      const d = doors.get(door);
      if (d) d.open = false;
      return record({ type: 2, granted: true, door, direction: 1, card: 0, reason: 24 });
    },
    lastIndex: () => last,
    listener: () => listener,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  return sim;
};
