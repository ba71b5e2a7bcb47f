import {
  type DeviceOptions,
  type ItemSource,
  type ModbusByteOrder,
  type ModbusDataType,
  modbusRegisterCount,
} from '@sitewatch/contract/monitoring';
import type ModbusRTU from 'modbus-serial';
import { type DriverItem, type DriverSession, type ReadResult, scaleValue } from '../driver.ts';

type ModbusSource = Extract<ItemSource, { kind: 'modbus' }>;
/** The decoding a value needs (a source's fields, defaults allowed). */
type Decoding = Pick<ModbusSource, 'data_type'> & Partial<Pick<ModbusSource, 'byte_order' | 'bit'>>;

/** Registers a data type spans. */
export const registerCount = (dataType: ModbusDataType): number => modbusRegisterCount(dataType);

/**
 * Puts register bytes of one value in big-endian order (ABCD), or back: BADC and DCBA swap the two
 * bytes of each register, CDAB and DCBA reverse the registers. Both swaps are their own inverse,
 * so the same function encodes.
 */
const reorder = (bytes: Buffer, order: ModbusByteOrder): Buffer => {
  const out = Buffer.from(bytes);
  if (order === 'BADC' || order === 'DCBA') out.swap16();
  if ((order === 'CDAB' || order === 'DCBA') && out.length > 2) {
    const words = [];
    for (let at = 0; at < out.length; at += 2) words.push(out.subarray(at, at + 2));
    return Buffer.concat(words.reverse());
  }
  return out;
};

/**
 * A float32 as the shortest decimal that is the same float32 (230.1, not the 230.10000610351562 a
 * float64 holds of it): the digits the type carries and no more (docs/monitoring.md "Precision").
 */
export const float32Value = (x: number): number => {
  if (!Number.isFinite(x)) return x;
  for (let digits = 6; digits < 9; digits++) {
    const shorter = Number(x.toPrecision(digits));
    if (Math.fround(shorter) === x) return shorter;
  }
  return Number(x.toPrecision(9));
};

/** Decodes the value at `offset` (in registers) of register bytes as read from the device. */
export const decodeRegisters = (bytes: Buffer, offset: number, source: Decoding): number => {
  const count = registerCount(source.data_type);
  const raw = bytes.subarray(offset * 2, (offset + count) * 2);
  if (raw.length < count * 2) throw new RangeError('short answer');
  if (source.data_type === 'bit') {
    const register = raw.readUInt16BE(0);
    const bit = source.bit ?? null;
    return bit === null ? (register ? 1 : 0) : (register >> bit) & 1;
  }
  const b = reorder(raw, source.byte_order ?? 'ABCD');
  switch (source.data_type) {
    case 'int16':
      return b.readInt16BE(0);
    case 'uint16':
      return b.readUInt16BE(0);
    case 'int32':
      return b.readInt32BE(0);
    case 'uint32':
      return b.readUInt32BE(0);
    case 'float32':
      return float32Value(b.readFloatBE(0));
    // 64-bit integers beyond 2^53 lose their last digits as numbers (docs/monitoring.md).
    case 'int64':
      return Number(b.readBigInt64BE(0));
    case 'uint64':
      return Number(b.readBigUInt64BE(0));
    case 'float64':
      return b.readDoubleBE(0);
  }
};

/** Encodes a value into the registers it is written as (the bit of a register is not handled here). */
export const encodeRegisters = (value: number, source: Decoding): number[] => {
  const count = registerCount(source.data_type);
  const b = Buffer.alloc(count * 2);
  switch (source.data_type) {
    case 'bit':
      return [value ? 1 : 0];
    case 'int16':
      b.writeInt16BE(Math.round(value), 0);
      break;
    case 'uint16':
      b.writeUInt16BE(Math.round(value), 0);
      break;
    case 'int32':
      b.writeInt32BE(Math.round(value), 0);
      break;
    case 'uint32':
      b.writeUInt32BE(Math.round(value), 0);
      break;
    case 'float32':
      b.writeFloatBE(value, 0);
      break;
    case 'int64':
      b.writeBigInt64BE(BigInt(Math.round(value)), 0);
      break;
    case 'uint64':
      b.writeBigUInt64BE(BigInt(Math.round(value)), 0);
      break;
    case 'float64':
      b.writeDoubleBE(value, 0);
      break;
  }
  const wire = reorder(b, source.byte_order ?? 'ABCD');
  const registers: number[] = [];
  for (let at = 0; at < wire.length; at += 2) registers.push(wire.readUInt16BE(at));
  return registers;
};

