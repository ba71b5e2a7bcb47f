import type { ItemSource } from '@sitewatch/contract/monitoring';
import type ModbusRTU from 'modbus-serial';
import { type DriverItem, type DriverSession, errorText, type ReadResult, roundValue } from '../driver.ts';

type ModbusSource = Extract<ItemSource, { kind: 'modbus' }>;

/** Registers a data type spans. */
export const registerCount = (dataType: ModbusSource['data_type']): number =>
  dataType === 'bool' || dataType === 'int16' || dataType === 'uint16' ? 1 : 2;

/** Decodes the value of `dataType` at `offset` (in registers) of big-endian register bytes. */
export const decodeRegisters = (bytes: Buffer, offset: number, dataType: ModbusSource['data_type']): number => {
  const at = offset * 2;
  const swapped = () => {
    // `_le` types: low word first (a common device word order).
    const b = Buffer.alloc(4);
    bytes.copy(b, 0, at + 2, at + 4);
    bytes.copy(b, 2, at, at + 2);
    return b;
  };
  switch (dataType) {
    case 'bool':
      return bytes.readUInt16BE(at) ? 1 : 0;
    case 'int16':
      return bytes.readInt16BE(at);
    case 'uint16':
      return bytes.readUInt16BE(at);
    case 'int32':
      return bytes.readInt32BE(at);
    case 'uint32':
      return bytes.readUInt32BE(at);
    case 'float32':
      return bytes.readFloatBE(at);
    case 'int32_le':
      return swapped().readInt32BE(0);
    case 'uint32_le':
      return swapped().readUInt32BE(0);
    case 'float32_le':
      return swapped().readFloatBE(0);
  }
};

/** Encodes a value of `dataType` into registers (for writes). */
export const encodeRegisters = (value: number, dataType: ModbusSource['data_type']): number[] => {
  const b = Buffer.alloc(4);
  switch (dataType) {
    case 'bool':
      return [value ? 1 : 0];
    case 'int16':
      b.writeInt16BE(Math.round(value), 0);
      return [b.readUInt16BE(0)];
    case 'uint16':
      return [Math.round(value) & 0xffff];
    case 'int32':
    case 'int32_le':
      b.writeInt32BE(Math.round(value), 0);
      break;
    case 'uint32':
    case 'uint32_le':
      b.writeUInt32BE(Math.round(value) >>> 0, 0);
      break;
    case 'float32':
    case 'float32_le':
      b.writeFloatBE(value, 0);
      break;
  }
  const words = [b.readUInt16BE(0), b.readUInt16BE(2)];
  return dataType.endsWith('_le') ? [words[1]!, words[0]!] : words;
};

interface Span {
  fn: 1 | 2 | 3 | 4;
  start: number;
  end: number;
  items: Array<{ item: DriverItem; source: ModbusSource }>;
}

/** Groups items into reads of contiguous registers (gaps up to 8, at most 100 registers a read). */
export const planReads = (items: DriverItem[]): Span[] => {
  const modbusItems = items
    .filter((i): i is DriverItem & { source: ModbusSource } => i.source.kind === 'modbus')
    .map((item) => ({ item, source: item.source }))
    .sort((a, b) => a.source.function - b.source.function || a.source.register - b.source.register);
  const spans: Span[] = [];
  for (const entry of modbusItems) {
    const { function: fn, register } = entry.source;
    const end = register + (fn <= 2 ? 1 : registerCount(entry.source.data_type));
    const last = spans[spans.length - 1];
    if (last && last.fn === fn && register - last.end <= 8 && end - last.start <= 100) {
      last.end = Math.max(last.end, end);
      last.items.push(entry);
    } else spans.push({ fn, start: register, end, items: [entry] });
  }
  return spans;
};

/** A Modbus exception (the device answered, refusing one address) rather than a dead link. */
const isDeviceException = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  'modbusCode' in err &&
  (err as { modbusCode?: number }).modbusCode !== undefined;

/** The session shared by Modbus TCP and RTU over an opened modbus-serial client. */
export const modbusSession = (client: ModbusRTU): DriverSession => {
  // A port or socket failure arrives as an 'error' event; without a listener it would end the
  // process. It breaks the session instead, so the collector reconnects with backoff.
  let failure: Error | null = null;
  // modbus-serial emits 'error' but its types only declare 'close'.
  (client as unknown as NodeJS.EventEmitter).on('error', (err: Error) => {
    failure = err;
  });
  return modbusSessionOf(client, () => failure);
};

const modbusSessionOf = (client: ModbusRTU, failure: () => Error | null): DriverSession => ({
  async read(items) {
    const broken = failure();
    if (broken) throw broken;
    const result: ReadResult = { values: new Map(), errors: new Map() };
    for (const span of planReads(items)) {
      const length = span.end - span.start;
      try {
        if (span.fn === 1 || span.fn === 2) {
          const answer =
            span.fn === 1
              ? await client.readCoils(span.start, length)
              : await client.readDiscreteInputs(span.start, length);
          for (const { item, source } of span.items) {
            result.values.set(item.id, answer.data[source.register - span.start] ? 1 : 0);
          }
        } else {
          const answer =
            span.fn === 3
              ? await client.readHoldingRegisters(span.start, length)
              : await client.readInputRegisters(span.start, length);
          for (const { item, source } of span.items) {
            const raw = decodeRegisters(answer.buffer, source.register - span.start, source.data_type);
            result.values.set(item.id, roundValue(raw * source.scale));
          }
        }
      } catch (err) {
        if (!isDeviceException(err)) throw err;
        for (const { item } of span.items) result.errors.set(item.id, errorText(err));
      }
    }
    for (const item of items) {
      if (item.source.kind !== 'modbus') result.errors.set(item.id, 'not a modbus item');
    }
    return result;
  },
  async write(item, value) {
    const source = item.source;
    if (source.kind !== 'modbus') throw new Error('not a modbus item');
    if (source.function === 1) {
      await client.writeCoil(source.register, value !== 0);
      return;
    }
    if (source.function !== 3) throw new Error('only coils and holding registers can be written');
    const registers = encodeRegisters(source.scale ? value / source.scale : value, source.data_type);
    if (registers.length === 1) await client.writeRegister(source.register, registers[0]!);
    else await client.writeRegisters(source.register, registers);
  },
  close: () =>
    new Promise<void>((resolve) => {
      if (!client.isOpen) return resolve();
      client.close(() => resolve());
    }),
});
