import type { ReadResult } from './driver.ts';
import { checkReading } from './reading.ts';

/**
 * One read's answer as numbers, the shape that crosses from the polling thread to the main one
 * (transferable arrays, no Map per poll): the answered items' ids and values in their device's item
 * order, in `ids[from..to)` and `values[from..to)`, and the reasons of the items that gave none.
 * A value that is not a usable number is NaN with its reason in `errors` (the edge check still
 * runs on the main thread; reading.ts). A pushed answer (a message) also lists the items it names
 * with only a reason, as NaN, so the main thread reads the message without walking the device.
 */
export interface Answer {
  ids: ArrayLike<number>;
  values: ArrayLike<number>;
  from: number;
  to: number;
  /** Reasons in the driver's order (the first one names a device that did not answer at all). */
  errors: Map<number, string> | null;
  /** A poll that asked for only some of its device's items (intervals of their own): their ids; null: all. */
  read: ReadonlySet<number> | null;
}

/**
 * Appends `result` for `items` to `ids`/`values` (plain arrays the caller turns into a batch) and
 * returns the reasons: the driver's own, then the edge check's for values that are not numbers
 * (a string, an object: a typed array holds only numbers), which the main thread would give alike.
 */
export const encodeAnswer = (
  items: ReadonlyArray<{ id: number }>,
  result: ReadResult,
  pushed: boolean,
  ids: number[],
  values: number[],
): Map<number, string> | null => {
  let errors: Map<number, string> | null = result.errors.size > 0 ? new Map(result.errors) : null;
  for (const item of items) {
    const raw: unknown = result.values.get(item.id);
    if (raw === undefined) {
      if (pushed && result.errors.has(item.id)) {
        ids.push(item.id);
        values.push(Number.NaN);
      }
      continue;
    }
    ids.push(item.id);
    if (typeof raw === 'number') {
      values.push(raw);
      continue;
    }
    const reading = checkReading(raw);
    values.push(reading.ok ? reading.value : Number.NaN);
    if (!reading.ok && !result.errors.has(item.id)) {
      errors ??= new Map();
      errors.set(item.id, reading.reason);
    }
  }
  return errors;
};

/** An answer of a `ReadResult` on the same thread (benchmarks feed the collector directly). */
export const answerOf = (
  items: ReadonlyArray<{ id: number }>,
  result: ReadResult,
  pushed: boolean,
  read: ReadonlyArray<{ id: number }> | null = null,
): Answer => {
  const ids: number[] = [];
  const values: number[] = [];
  const errors = encodeAnswer(items, result, pushed, ids, values);
  return { ids, values, from: 0, to: ids.length, errors, read: read && new Set(read.map((i) => i.id)) };
};
