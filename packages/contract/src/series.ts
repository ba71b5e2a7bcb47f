import { z } from 'zod';
import { pageOf, tzOffset } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * The time-series store's API: the trend call of 000 §7, chart reads with a bounded number of
 * points, history reports (002 §7.5) and retention settings.
 */

const msg = (key: string) => `monitoring.validation.${key}`;
const epoch = z.coerce.number().int().min(0).max(32_503_680_000);
const tParam = z.union([z.coerce.number(), z.string()]).optional();

/** A range of epoch seconds, end not before start (002 §5.1). */
const range = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, t1: epoch, t2: epoch }).refine((q) => (q as { t2: number }).t2 >= (q as { t1: number }).t1, {
    message: msg('endBeforeStart'),
    path: ['t2'],
  });

/** 000 §7 trend: device_name is the driver and device id joined by an underscore. */
export const trendQuery = range({
  device_name: z
    .string()
    .max(80)
    .regex(/^[a-z-]+_\d{1,10}$/, { message: msg('deviceName') })
    .refine((s) => Number(s.slice(s.lastIndexOf('_') + 1)) <= 2_147_483_647, { message: msg('deviceName') }),
  item_name: z.string().min(1).max(64),
  t: tParam,
});
export const trendRecord = z.object({ Timestamp: z.number().int(), Value: z.number() });
export const trendAnswer = z.object({ Records: z.array(trendRecord) });

/** Resolution the store chose for a read. */
export const resolution = z.enum(['raw', 'minute', 'hour']);
export type Resolution = z.infer<typeof resolution>;

export const seriesQuery = range({
  /** At most this many points come back (min and max of each bucket). */
  points: z.coerce.number().int().min(2).max(5000).default(1000),
  t: tParam,
});
export const seriesPoint = z.object({ ts: z.number().int(), value: z.number() });
export const seriesAnswer = z.object({
  item_id: z.number().int(),
  resolution,
  points: z.array(seriesPoint),
});

/** History report rows: one per item and interval (min, max, avg) or raw samples. */
export const historyInterval = z.enum(['raw', 'minute', 'hour', 'day']);
const historyRange = {
  t1: z.number().int().min(0).max(32_503_680_000),
  t2: z.number().int().min(0).max(32_503_680_000),
  interval: historyInterval.default('hour'),
  page: z.number().int().min(1).max(1_000_000).default(1),
  limit: z.number().int().min(1).max(1000).default(50),
};
const checkHistoryRange = (q: { t1: number; t2: number; interval: string }, ctx: z.RefinementCtx) => {
  if (q.t2 < q.t1) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('endBeforeStart') });
  if (q.interval === 'raw' && q.t2 - q.t1 > 86_400)
    ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('rawRange') });
  if (q.interval === 'minute' && q.t2 - q.t1 > 31 * 86_400) {
    ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('minuteRange') });
  }
};
/** Up to 200 items of a history query. */
const historyItemIds = z
  .array(z.number().int().min(1).max(2_147_483_647))
  .min(1, { message: msg('items') })
  .max(200);
export const historyQuery = z
  .strictObject({
    item_ids: historyItemIds,
    ...historyRange,
    /** Exports: the reader's clock, for the times written. */
    tz_offset: tzOffset,
  })
  .superRefine(checkHistoryRange);
/** The history of every item of one device (002 §7.5 setting/devices/data_history). */
export const deviceHistoryQuery = z
  .strictObject({ device_id: z.number().int().min(1).max(2_147_483_647), ...historyRange })
  .superRefine(checkHistoryRange);
/** The history of one item (002 §7.5 setting/items/data_history). */
export const itemHistoryQuery = z
  .strictObject({ item_id: z.number().int().min(1).max(2_147_483_647), ...historyRange })
  .superRefine(checkHistoryRange);

export const historyRow = z.object({
  item_id: z.number().int(),
  item_name: z.string(),
  device_name: z.string(),
  site: z.string(),
  unit: z.string(),
  ts: z.number().int(),
  min: z.number(),
  max: z.number(),
  avg: z.number(),
  count: z.number().int(),
});
export type HistoryRow = z.infer<typeof historyRow>;

/**
 * A history report's results as a table of times × items (/history_report): one row per time
 * (bucket start, or second of a raw sample), one column per item; cells hold the bucket's average
 * (raw: the value), null where the item has no sample. Paged by time.
 */
export const historyTableQuery = z
  .strictObject({ item_ids: historyItemIds, ...historyRange, order: z.enum(['asc', 'desc']).default('asc') })
  .superRefine(checkHistoryRange);
export const historyTableColumn = z.object({
  item_id: z.number().int(),
  item_name: z.string(),
  device_name: z.string(),
  site: z.string(),
  unit: z.string(),
});
export const historyTableAnswer = z.object({
  /** Number of times (rows) over every page. */
  total: z.number().int(),
  items: z.array(historyTableColumn),
  data: z.array(z.object({ ts: z.number().int(), values: z.array(z.number().nullable()) })),
});

/** The time ranges of a history report (002 §4), worked out in the reader's clock by the client. */
export const historyRanges = ['today', 'week', 'month', 'year', 'last24h', 'last3d', 'last7d', 'custom'] as const;
export const historyRangeName = z.enum(historyRanges);
export type HistoryRange = z.infer<typeof historyRangeName>;
/** A template's granularity: `auto` picks raw, minute, hour or day from the range when it runs. */
export const templateInterval = z.enum(['auto', 'raw', 'minute', 'hour', 'day']);

