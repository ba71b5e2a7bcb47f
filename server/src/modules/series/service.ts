import { formatLocalTime, type Language, sharedText } from '@sitewatch/contract';
import type { HistoryRow, RetentionSettings } from '@sitewatch/contract/series';
import type { Db } from '../../db/kysely.ts';
import { notFound } from '../../http/errors.ts';
import { sheetWorkbook } from '../../http/xlsx.ts';
import { meanOf } from '../../series/codec.ts';
import type { SeriesStore } from '../../series/store.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import { templateCalls } from './templates.ts';

const exportLimit = 100_000;

interface HistoryQuery {
  item_ids: number[];
  t1: number;
  t2: number;
  interval: 'raw' | 'minute' | 'hour' | 'day';
  page: number;
  limit: number;
  tz_offset?: number;
}

/** Trend, chart reads, history reports and retention over the series store. */
export const createSeriesService = (deps: {
  db: Db;
  store: SeriesStore;
  /** SERIES_RETENTION lives in the global config store (one cache: the hourly pruning reads it too). */
  config: Pick<GlobalConfig, 'get' | 'set'>;
  clock?: () => number;
}) => {
  const k = deps.db.kysely;
  const now = () => Math.floor((deps.clock?.() ?? Date.now()) / 1000);

  const itemInfo = async (ids: number[]) => {
    if (ids.length === 0) return new Map();
    const rows = await k
      .selectFrom('items')
      .innerJoin('devices', 'devices.id', 'items.device_id')
      .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id')
      .select(['items.id', 'items.name', 'items.unit', 'devices.name as device_name', 'device_groups.name as site'])
      .where('items.id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  };

  /** All rows of a history query (bounded by the contract's range limits), in item then time order. */
  const historyRows = async (q: HistoryQuery, cap: number): Promise<{ total: number; rows: HistoryRow[] }> => {
    const info = await itemInfo(q.item_ids);
    const ids = q.item_ids.filter((id) => info.has(id));
    const label = (id: number) => {
      const i = info.get(id)!;
      return { item_id: id, item_name: i.name, device_name: i.device_name, site: i.site, unit: i.unit };
    };
    let rows: HistoryRow[] = [];
    if (q.interval === 'raw') {
      for (const id of ids) {
        for (const s of await deps.store.raw(id, q.t1, q.t2)) {
          rows.push({
            ...label(id),
            ts: Math.floor(s.tsMs / 1000),
            min: s.value,
            max: s.value,
            avg: s.value,
            count: 1,
          });
          if (rows.length >= cap) break;
        }
      }
    } else {
      const buckets = await deps.store.rollups(ids, q.interval === 'minute' ? 'minute' : 'hour', q.t1, q.t2);
      if (q.interval === 'day') {
        const days = new Map<
          string,
          { id: number; ts: number; min: number; max: number; sum: number; count: number }
        >();
        for (const b of buckets) {
          const ts = b.ts - (b.ts % 86_400);
          const key = `${b.item_id}:${ts}`;
          const d = days.get(key);
          if (d) {
            d.min = Math.min(d.min, b.min);
            d.max = Math.max(d.max, b.max);
            d.sum += b.sum;
            d.count += b.count;
          } else days.set(key, { id: b.item_id, ts, min: b.min, max: b.max, sum: b.sum, count: b.count });
        }
        rows = [...days.values()].map((d) => ({
          ...label(d.id),
          ts: d.ts,
          min: d.min,
          max: d.max,
          avg: meanOf(d),
          count: d.count,
        }));
      } else {
        rows = buckets.map((b) => ({
          ...label(b.item_id),
          ts: b.ts,
          min: b.min,
          max: b.max,
          avg: meanOf(b),
          count: b.count,
        }));
      }
    }
    const order = new Map(q.item_ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.item_id)! - order.get(b.item_id)! || a.ts - b.ts);
    return { total: rows.length, rows: rows.slice(0, cap) };
  };

  const getRetention = (): Promise<RetentionSettings> => deps.config.get('SERIES_RETENTION');

  /** Keeps the items whose device is in one of `allowed` sites (null: every site). */
  const visible = async (ids: number[], allowed: number[] | null) => {
    if (allowed === null || ids.length === 0) return ids;
    if (allowed.length === 0) return [];
    const rows = await k
      .selectFrom('items')
      .innerJoin('devices', 'devices.id', 'items.device_id')
      .select('items.id')
      .where('items.id', 'in', ids)
      .where('devices.device_group_id', 'in', allowed)
      .execute();
    const ok = new Set(rows.map((r) => r.id));
    return ids.filter((id) => ok.has(id));
  };

  return {
    visible,
    ...templateCalls(k, now, visible),
    /** 000 §7 trend: `device_name` is `<driver>_<device id>`, `item_name` an item's cell name or name. */
    async trend(
      q: { device_name: string; item_name: string; t1: number; t2: number },
      allowed: number[] | null = null,
    ) {
      const cut = q.device_name.lastIndexOf('_');
      const driver = q.device_name.slice(0, cut);
      const deviceId = Number(q.device_name.slice(cut + 1));
      const item = await k
        .selectFrom('items')
        .innerJoin('devices', 'devices.id', 'items.device_id')
        .select('items.id')
        .where('devices.id', '=', deviceId)
        .where('devices.driver', '=', driver)
        .where((eb) => eb.or([eb('items.item_cell_name', '=', q.item_name), eb('items.name', '=', q.item_name)]))
        .orderBy('items.id')
        .executeTakeFirst();
      if (!item || (await visible([item.id], allowed)).length === 0) throw notFound();
      const { points } = await deps.store.read(item.id, q.t1, q.t2, 1000);
      return { Records: points.map((p) => ({ Timestamp: p.ts, Value: p.value })) };
    },
    async itemSeries(itemId: number, q: { t1: number; t2: number; points: number }, allowed: number[] | null = null) {
      const exists = await k.selectFrom('items').select('id').where('id', '=', itemId).executeTakeFirst();
      if (!exists || (await visible([itemId], allowed)).length === 0) throw notFound();
      const read = await deps.store.read(itemId, q.t1, q.t2, q.points);
      return { item_id: itemId, ...read };
    },
    /** Ids of a device's items; an unknown device is a 404. */
    async itemIdsOfDevice(deviceId: number, allowed: number[] | null = null) {
      const device = await k
        .selectFrom('devices')
        .select(['id', 'device_group_id'])
        .where('id', '=', deviceId)
        .executeTakeFirst();
      if (!device || (allowed !== null && !allowed.includes(device.device_group_id))) throw notFound();
      const rows = await k.selectFrom('items').select('id').where('device_id', '=', deviceId).orderBy('id').execute();
      return rows.map((r) => r.id);
    },
    async history(q: HistoryQuery) {
      const { total, rows } = await historyRows(q, Number.MAX_SAFE_INTEGER);
      return { total, data: rows.slice((q.page - 1) * q.limit, q.page * q.limit) };
    },
    async historyWorkbook(q: HistoryQuery, lang: Language): Promise<Buffer> {
      const { rows } = await historyRows(q, exportLimit);
      const h = (key: string) => sharedText(lang, `monitoring.history.${key}`);
      return sheetWorkbook(
        h('sheet'),
        ['site', 'device', 'item', 'time', 'min', 'max', 'avg', 'count', 'unit'].map((key) => ({ header: h(key) })),
        rows.map((r) => [
          r.site,
          r.device_name,
          r.item_name,
          formatLocalTime(r.ts, q.tz_offset ?? 0),
          r.min,
          r.max,
          // The 15 digits a spreadsheet keeps (a mean's last float digits are noise); not 3 decimals, which made 4e-7 a 0.
          Number(r.avg.toPrecision(15)),
          r.count,
          r.unit,
        ]),
      );
    },
    /**
     * History as a table of times × items, paged by time: one row per bucket (raw: per second),
     * the bucket's average per item, null where an item has no sample.
     */
    async historyTable(q: HistoryQuery & { order: 'asc' | 'desc' }) {
      const info = await itemInfo(q.item_ids);
      const ids = q.item_ids.filter((id) => info.has(id));
      const { rows } = await historyRows({ ...q, item_ids: ids }, Number.MAX_SAFE_INTEGER);
      const column = new Map(ids.map((id, i) => [id, i]));
      const byTime = new Map<number, { sum: number[]; n: number[] }>();
      for (const r of rows) {
        let cell = byTime.get(r.ts);
        if (!cell) {
          cell = { sum: ids.map(() => 0), n: ids.map(() => 0) };
          byTime.set(r.ts, cell);
        }
        const i = column.get(r.item_id)!;
        // Raw samples of one second fold into their average.
        cell.sum[i]! += r.avg;
        cell.n[i]! += 1;
      }
      const times = [...byTime.keys()].sort((a, b) => (q.order === 'asc' ? a - b : b - a));
      const page = times.slice((q.page - 1) * q.limit, q.page * q.limit);
      return {
        total: times.length,
        items: ids.map((id) => {
          const i = info.get(id)!;
          return { item_id: id, item_name: i.name, device_name: i.device_name, site: i.site, unit: i.unit };
        }),
        data: page.map((ts) => {
          const cell = byTime.get(ts)!;
          return { ts, values: ids.map((_, i) => (cell.n[i]! > 0 ? cell.sum[i]! / cell.n[i]! : null)) };
        }),
      };
    },
    getRetention,
    async putRetention(input: RetentionSettings) {
      await deps.config.set('SERIES_RETENTION', input);
      return input;
    },
  };
};
