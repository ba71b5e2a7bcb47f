import type {
  ControllerCard,
  ControllerInfo,
  ControllerStatus,
  DoorEvent,
  DoorMode,
  EventRead,
} from '../controller.ts';

/**
 * The WG / UHPPOTE ("微耕") UDP protocol: every request and reply is one 64-byte frame, little-endian,
 * `[0]` 0x17, `[1]` the function, `[4..7]` the controller's serial, the payload from byte 8, dates
 * in BCD (docs/door-access.md, "WG frames"; byte layouts as uhppoted's `encoder.js`/`decoder.js`,
 * which the golden-byte tests use as an oracle). Decoding checks everything at the edge: a frame
 * of the wrong size, magic, function or serial, or a BCD field that is not a date, is a
 * `FrameError`, never a crash or a garbage value.
 */

export const FRAME = 64;
export const MAGIC = 0x17;
/** The guard some destructive requests carry. */
export const GUARD = 0x55aaaa55;

export const fn = {
  getStatus: 0x20,
  setTime: 0x30,
  getTime: 0x32,
  openDoor: 0x40,
  putCard: 0x50,
  deleteCard: 0x52,
  deleteCards: 0x54,
  getCards: 0x58,
  getCardById: 0x5a,
  getCardByIndex: 0x5c,
  setDoorControl: 0x80,
  getDoorControl: 0x82,
  setListener: 0x90,
  getListener: 0x92,
  getDevice: 0x94,
  getEvent: 0xb0,
  setEventIndex: 0xb2,
  getEventIndex: 0xb4,
} as const;

export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

const modes: Record<DoorMode, number> = { normallyOpen: 1, normallyClosed: 2, controlled: 3 };
const modeOf = (code: number): DoorMode => {
  const mode = (Object.keys(modes) as DoorMode[]).find((m) => modes[m] === code);
  if (!mode) throw new FrameError(`door mode ${code} unknown`);
  return mode;
};

/** A request frame with its head written. */
export const frame = (fnCode: number, serial: number): Buffer => {
  const out = Buffer.alloc(FRAME);
  out.writeUInt8(MAGIC, 0);
  out.writeUInt8(fnCode, 1);
  out.writeUInt32LE(serial >>> 0, 4);
  return out;
};

const bcdByte = (n: number) => ((Math.floor(n / 10) % 10) << 4) | (n % 10);

/** `YYYY-MM-DD` → 4 BCD bytes at `offset`. */
export const writeDate = (out: Buffer, offset: number, date: string) => {
  const m = /^(\d{2})(\d{2})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new FrameError(`date ${JSON.stringify(date)} is not YYYY-MM-DD`);
  for (const [i, part] of m.slice(1).entries()) out.writeUInt8(bcdByte(Number(part)), offset + i);
};

/** `YYYY-MM-DD HH:mm:ss` → 7 BCD bytes at `offset`. */
export const writeDateTime = (out: Buffer, offset: number, local: string) => {
  const m = /^(\d{2})(\d{2})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(local);
  if (!m) throw new FrameError(`time ${JSON.stringify(local)} is not YYYY-MM-DD HH:mm:ss`);
  for (const [i, part] of m.slice(1).entries()) out.writeUInt8(bcdByte(Number(part)), offset + i);
};

const bcdDigits = (bytes: Buffer, offset: number, length: number): string => {
  let s = '';
  for (let i = 0; i < length; i++) {
    const b = bytes[offset + i] ?? 0;
    const hi = b >>> 4;
    const lo = b & 0x0f;
    if (hi > 9 || lo > 9) throw new FrameError(`byte ${offset + i} is not BCD`);
    s += `${hi}${lo}`;
  }
  return s;
};

const validDate = (y: number, m: number, d: number) => {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
};

/** 4 BCD bytes → `YYYY-MM-DD`; all zeros → null. */
export const readDate = (bytes: Buffer, offset: number): string | null => {
  const s = bcdDigits(bytes, offset, 4);
  if (s === '00000000') return null;
  const [y, m, d] = [Number(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6, 8))];
  if (!validDate(y, m, d)) throw new FrameError(`date at ${offset} is not a date`);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
};

/** 7 BCD bytes → `YYYY-MM-DD HH:mm:ss`; all zeros → null. */
export const readDateTime = (bytes: Buffer, offset: number): string | null => {
  const s = bcdDigits(bytes, offset, 7);
  if (s === '00000000000000') return null;
  const date = readDate(bytes, offset);
  const [h, mi, se] = [Number(s.slice(8, 10)), Number(s.slice(10, 12)), Number(s.slice(12, 14))];
  if (date === null || h > 23 || mi > 59 || se > 59) throw new FrameError(`time at ${offset} is not a time`);
  return `${date} ${s.slice(8, 10)}:${s.slice(10, 12)}:${s.slice(12, 14)}`;
};

