import { z } from 'zod';

/**
 * A measured number as answers carry it, read back from the database: NaN or ±Infinity (a row
 * written before readings were checked at the collector's edge, or edited by hand; PostgreSQL and
 * SQLite both keep Infinity) is answered as null, like a value that is unknown, instead of failing
 * the whole answer with a 500 for every reader of the list.
 * @example storedNumber.parse(Number.POSITIVE_INFINITY) // null
 */
export const storedNumber = z.preprocess(
  (v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v),
  z.number().nullable(),
);
