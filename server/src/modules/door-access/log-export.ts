import { formatLocalTime, type Language, sharedText } from '@sitewatch/contract';
import type { DoorLogRow } from '@sitewatch/contract/door-access';
import { sheetWorkbook } from '../../http/xlsx.ts';

/** Reasons the WG controllers report that are named in words (the log page names the same ones). */
const namedReasons = new Set([1, 5, 6, 7, 13, 20, 23, 24, 37, 38, 44]);

/**
 * The filtered door log as one sheet (/door_log_custom's export; the way every xlsx export of the
 * API is made, http/xlsx.ts), its headers and words in the caller's language, times on the
 * reader's clock.
 */
export const doorLogWorkbook = (rows: DoorLogRow[], lang: Language, tzOffset: number) => {
  const h = (key: string, values: Record<string, string | number> = {}) =>
    sharedText(lang, `doorAccess.export.${key}`, values);
  const result = (r: DoorLogRow) => {
    if (r.kind === 'gap') return h('gap', { from: r.event_index, to: r.gap_to ?? r.event_index });
    return namedReasons.has(r.reason) ? h(`reasons.r${r.reason}`) : h('reasonCode', { code: r.reason });
  };
  return sheetWorkbook(
    h('sheet'),
    [
      { header: h('time'), width: 20 },
      { header: h('controller'), width: 20 },
      { header: h('door'), width: 14 },
      { header: h('kind'), width: 10 },
      { header: h('granted'), width: 10 },
      { header: h('result'), width: 22 },
      { header: h('holder'), width: 14 },
      { header: h('jobNumber'), width: 12 },
      { header: h('card'), width: 14 },
      { header: h('index'), width: 10 },
    ],
    rows.map((r) => [
      formatLocalTime(r.time, tzOffset),
      r.controller_name,
      r.door ? r.door_name || h('doorN', { n: r.door }) : '',
      h(`kinds.${r.kind}`),
      r.kind === 'swipe' ? h(r.granted ? 'yes' : 'no') : '',
      result(r),
      r.holder,
      r.job_number,
      r.card,
      r.event_index,
    ]),
  );
};