const ip = (bytes: Buffer, offset: number) => Array.from(bytes.subarray(offset, offset + 4)).join('.');

/** Checks a reply's size, magic, function and (unless 0, a broadcast) serial. */
export const checkReply = (bytes: Buffer, fnCode: number, serial: number) => {
  if (bytes.length !== FRAME) throw new FrameError(`reply of ${bytes.length} bytes, not ${FRAME}`);
  if (bytes[0] !== MAGIC) throw new FrameError(`reply starts with ${bytes[0]}, not 0x17`);
  if (bytes[1] !== fnCode) throw new FrameError(`reply to function ${bytes[1]}, not ${fnCode}`);
  const from = bytes.readUInt32LE(4);
  if (serial !== 0 && from !== serial) throw new FrameError(`reply from controller ${from}, not ${serial}`);
  return from;
};

/* ---------------------------------------------------------------- requests */

export const encode = {
  getDevice: (serial: number) => frame(fn.getDevice, serial),
  getStatus: (serial: number) => frame(fn.getStatus, serial),
  getTime: (serial: number) => frame(fn.getTime, serial),
  setTime: (serial: number, local: string) => {
    const out = frame(fn.setTime, serial);
    writeDateTime(out, 8, local);
    return out;
  },
  openDoor: (serial: number, door: number) => {
    const out = frame(fn.openDoor, serial);
    out.writeUInt8(door, 8);
    return out;
  },
  setDoorControl: (serial: number, door: number, mode: DoorMode, delay: number) => {
    const out = frame(fn.setDoorControl, serial);
    out.writeUInt8(door, 8);
    out.writeUInt8(modes[mode], 9);
    out.writeUInt8(delay, 10);
    return out;
  },
  getDoorControl: (serial: number, door: number) => {
    const out = frame(fn.getDoorControl, serial);
    out.writeUInt8(door, 8);
    return out;
  },
  putCard: (serial: number, card: ControllerCard) => {
    const out = frame(fn.putCard, serial);
    out.writeUInt32LE(card.card >>> 0, 8);
    writeDate(out, 12, card.from);
    writeDate(out, 16, card.to);
    for (let door = 1; door <= 4; door++) {
      const p = card.doors[door];
      const v = p === true ? 1 : typeof p === 'number' && p >= 2 && p <= 254 ? p : 0;
      out.writeUInt8(v, 19 + door);
    }
    // The PIN, 24 bits from byte 24 (0 none).
    out.writeUIntLE(card.pin & 0xffffff, 24, 3);
    return out;
  },
  deleteCard: (serial: number, card: number) => {
    const out = frame(fn.deleteCard, serial);
    out.writeUInt32LE(card >>> 0, 8);
    return out;
  },
  deleteCards: (serial: number) => {
    const out = frame(fn.deleteCards, serial);
    out.writeUInt32LE(GUARD, 8);
    return out;
  },
  getCards: (serial: number) => frame(fn.getCards, serial),
  getCardById: (serial: number, card: number) => {
    const out = frame(fn.getCardById, serial);
    out.writeUInt32LE(card >>> 0, 8);
    return out;
  },
  getCardByIndex: (serial: number, index: number) => {
    const out = frame(fn.getCardByIndex, serial);
    out.writeUInt32LE(index >>> 0, 8);
    return out;
  },
  setListener: (serial: number, address: string, port: number) => {
    const out = frame(fn.setListener, serial);
    for (const [i, part] of address.split('.').entries()) out.writeUInt8(Number(part) & 0xff, 8 + i);
    out.writeUInt16LE(port, 12);
    return out;
  },
  getEventIndex: (serial: number) => frame(fn.getEventIndex, serial),
  setEventIndex: (serial: number, index: number) => {
    const out = frame(fn.setEventIndex, serial);
    out.writeUInt32LE(index >>> 0, 8);
    out.writeUInt32LE(GUARD, 12);
    return out;
  },
  getEvent: (serial: number, index: number) => {
    const out = frame(fn.getEvent, serial);
    out.writeUInt32LE(index >>> 0, 8);
    return out;
  },
};

/* ---------------------------------------------------------------- replies */

const kinds: Record<number, DoorEvent['kind']> = { 0: 'none', 1: 'swipe', 2: 'door', 3: 'alarm' };

/** An event record at `offset` (index, type, granted, door, direction, card, time, reason: 8..27). */
export const readEvent = (bytes: Buffer, offset = 8): DoorEvent => {
  const door = bytes[offset + 6] ?? 0;
  if (door > 4) throw new FrameError(`door ${door} out of range`);
  const dir = bytes[offset + 7];
  return {
    index: bytes.readUInt32LE(offset),
    kind: kinds[bytes[offset + 4] ?? 0] ?? 'unknown',
    granted: bytes[offset + 5] === 1,
    door,
    direction: dir === 1 ? 'in' : dir === 2 ? 'out' : 'unknown',
    card: bytes.readUInt32LE(offset + 8),
    time: readDateTime(bytes, offset + 12),
    reason: bytes[offset + 19] ?? 0,
  };
};

