import type { ItemSource } from './sources.ts';

/**
 * What a write to an item may carry (docs/monitoring.md "Values checked at the edge"): a setpoint
 * is divided by the item's scale and must fit the register type the device holds, or it is refused
 * — never wrapped (uint16 70000 → 4464), turned (−5 → 65531) or rounded to Infinity.
 */

/** The values a raw register (or coil, or SNMP integer) holds; `integer`: fractions are rounded. */
export interface RawRange {
  /** The type named in messages (`uint16`, `coil` …). */
  type: string;
  min: number;
  max: number;
  integer: boolean;
}

const FLOAT32_MAX = 3.4028234663852886e38;

/** 2^n − 1 as a double: above 2^53 the nearest double not above it (so uint64 max stays in range). */
const topOf = (bits: number) => (bits > 53 ? 2 ** bits - 2 ** (bits - 53) : 2 ** bits - 1);

/**
 * The raw range of a Modbus data type, read from its name so that any `[u]int<bits>` or
 * `float<bits>` type (and a byte-order suffix after it) fits without a table entry: `int16`
 * −32768…32767, `uint16` 0…65535, `int64`, `float32` ±3.4e38, `bit`/`bool` 0 or 1.
 */
export const rawRangeOf = (dataType: string): RawRange => {
  const int = /^(u?)int(\d+)/.exec(dataType);
  if (int) {
    const bits = Number(int[2]);
    return int[1]
      ? { type: dataType, min: 0, max: topOf(bits), integer: true }
      : { type: dataType, min: -(2 ** (bits - 1)), max: topOf(bits - 1), integer: true };
  }
  const float = /^float(\d+)/.exec(dataType);
  if (float) {
    const max = Number(float[1]) <= 32 ? FLOAT32_MAX : Number.MAX_VALUE;
    return { type: dataType, min: -max, max, integer: false };
  }
  // bit, bool: a coil or a single bit.
  return { type: dataType, min: 0, max: 1, integer: true };
};

/** The raw range a write to `source` is checked against; null: the driver takes any finite value. */
export const writeRangeOf = (source: ItemSource): RawRange | null => {
  switch (source.kind) {
    case 'modbus':
      return source.function === 1 ? { type: 'coil', min: 0, max: 1, integer: true } : rawRangeOf(source.data_type);
    case 'snmp':
      // SETs are sent as an SNMP Integer (Integer32).
      return { ...rawRangeOf('int32'), type: 'Integer32' };
    default:
      return null;
  }
};

const scaleOf = (source: ItemSource) => ('scale' in source && source.scale ? source.scale : 1);
/** Rounds away binary noise of a scaled limit (65535 × 0.1 → 6553.5). */
const tidy = (n: number) => Number(n.toPrecision(12));

export type WriteCheck =
  | { ok: true }
  /** Refused: `min`…`max` in the item's own (scaled) units, `binary` for a coil or bit (0 or 1). */
  | { ok: false; type: string; min: number; max: number; binary: boolean };

/**
 * Whether `value` (in the item's units) can be written to the item: divided by its scale, rounded
 * for integer types, it must lie in the raw range. A coil or bit takes exactly 0 or 1.
 * @example checkWrite({ kind: 'modbus', function: 3, register: 0, data_type: 'uint16', scale: 1 }, 70000)
 * // { ok: false, type: 'uint16', min: 0, max: 65535, binary: false }
 */
export const checkWrite = (source: ItemSource, value: number): WriteCheck => {
  const range = writeRangeOf(source);
  if (!Number.isFinite(value)) return refuse(range, 1);
  if (!range) return { ok: true };
  if (range.max === 1 && range.min === 0) {
    // Coils and bits are written as is (the scale does not apply): 0 or 1, nothing else.
    return value === 0 || value === 1 ? { ok: true } : refuse(range, 1);
  }
  const scale = scaleOf(source);
  const raw = range.integer ? Math.round(value / scale) : value / scale;
  return raw >= range.min && raw <= range.max ? { ok: true } : refuse(range, scale);
};

const refuse = (range: RawRange | null, scale: number): WriteCheck => {
  if (!range) return { ok: false, type: 'number', min: -Number.MAX_VALUE, max: Number.MAX_VALUE, binary: false };
  const binary = range.min === 0 && range.max === 1;
  const [a, b] = binary ? [0, 1] : [tidy(range.min * scale), tidy(range.max * scale)];
  return { ok: false, type: range.type, min: Math.min(a, b), max: Math.max(a, b), binary };
};
