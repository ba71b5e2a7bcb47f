import { z } from 'zod';
import { pageOf, pageQuery } from './envelope.ts';
import { storedNumber } from './stored-number.ts';

/** The reader's clock in a query (minutes east of UTC), for times written into exports. */
const tzOffset = z.coerce.number().int().min(-720).max(840).default(0);

import { stateCode, valueType } from './monitoring.ts';
import { defineRoute } from './route.ts';

/**
 * The operator console's reports (002 §2.1 Monitoring): /data_list, the live values of every item
 * of the caller's sites with filters, sorting, paging and an xlsx export; /history_report uses the
 * history calls of `series.ts` (002 §7.5).
 */

const tParam = z.union([z.coerce.number(), z.string()]).optional();
const id = z.coerce.number().int().min(1).max(2_147_483_647);

/**
 * State filter of the data list: `normal` state 1; `abnormal` states 2, 3, 5, 6 (abnormal, warning,
 * serious, jitter); `alarm` an open alarm on the item; `unknown` states 0 and 4 (not ready, unknown).
 */
export const dataListStates = ['all', 'normal', 'abnormal', 'alarm', 'unknown'] as const;
export const dataListState = z.enum(dataListStates);
export type DataListState = z.infer<typeof dataListState>;

/** Columns the data list sorts by. */
export const dataListSorts = ['site', 'device', 'item', 'value', 'state', 'last_check'] as const;
export const dataListSort = z.enum(dataListSorts);

/**
 * Minutes east of UTC of the reader's clock, so that exported times read as on screen
 * (UTC+8 is 480). Defaults to UTC.
 */

const dataListFilter = {
  /** A site and its sub-sites; -1 or absent: every granted site. */
  device_group_id: z.coerce.number().int().min(-1).max(2_147_483_647).optional(),
  device_id: id.optional(),
  /** Part of the item name (case-insensitive). */
  name: z.string().trim().max(64).optional(),
  state: dataListState.default('all'),
  sort: dataListSort.default('site'),
  order: z.enum(['asc', 'desc']).default('asc'),
};
export const dataListQuery = pageQuery.extend(dataListFilter);
export type DataListQuery = z.infer<typeof dataListQuery>;
export const dataListExportQuery = z.object({ ...dataListFilter, tz_offset: tzOffset, t: tParam });
export type DataListExportQuery = z.infer<typeof dataListExportQuery>;

export const dataListRow = z.object({
  id: z.number().int(),
  name: z.string(),
  unit: z.string(),
  /** Decimals the value is shown with, or null: as read (the item's display setting). */
  decimals: z.number().int().nullable(),
  value_type: valueType,
  value: storedNumber,
  state: stateCode,
  info: z.string(),
  last_check: z.number().int(),
  alarm_color: z.string(),
  device_id: z.number().int(),
  device_name: z.string(),
  site_id: z.number().int(),
  site: z.string(),
  /** The open alarm of the item, if any: its level (1 most severe … 5), name and colour. */
  alarm: z
    .object({ id: z.number().int(), level: z.number().int(), level_name: z.string(), color: z.string() })
    .nullable(),
});
export type DataListRow = z.infer<typeof dataListRow>;

/** At most this many rows go into one data list export. */
export const dataListExportLimit = 200_000;

const tags = ['reports'];
export const reportsRoutes = {
  dataList: defineRoute({
    method: 'GET',
    path: 'data_list',
    summary: 'Live values of the items of the granted sites: filters, sorting, paging (/data_list)',
    tags,
    query: dataListQuery,
    response: pageOf(dataListRow),
  }),
  dataListExport: defineRoute({
    method: 'GET',
    path: 'data_list/export',
    summary: 'Every row of the filtered data list as an xlsx file',
    tags,
    query: dataListExportQuery,
    response: z.null(),
  }),
};