const readPermissions = (bytes: Buffer, offset: number) => {
  const doors: ControllerCard['doors'] = {};
  for (let door = 1; door <= 4; door++) {
    const p = bytes[offset + door - 1] ?? 0;
    if (p === 1) doors[door] = true;
    else if (p >= 2 && p <= 254) doors[door] = p;
  }
  return doors;
};

export const decode = {
  ok: (bytes: Buffer) => bytes[8] === 1,
  device: (bytes: Buffer): ControllerInfo => {
    const mac = Array.from(bytes.subarray(20, 26), (b) => b.toString(16).padStart(2, '0')).join(':');
    const v = bcdDigits(bytes, 26, 2);
    return {
      serial: bytes.readUInt32LE(4),
      address: ip(bytes, 8),
      netmask: ip(bytes, 12),
      gateway: ip(bytes, 16),
      mac,
      firmware: `v${Number(v.slice(0, 2))}.${v.slice(2)}`,
      released: readDate(bytes, 28) ?? '',
      // The model is read from the serial's first digit (1 one door, 2 two, 4 four); else four.
      doors: doorsOfSerial(bytes.readUInt32LE(4)),
    };
  },
  status: (bytes: Buffer): ControllerStatus => {
    const index = bytes.readUInt32LE(8);
    const doorsOpen: Record<number, boolean> = {};
    const buttons: Record<number, boolean> = {};
    for (let d = 1; d <= 4; d++) {
      doorsOpen[d] = bytes[27 + d] === 1;
      buttons[d] = bytes[31 + d] === 1;
    }
    const date = bcdDigits(bytes, 51, 3);
    const time = bcdDigits(bytes, 37, 3);
    const clock = date === '000000' ? null : `20${date.slice(0, 2)}-${date.slice(2, 4)}-${date.slice(4, 6)}`;
    if (clock) {
      const [y, m, d] = [Number(`20${date.slice(0, 2)}`), Number(date.slice(2, 4)), Number(date.slice(4, 6))];
      if (!validDate(y, m, d)) throw new FrameError('status date is not a date');
      if (Number(time.slice(0, 2)) > 23 || Number(time.slice(2, 4)) > 59 || Number(time.slice(4, 6)) > 59)
        throw new FrameError('status time is not a time');
    }
    return {
      serial: bytes.readUInt32LE(4),
      doorsOpen,
      buttons,
      time: clock ? `${clock} ${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}` : null,
      lastEvent: index === 0 ? null : readEvent(bytes, 8),
      fault: bytes[36] ?? 0,
    };
  },
  time: (bytes: Buffer) => {
    const t = readDateTime(bytes, 8);
    if (t === null) throw new FrameError('no time in reply');
    return t;
  },
  doorControl: (bytes: Buffer) => ({ door: bytes[8] ?? 0, mode: modeOf(bytes[9] ?? 0), delaySeconds: bytes[10] ?? 0 }),
  cardCount: (bytes: Buffer) => bytes.readUInt32LE(8),
  /** A card record, or null when the controller has none there (number 0, or 0xffffffff: deleted). */
  card: (bytes: Buffer): ControllerCard | null => {
    const number = bytes.readUInt32LE(8);
    if (number === 0 || number === 0xffffffff) return null;
    return {
      card: number,
      from: readDate(bytes, 12) ?? '',
      to: readDate(bytes, 16) ?? '',
      doors: readPermissions(bytes, 20),
      pin: bytes.readUIntLE(24, 3),
    };
  },
  eventIndex: (bytes: Buffer) => bytes.readUInt32LE(8),
  event: (bytes: Buffer, asked: number): EventRead => {
    const type = bytes[12];
    const index = bytes.readUInt32LE(8);
    if (type === 0xff) return { index: asked, status: 'overwritten' };
    if (index === 0) return { index: asked, status: 'missing' };
    if (index !== asked) throw new FrameError(`event ${index} answered for ${asked}`);
    return { index, status: 'ok', event: readEvent(bytes, 8) };
  },
  listener: (bytes: Buffer) => ({ address: ip(bytes, 8), port: bytes.readUInt16LE(12) }),
};

/** UHPPOTE serials start with the model's door count (1xx…, 2xx…, 4xx…); others drive four. */
export const doorsOfSerial = (serial: number) => {
  const first = String(serial)[0];
  return first === '1' ? 1 : first === '2' ? 2 : 4;
};
