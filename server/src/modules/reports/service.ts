import { formatLocalTime, type Language, sharedText } from '@sitewatch/contract';
import { levelName } from '@sitewatch/contract/alarms';
import { monitorState } from '@sitewatch/contract/monitoring';
import {
  type DataListExportQuery,
  type DataListQuery,
  type DataListRow,
  dataListExportLimit,
} from '@sitewatch/contract/reports';
import { sheetWorkbook } from '../../http/xlsx.ts';
import type { DataListFilter, ReportsRepository } from './repository.ts';

/** What the data list needs of the collector: its latest value of an item (absent in API-only tests). */
export interface LiveItems {
  liveItem(itemId: number): { value: number | null; state: number; last_check: number; info: string } | undefined;
}

const stateKeys: Record<number, string> = {
  [monitorState.notReady]: 'notReady',
  [monitorState.normal]: 'normal',
  [monitorState.abnormal]: 'abnormal',
  [monitorState.warning]: 'warning',
  [monitorState.unknown]: 'unknown',
  [monitorState.serious]: 'serious',
  [monitorState.jitter]: 'jitter',
};

/** Descendants of `root` (itself included) in a parent list. */
const subtree = (root: number, sites: Array<{ id: number; parent_id: number }>) => {
  const children = new Map<number, number[]>();
  for (const s of sites) children.set(s.parent_id, [...(children.get(s.parent_id) ?? []), s.id]);
  const out = new Set<number>();
  const walk = (id: number) => {
    if (out.has(id)) return;
    out.add(id);
    for (const c of children.get(id) ?? []) walk(c);
  };
  if (sites.some((s) => s.id === root)) walk(root);
  return [...out];
};

/** The /data_list reads: live item values of the caller's sites, filtered, sorted, paged, exported. */
export const createReportsService = (deps: { repo: ReportsRepository; live?: LiveItems | undefined }) => {
  const { repo } = deps;

  /** The filter the repository runs: a chosen site widens to its sub-sites, always within `allowed`. */
  const filterOf = async (
    q: Pick<DataListQuery, 'device_group_id' | 'device_id' | 'name' | 'state'>,
    allowed: number[] | null,
  ): Promise<DataListFilter> => {
    let siteIds = allowed;
    if (q.device_group_id !== undefined && q.device_group_id !== -1) {
      const chosen = subtree(q.device_group_id, await repo.siteParents());
      siteIds = allowed === null ? chosen : chosen.filter((id) => allowed.includes(id));
    }
    return { siteIds, device_id: q.device_id, name: q.name || undefined, state: q.state };
  };

  const rowsOf = async (
    q: Pick<DataListQuery, 'device_group_id' | 'device_id' | 'name' | 'state' | 'sort' | 'order'>,
    allowed: number[] | null,
    page: { offset: number; limit: number },
    lang: Language,
  ): Promise<{ filter: DataListFilter; rows: DataListRow[] }> => {
    const filter = await filterOf(q, allowed);
    const found = await repo.list(filter, q.sort, q.order, page);
    const alarms = new Map<number, DataListRow['alarm']>();
    for (const a of await repo.openAlarms(found.map((r) => r.id))) {
      if (alarms.has(a.item_id)) continue;
      alarms.set(a.item_id, {
        id: a.id,
        level: a.level,
        level_name: a.level_name ? levelName(a.level_name, a.level, (key) => sharedText(lang, key)) : String(a.level),
        color: a.color || a.level_color || '',
      });
    }
    const rows = found.map((r) => {
      // The collector's latest value (the table is saved from it every 5 s).
      const live = deps.live?.liveItem(r.id);
      return {
        id: r.id,
        name: r.name,
        unit: r.unit,
        decimals: r.decimals,
        value_type: r.value_type === 0 ? (0 as const) : (1 as const),
        value: live ? live.value : r.value,
        state: live?.state ?? r.state,
        info: live?.info ?? r.info,
        last_check: live?.last_check ?? r.last_check,
        alarm_color: r.alarm_color,
        device_id: r.device_id,
        device_name: r.device_name,
        site_id: r.site_id,
        site: r.site,
        alarm: alarms.get(r.id) ?? null,
      };
    });
    return { filter, rows };
  };

  return {
    async list(q: DataListQuery, allowed: number[] | null, lang: Language) {
      const { filter, rows } = await rowsOf(q, allowed, { offset: (q.page - 1) * q.limit, limit: q.limit }, lang);
      return { total: await repo.count(filter), data: rows };
    },

    /** Every filtered row (up to the contract's limit) as an xlsx workbook in the caller's language. */
    async exportWorkbook(q: DataListExportQuery, allowed: number[] | null, lang: Language): Promise<Buffer> {
      const { rows } = await rowsOf(q, allowed, { offset: 0, limit: dataListExportLimit }, lang);
      const h = (key: string) => sharedText(lang, `reports.${key}`);
      return sheetWorkbook(
        h('sheet'),
        [
          { header: h('site'), width: 18 },
          { header: h('device'), width: 18 },
          { header: h('item'), width: 24 },
          { header: h('value'), width: 12 },
          { header: h('unit'), width: 8 },
          { header: h('state'), width: 10 },
          { header: h('alarmLevel'), width: 12 },
          { header: h('lastCheck'), width: 20 },
        ],
        rows.map((r) => [
          r.site,
          r.device_name,
          r.name,
          r.value,
          r.unit,
          h(`states.${stateKeys[r.state] ?? 'unknown'}`),
          r.alarm?.level_name ?? '',
          formatLocalTime(r.last_check, q.tz_offset),
        ]),
      );
    },
  };
};
