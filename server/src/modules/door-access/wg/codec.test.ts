import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ControllerCard } from '../controller.ts';
import { decode, encode, FRAME, FrameError, fn, frame, readDate, readDateTime, writeDateTime } from './codec.ts';

/**
 * Golden bytes: every request our encoder makes is compared byte for byte with the one the
 * independent `uhppoted` npm package (0.7.2, MIT, a dev dependency used only here as an oracle)
 * makes for the same call, and our decoder reads the replies uhppoted's decoder reads.
 */
const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: an untyped CommonJS oracle
const oracle: { enc: any; dec: any } = {
  enc: require('uhppoted/src/encoder.js'),
  dec: require('uhppoted/src/decoder.js'),
};
const view = (b: Buffer) => new DataView(Uint8Array.from(b).buffer);

const S = 405419896;
const card: ControllerCard = {
  card: 8165538,
  from: '2026-01-01',
  to: '2026-12-31',
  doors: { 1: true, 3: 29, 4: true },
  pin: 0,
};

describe('WG encoder against uhppoted', () => {
  const cases: Array<[string, Buffer, Buffer]> = [
    ['GetDevice', encode.getDevice(S), oracle.enc.GetDevice(S)],
    ['GetStatus', encode.getStatus(S), oracle.enc.GetStatus(S)],
    ['GetTime', encode.getTime(S), oracle.enc.GetTime(S)],
    ['SetTime', encode.setTime(S, '2026-11-28 09:05:07'), oracle.enc.SetTime(S, { datetime: '2026-11-28 09:05:07' })],
    ['OpenDoor', encode.openDoor(S, 3), oracle.enc.OpenDoor(S, { door: 3 })],
    [
      'SetDoorControl normally open',
      encode.setDoorControl(S, 2, 'normallyOpen', 7),
      oracle.enc.SetDoorControl(S, { door: 2, delay: 7, control: 1 }),
    ],
    [
      'SetDoorControl normally closed',
      encode.setDoorControl(S, 1, 'normallyClosed', 0),
      oracle.enc.SetDoorControl(S, { door: 1, delay: 0, control: 2 }),
    ],
    [
      'SetDoorControl controlled',
      encode.setDoorControl(S, 4, 'controlled', 255),
      oracle.enc.SetDoorControl(S, { door: 4, delay: 255, control: 3 }),
    ],
    ['GetDoorControl', encode.getDoorControl(S, 4), oracle.enc.GetDoorControl(S, { door: 4 })],
    [
      'PutCard',
      encode.putCard(S, card),
      oracle.enc.PutCard(S, {
        card: 8165538,
        from: '2026-01-01',
        to: '2026-12-31',
        doors: { 1: true, 2: false, 3: 29, 4: true },
      }),
    ],
    [
      'PutCard 32-bit',
      encode.putCard(S, { ...card, card: 0xfffffffe, doors: { 2: true } }),
      oracle.enc.PutCard(S, { card: 0xfffffffe, from: '2026-01-01', to: '2026-12-31', doors: { 2: true } }),
    ],
    ['DeleteCard', encode.deleteCard(S, 8165538), oracle.enc.DeleteCard(S, { card: 8165538 })],
    ['DeleteCards', encode.deleteCards(S), oracle.enc.DeleteCards(S)],
    ['GetCards', encode.getCards(S), oracle.enc.GetCards(S)],
    ['GetCardByID', encode.getCardById(S, 8165538), oracle.enc.GetCardByID(S, { card: 8165538 })],
    ['GetCardByIndex', encode.getCardByIndex(S, 17), oracle.enc.GetCardByIndex(S, { index: 17 })],
    ['GetEventIndex', encode.getEventIndex(S), oracle.enc.GetEventIndex(S)],
    ['SetEventIndex', encode.setEventIndex(S, 4321), oracle.enc.SetEventIndex(S, { index: 4321 })],
    ['GetEvent', encode.getEvent(S, 4321), oracle.enc.GetEvent(S, { index: 4321 })],
    [
      'SetListener',
      encode.setListener(S, '192.168.1.100', 60001),
      oracle.enc.SetListener(S, { address: '192.168.1.100', port: 60001 }),
    ],
  ];
  it.each(cases)('%s', (_name, ours, theirs) => {
    expect(ours.length).toBe(FRAME);
    expect(ours.toString('hex')).toBe(Buffer.from(theirs).toString('hex'));
  });

  it('writes the PIN in 24 bits from byte 24 (uhppoted 0.7.2 has no PIN; the rest is unchanged)', () => {
    const withPin = encode.putCard(S, { ...card, pin: 123456 });
    expect(withPin.readUIntLE(24, 3)).toBe(123456);
    const without = encode.putCard(S, card);
    withPin.fill(0, 24, 27);
    expect(withPin.equals(without)).toBe(true);
  });
});

/** A reply as a controller would send it: the request's head, the payload given byte by byte. */
const reply = (fnCode: number, bytes: Record<number, number>) => {
  const out = frame(fnCode, S);
  for (const [at, b] of Object.entries(bytes)) out.writeUInt8(b, Number(at));
  return out;
};