export const historyTemplateInput = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { message: msg('reportTitle') })
      .max(64),
    item_ids: z
      .array(z.number().int().min(1).max(2_147_483_647))
      .min(1, { message: msg('items') })
      .max(200),
    interval: templateInterval.default('hour'),
    /** The site the selection was made in (0: none). */
    site_id: z.number().int().min(0).max(2_147_483_647).default(0),
    device_ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(200).default([]),
    range: historyRangeName.default('last24h'),
    /** The custom range (epoch seconds), required when `range` is custom. */
    t1: z.number().int().min(0).max(32_503_680_000).nullable().default(null),
    t2: z.number().int().min(0).max(32_503_680_000).nullable().default(null),
  })
  .superRefine((q, ctx) => {
    if (q.range !== 'custom') return;
    if (q.t1 === null) ctx.addIssue({ code: 'custom', path: ['t1'], message: msg('range') });
    if (q.t2 === null) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('range') });
    if (q.t1 !== null && q.t2 !== null && q.t2 < q.t1) {
      ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('endBeforeStart') });
    }
  });
export type HistoryTemplateInput = z.infer<typeof historyTemplateInput>;
export const historyTemplateRow = z.object({
  id: z.number().int(),
  name: z.string(),
  item_ids: z.array(z.number().int()),
  interval: templateInterval,
  site_id: z.number().int(),
  device_ids: z.array(z.number().int()),
  range: historyRangeName,
  t1: z.number().int().nullable(),
  t2: z.number().int().nullable(),
  created_at: z.number().int(),
});
export type HistoryTemplateRow = z.infer<typeof historyTemplateRow>;

/** Retention of raw samples and roll-ups, in days (0: keep for ever). */
export const retentionSettings = z.strictObject({
  raw_days: z.number().int().min(0).max(36_500),
  minute_days: z.number().int().min(0).max(36_500),
  hour_days: z.number().int().min(0).max(36_500),
});
export type RetentionSettings = z.infer<typeof retentionSettings>;
export const defaultRetention: RetentionSettings = { raw_days: 90, minute_days: 400, hour_days: 0 };

const tags = ['series'];
export const seriesRoutes = {
  trend: defineRoute({
    method: 'GET',
    path: 'trend',
    summary: 'Trend of one item (000 §7): device_name as driver_id, item_name, t1, t2',
    tags,
    query: trendQuery,
    response: trendAnswer,
  }),
  itemSeries: defineRoute({
    method: 'GET',
    path: 'series/items/:id',
    summary: 'Chart read of one item: at most `points` points, resolution chosen for the range',
    tags,
    params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
    query: seriesQuery,
    response: seriesAnswer,
  }),
  history: defineRoute({
    method: 'POST',
    path: 'data_historys',
    reads: true,
    summary: 'History report rows of items over a range',
    tags,
    body: historyQuery,
    response: pageOf(historyRow),
  }),
  historyTable: defineRoute({
    method: 'POST',
    path: 'data_historys/table',
    reads: true,
    summary: 'History report as a table of times × items, paged by time (/history_report)',
    tags,
    body: historyTableQuery,
    response: historyTableAnswer,
  }),
  historyExport: defineRoute({
    method: 'POST',
    path: 'data_historys/export',
    reads: true,
    summary: 'History report as an xlsx file',
    tags,
    body: historyQuery,
    response: z.null(),
  }),
  deviceHistory: defineRoute({
    method: 'POST',
    path: 'setting/devices/data_history',
    reads: true,
    summary: 'History report rows of every item of one device',
    tags,
    body: deviceHistoryQuery,
    response: pageOf(historyRow),
  }),
  itemHistory: defineRoute({
    method: 'POST',
    path: 'setting/items/data_history',
    reads: true,
    summary: 'History report rows of one item',
    tags,
    body: itemHistoryQuery,
    response: pageOf(historyRow),
  }),
  listHistoryTemplates: defineRoute({
    method: 'GET',
    path: 'data_history_template',
    summary: 'Saved history report templates',
    tags,
    response: z.array(historyTemplateRow),
  }),
  createHistoryTemplate: defineRoute({
    method: 'POST',
    path: 'data_history_template',
    summary: 'Save a history report template',
    tags,
    body: historyTemplateInput,
    response: historyTemplateRow,
  }),
  deleteHistoryTemplate: defineRoute({
    method: 'DELETE',
    path: 'data_history_template/:id',
    summary: 'Delete a history report template',
    tags,
    params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
    response: z.null(),
  }),
  getRetention: defineRoute({
    method: 'GET',
    path: 'setting/series_retention',
    summary: 'Retention of samples and roll-ups',
    tags,
    response: retentionSettings,
  }),
  putRetention: defineRoute({
    method: 'PUT',
    path: 'setting/series_retention',
    summary: 'Change the retention of samples and roll-ups',
    tags,
    body: retentionSettings,
    response: retentionSettings,
  }),
};

/**
 * The granularity a history report uses when the user leaves it on automatic: raw samples up to
 * two hours, minutes up to seven days, hours up to 92 days, days beyond.
 *
 * @example autoInterval(0, 86_400) // 'minute'
 */
export const autoInterval = (t1: number, t2: number): z.infer<typeof historyInterval> => {
  const span = t2 - t1;
  if (span <= 2 * 3600) return 'raw';
  if (span <= 7 * 86_400) return 'minute';
  if (span <= 92 * 86_400) return 'hour';
  return 'day';
};
