/**
 * The one check every reading passes at the edge of the collector (docs/monitoring.md, "Values
 * checked at the edge"): a value is stored, published as a sample and judged only when it is a
 * finite number; anything else makes the item unknown with the reason in its info.
 */

/** A usable number, or why there is none. */
export type Reading = { ok: true; value: number } | { ok: false; reason: string };

const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Checks a value a driver returned: a finite number passes (−0 becomes 0); NaN, ±Infinity and
 * anything that is not a number (a string, a boolean, an object, undefined …) do not.
 * A bigint passes as the nearest number (64-bit counters), unless it is too large for one.
 */
export const checkReading = (value: unknown): Reading => {
  if (typeof value === 'bigint') return checkReading(Number(value));
  if (typeof value !== 'number') {
    return { ok: false, reason: `value is not a number (${value === null ? 'null' : typeof value})` };
  }
  if (Number.isNaN(value)) return { ok: false, reason: 'value is not a number (NaN)' };
  if (!Number.isFinite(value)) return { ok: false, reason: `value is infinite (${value > 0 ? '+' : '-'}Infinity)` };
  return { ok: true, value: value === 0 ? 0 : value };
};

/**
 * The only number text the drivers accept (SNMP strings, MQTT payloads): optional sign, digits with
 * an optional '.' fraction, an optional exponent; whitespace around it is ignored. No decimal comma,
 * no hexadecimal, no units or other trailing text, no "NaN" or "Infinity".
 */
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Parses number text strictly (see NUMBER_TEXT): "12,5", "0x1A" and "7 V" are refused with the
 * reason rather than cut to 12, 0 or 7 as parseFloat would.
 * @example parseNumberText(' 7.5 ') // { ok: true, value: 7.5 }
 */
export const parseNumberText = (text: string): Reading => {
  const trimmed = text.trim();
  if (!NUMBER_TEXT.test(trimmed)) return { ok: false, reason: `text is not a number: ${quote(text)}` };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, reason: `number out of range: ${quote(trimmed)}` };
  return checkReading(value);
};
