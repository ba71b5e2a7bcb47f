import type { DataListState } from '@sitewatch/contract/reports';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';

/** What the data list filters by; `siteIds` null is every site. */
export interface DataListFilter {
  siteIds: number[] | null;
  device_id?: number | undefined;
  name?: string | undefined;
  state: DataListState;
}

export type DataListSort = 'site' | 'device' | 'item' | 'value' | 'state' | 'last_check';

/** Item states of each state filter (002 §4 states; the `alarm` filter asks the alarm records). */
const statesOf: Record<Exclude<DataListState, 'all' | 'alarm'>, number[]> = {
  normal: [1],
  abnormal: [2, 3, 5, 6],
  unknown: [0, 4],
};

/** Kysely queries of the data list: one indexed, paged read of items with their device and site. */
export const createReportsRepository = (db: Db) => {
  const k: Kysely<Database> = db.kysely;

  const filtered = (f: DataListFilter) => {
    let q = k
      .selectFrom('items')
      .innerJoin('devices', 'devices.id', 'items.device_id')
      .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id');
    if (f.siteIds) q = q.where('devices.device_group_id', 'in', f.siteIds.length ? f.siteIds : [0]);
    if (f.device_id !== undefined) q = q.where('items.device_id', '=', f.device_id);
    if (f.name) {
      const pattern = `%${f.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(
        db.dialect === 'postgres'
          ? sql<boolean>`items.name ilike ${pattern}`
          : sql<boolean>`items.name like ${pattern} escape '\\'`,
      );
    }
    if (f.state === 'alarm') {
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('alarms')
            .select(sql`1`.as('one'))
            .whereRef('alarms.item_id', '=', 'items.id')
            .where('alarms.end_time', 'is', null),
        ),
      );
    } else if (f.state !== 'all') {
      q = q.where('items.state', 'in', statesOf[f.state]);
    }
    return q;
  };

  const openAlarmsOf = (itemIds: number[]) =>
    k
      .selectFrom('alarms')
      .leftJoin('alarm_levels', 'alarm_levels.level', 'alarms.level')
      .select([
        'alarms.id',
        'alarms.item_id',
        'alarms.level',
        'alarms.color',
        'alarm_levels.name as level_name',
        'alarm_levels.color as level_color',
      ])
      .where('alarms.item_id', 'in', itemIds)
      .where('alarms.end_time', 'is', null)
      .orderBy('alarms.id')
      .execute();

  return {
    /** Sites as (id, parent) pairs, to widen a chosen site to its sub-sites. */
    siteParents: () => k.selectFrom('device_groups').select(['id', 'parent_id']).execute(),

    count: async (f: DataListFilter) =>
      Number(
        (
          await filtered(f)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),

    list: (f: DataListFilter, sort: DataListSort, order: 'asc' | 'desc', page: { offset: number; limit: number }) => {
      let q = filtered(f).select([
        'items.id',
        'items.name',
        'items.unit',
        'items.decimals',
        'items.value_type',
        'items.value',
        'items.state',
        'items.info',
        'items.last_check',
        'items.alarm_color',
        'items.device_id',
        'devices.name as device_name',
        'devices.device_group_id as site_id',
        'device_groups.name as site',
      ]);
      // Items without a value sort last in both dialects and both directions.
      if (sort === 'value') q = q.orderBy(sql`case when items.value is null then 1 else 0 end`);
      const keys: Record<DataListSort, string[]> = {
        site: ['device_groups.name', 'devices.device_group_id', 'devices.name', 'items.device_id'],
        device: ['devices.name', 'items.device_id'],
        item: ['items.name'],
        value: ['items.value'],
        state: ['items.state'],
        last_check: ['items.last_check'],
      };
      for (const key of keys[sort]) q = q.orderBy(sql.ref(key), order);
      return q.orderBy('items.id', order).limit(page.limit).offset(page.offset).execute();
    },

    /** Open alarms of these items with their level's name and colour (an item's own colour wins). */
    openAlarms: async (itemIds: number[]) => {
      const out = [];
      // In slices, so that an export of every item stays under the dialects' parameter limits.
      for (let i = 0; i < itemIds.length; i += 500) {
        out.push(...(await openAlarmsOf(itemIds.slice(i, i + 500))));
      }
      return out;
    },
  };
};

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
