import { z } from 'zod';

/** Every answer of the API: `{code, message, data}`; `code` 0 is success. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), message: z.string(), data });

/** The envelope of an error: `data` may carry the field errors of a rejected input. */
export const errorEnvelope = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.object({ fields: z.array(z.object({ path: z.string(), message: z.string() })).optional() }).nullable(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** `t` is added by the spec's client to every POST body and GET query; it is accepted and ignored. */
export const tParam = z.union([z.coerce.number(), z.string()]).optional();

/** Paging of every list: `page` from 1, `limit` rows a page. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe('Page number, from 1.'),
  limit: z.coerce.number().int().min(1).max(1000).default(10).describe('Rows a page (1–1000).'),
  t: tParam.describe("Cache buster of the spec's client: accepted and ignored."),
});

/** A page of a list: `{total, data}`. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({
    total: z.number().int().min(0).describe('Rows matching the query, over all pages.'),
    data: z.array(row).describe('The rows of this page.'),
  });

/** Epoch seconds, the unit of every time in the API. */
export const epochSeconds = z.number().int().min(0);

export const nowSeconds = (now: number = Date.now()): number => Math.floor(now / 1000);

/** Minutes east of UTC of the reader's clock (UTC+8 is 480), for times written into exports. */
export const tzOffset = z.number().int().min(-720).max(840).default(0);

/** `YYYY-MM-DD HH:mm:ss` of epoch seconds on a clock `offset` minutes east of UTC; '' for no time (0). */
export const formatLocalTime = (ts: number, offset: number): string =>
  ts > 0 ? new Date((ts + offset * 60) * 1000).toISOString().replace('T', ' ').slice(0, 19) : '';