export interface PlannedPoint {
  item: DriverItem;
  source: ModbusSource;
  /** The address on the wire (0-based). */
  address: number;
  /** Registers, or coils, it spans. */
  size: number;
}

export interface Span {
  fn: 1 | 2 | 3 | 4;
  start: number;
  end: number;
  points: PlannedPoint[];
}

/** How a device's reads are grouped (its Modbus options). */
export type ReadPlanOptions = Pick<
  DeviceOptions,
  'modbus_merge' | 'modbus_merge_gap' | 'modbus_max_block' | 'modbus_address_base'
>;

const defaultPlan: ReadPlanOptions = {
  modbus_merge: true,
  modbus_merge_gap: 0,
  modbus_max_block: 64,
  modbus_address_base: 0,
};

/** Where a source is on the wire, or why it cannot be read. */
export const wireAddress = (source: ModbusSource, base: 0 | 1): number | string => {
  const address = source.register - base;
  const size = source.function <= 2 ? 1 : registerCount(source.data_type);
  if (address < 0 || address + size > 65536) {
    return `register ${source.register} does not exist with ${base}-based addressing`;
  }
  return address;
};

const spanOf = (fn: Span['fn'], points: PlannedPoint[]): Span => ({
  fn,
  start: Math.min(...points.map((p) => p.address)),
  end: Math.max(...points.map((p) => p.address + p.size)),
  points,
});

/**
 * Groups the points of one table into block reads: neighbours at most `modbus_merge_gap` unused
 * registers apart, at most `modbus_max_block` registers (or coils) a read; with merging off every
 * point is read alone. Points with no wire address are returned as `invalid` with the reason.
 */
export const planReads = (
  items: DriverItem[],
  options: ReadPlanOptions = defaultPlan,
): { spans: Span[]; invalid: Map<number, string> } => {
  const invalid = new Map<number, string>();
  const points: PlannedPoint[] = [];
  for (const item of items) {
    if (item.source.kind !== 'modbus') continue;
    const address = wireAddress(item.source, options.modbus_address_base);
    if (typeof address === 'string') invalid.set(item.id, address);
    else {
      const size = item.source.function <= 2 ? 1 : registerCount(item.source.data_type);
      points.push({ item, source: item.source, address, size });
    }
  }
  points.sort((a, b) => a.source.function - b.source.function || a.address - b.address);
  const spans: Span[] = [];
  for (const point of points) {
    const fn = point.source.function;
    const last = spans[spans.length - 1];
    const end = point.address + point.size;
    if (
      options.modbus_merge &&
      last &&
      last.fn === fn &&
      point.address - last.end <= options.modbus_merge_gap &&
      Math.max(last.end, end) - last.start <= options.modbus_max_block
    ) {
      last.end = Math.max(last.end, end);
      last.points.push(point);
    } else spans.push({ fn, start: point.address, end, points: [point] });
  }
  return { spans, invalid };
};

/** The standard names of Modbus exception codes (Modbus Application Protocol v1.1b3, §7). */
const exceptionNames: Record<number, string> = {
  1: 'illegal function',
  2: 'illegal data address',
  3: 'illegal data value',
  4: 'server device failure',
  5: 'acknowledge',
  6: 'server device busy',
  8: 'memory parity error',
  10: 'gateway path unavailable',
  11: 'gateway target device failed to respond',
};

/** The exception code of a Modbus exception answer (the device answered, refusing the request). */
const exceptionCode = (err: unknown): number | undefined => {
  if (typeof err !== 'object' || err === null || !('modbusCode' in err)) return undefined;
  const code = (err as { modbusCode?: unknown }).modbusCode;
  return typeof code === 'number' ? code : undefined;
};

/** The reason an item shows, e.g. "exception 2: illegal data address". */
export const exceptionReason = (code: number): string =>
  `exception ${code}: ${exceptionNames[code] ?? 'unknown exception'}`;

/** Codes that refuse the addresses themselves: a block that got one is split for good. */
const permanentCodes = new Set([1, 2, 3]);

