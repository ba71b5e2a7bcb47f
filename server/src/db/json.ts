import type { z } from 'zod';

/**
 * Codecs of JSON text columns and answers. A stored value that no longer parses (an older shape, a
 * hand edit) reads as the fallback rather than failing the request that meets it.
 */

/** The value of `text` as `schema` says, or `fallback`. */
export const readJson = <T>(text: string, schema: z.ZodType<T> | { parse(v: unknown): T }, fallback: T): T => {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    return fallback;
  }
};

/** A JSON object's fields, or none. */
export const readJsonObject = (text: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The integers of a JSON id array (e.g. "[1,2,3]"), anything else dropped. */
export const readIdList = (text: string): number[] => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
};