describe('WG decoder against uhppoted', () => {
  it('reads an event as uhppoted does', () => {
    const r = frame(fn.getEvent, S);
    r.writeUInt32LE(4321, 8);
    r.writeUInt8(1, 12);
    r.writeUInt8(1, 13);
    r.writeUInt8(3, 14);
    r.writeUInt8(2, 15);
    r.writeUInt32LE(8165538, 16);
    writeDateTime(r, 20, '2026-11-28 09:05:07');
    r.writeUInt8(1, 27);
    const theirs = oracle.dec.GetEvent(view(r)).event;
    const ours = decode.event(r, 4321);
    expect(ours).toEqual({
      index: 4321,
      status: 'ok',
      event: {
        index: theirs.index,
        kind: 'swipe',
        granted: theirs.granted,
        door: theirs.door,
        direction: 'out',
        card: theirs.card,
        time: theirs.timestamp,
        reason: theirs.reason.code,
      },
    });
  });

  it('reads a card as uhppoted does', () => {
    const r = encode.putCard(S, card);
    r.writeUInt8(fn.getCardById, 1);
    const theirs = oracle.dec.GetCardByID(view(r)).card;
    const ours = decode.card(r);
    expect(ours).toEqual({
      card: theirs.number,
      from: theirs.valid.from,
      to: theirs.valid.to,
      doors: { 1: true, 3: 29, 4: true },
      pin: 0,
    });
    expect(theirs.doors).toEqual({ 1: true, 2: false, 3: 29, 4: true });
  });

  it('reads a status as uhppoted does', () => {
    const r = reply(fn.getStatus, {
      28: 1,
      30: 1,
      33: 1,
      36: 0,
      37: 0x09,
      38: 0x05,
      39: 0x07,
      51: 0x26,
      52: 0x11,
      53: 0x28,
    });
    r.writeUInt32LE(9, 8);
    r.writeUInt8(3, 12);
    r.writeUInt8(2, 14);
    writeDateTime(r, 20, '2026-11-28 09:05:06');
    r.writeUInt8(38, 27);
    const theirs = oracle.dec.GetStatus(view(r)).state;
    const ours = decode.status(r);
    expect(ours.doorsOpen).toEqual(theirs.doors);
    expect(ours.buttons).toEqual(theirs.buttons);
    expect(ours.time).toBe(`${theirs.system.date} ${theirs.system.time}`);
    expect(ours.lastEvent?.reason).toBe(38);
    expect(ours.lastEvent?.kind).toBe('alarm');
  });

  it('reads a door control and the event index', () => {
    const r = reply(fn.getDoorControl, { 8: 2, 9: 2, 10: 5 });
    expect(decode.doorControl(r)).toEqual({ door: 2, mode: 'normallyClosed', delaySeconds: 5 });
    const theirs = oracle.dec.GetDoorControl(view(r)).doorControlState;
    expect([theirs.door, theirs.delay]).toEqual([2, 5]);
    const idx = frame(fn.getEventIndex, S);
    idx.writeUInt32LE(77, 8);
    expect(decode.eventIndex(idx)).toBe(oracle.dec.GetEventIndex(view(idx)).index);
  });
});

describe('every value checked at the edge', () => {
  it('refuses dates that are not BCD or not dates', () => {
    const b = Buffer.alloc(8);
    b.set([0x20, 0x26, 0x02, 0x30], 0);
    expect(() => readDate(b, 0)).toThrow(FrameError);
    b.set([0x20, 0x2a, 0x01, 0x01], 0);
    expect(() => readDate(b, 0)).toThrow(FrameError);
    b.set([0x20, 0x26, 0x01, 0x01, 0x24, 0x00, 0x00], 0);
    expect(() => readDateTime(b, 0)).toThrow(FrameError);
    expect(readDate(Buffer.alloc(4), 0)).toBeNull();
  });

  it('refuses unknown door modes and doors out of range', () => {
    expect(() => decode.doorControl(reply(fn.getDoorControl, { 8: 1, 9: 9 }))).toThrow(FrameError);
    const r = frame(fn.getEvent, S);
    r.writeUInt32LE(5, 8);
    r.writeUInt8(1, 12);
    r.writeUInt8(9, 14);
    expect(() => decode.event(r, 5)).toThrow(FrameError);
  });

  it('decodes 5 000 random frames without anything but a FrameError', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed & 0xff;
    };
    const decoders = [
      (b: Buffer) => decode.status(b),
      (b: Buffer) => decode.event(b, b.readUInt32LE(8)),
      (b: Buffer) => decode.card(b),
      (b: Buffer) => decode.device(b),
      (b: Buffer) => decode.doorControl(b),
      (b: Buffer) => decode.time(b),
    ];
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const b = Buffer.alloc(FRAME);
      for (let j = 0; j < FRAME; j++) b[j] = rand();
      for (const d of decoders) {
        try {
          d(b);
        } catch (err) {
          expect(err).toBeInstanceOf(FrameError);
          refused += 1;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});