/** The session shared by Modbus TCP and RTU over an opened modbus-serial client. */
export const modbusSession = (client: ModbusRTU, options: ReadPlanOptions = defaultPlan): DriverSession => {
  // A port or socket failure arrives as an 'error' event; without a listener it would end the
  // process. It breaks the session instead, so the collector reconnects with backoff.
  let failure: Error | null = null;
  // modbus-serial emits 'error' but its types only declare 'close'.
  (client as unknown as NodeJS.EventEmitter).on('error', (err: Error) => {
    failure = err;
  });
  return modbusSessionOf(client, () => failure, options);
};

const modbusSessionOf = (client: ModbusRTU, failure: () => Error | null, options: ReadPlanOptions): DriverSession => {
  // Blocks the device refused for good (illegal address, function or value): the next polls read
  // their halves straight away instead of asking again. Kept for the life of the connection.
  const refused = new Set<string>();

  const readBlock = async (span: Span, result: ReadResult) => {
    const length = span.end - span.start;
    if (span.fn === 1 || span.fn === 2) {
      const answer =
        span.fn === 1
          ? await client.readCoils(span.start, length)
          : await client.readDiscreteInputs(span.start, length);
      for (const { item, address } of span.points)
        result.values.set(item.id, answer.data[address - span.start] ? 1 : 0);
      return;
    }
    const answer =
      span.fn === 3
        ? await client.readHoldingRegisters(span.start, length)
        : await client.readInputRegisters(span.start, length);
    for (const { item, source, address } of span.points) {
      const raw = decodeRegisters(answer.buffer, address - span.start, source);
      // NaN and Infinity pass through: the collector's edge check makes the item unknown (reading.ts).
      result.values.set(item.id, scaleValue(raw, source.scale));
    }
  };

  /**
   * Reads a block; when the device refuses it with an exception, reads its two halves (down to
   * single points), so only the points it refuses alone are unknown, with the exception as the
   * reason. A failure that is not an answer (timeout, closed link) rejects: the device is down.
   */
  const readSpan = async (span: Span, result: ReadResult): Promise<void> => {
    const key = `${span.fn}:${span.start}:${span.end}`;
    if (span.points.length === 1 || !refused.has(key)) {
      try {
        await readBlock(span, result);
        return;
      } catch (err) {
        const code = exceptionCode(err);
        if (code === undefined) throw err;
        if (span.points.length === 1) {
          result.errors.set(span.points[0]!.item.id, exceptionReason(code));
          return;
        }
        if (permanentCodes.has(code)) refused.add(key);
      }
    }
    const half = Math.ceil(span.points.length / 2);
    await readSpan(spanOf(span.fn, span.points.slice(0, half)), result);
    await readSpan(spanOf(span.fn, span.points.slice(half)), result);
  };

  return {
    async read(items) {
      const broken = failure();
      if (broken) throw broken;
      const result: ReadResult = { values: new Map(), errors: new Map() };
      const { spans, invalid } = planReads(items, options);
      for (const [id, reason] of invalid) result.errors.set(id, reason);
      for (const span of spans) await readSpan(span, result);
      for (const item of items) {
        if (item.source.kind !== 'modbus') result.errors.set(item.id, 'not a modbus item');
      }
      return result;
    },
    async write(item, value) {
      const source = item.source;
      if (source.kind !== 'modbus') throw new Error('not a modbus item');
      const address = wireAddress(source, options.modbus_address_base);
      if (typeof address === 'string') throw new Error(address);
      try {
        if (source.function === 1) {
          await client.writeCoil(address, value !== 0);
          return;
        }
        if (source.function !== 3) throw new Error('only coils and holding registers can be written');
        if (source.data_type === 'bit' && source.bit !== null) {
          // One bit of a register: read, change that bit, write back (function 6).
          const [current = 0] = (await client.readHoldingRegisters(address, 1)).data;
          const mask = 1 << source.bit;
          await client.writeRegister(address, value ? current | mask : current & ~mask);
          return;
        }
        const registers = encodeRegisters(source.scale ? value / source.scale : value, source);
        if (registers.length === 1) await client.writeRegister(address, registers[0]!);
        else await client.writeRegisters(address, registers);
      } catch (err) {
        const code = exceptionCode(err);
        throw code === undefined ? err : new Error(exceptionReason(code));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!client.isOpen) return resolve();
        client.close(() => resolve());
      }),
  };
};
