import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { EventBus } from '../../bus/bus.ts';
import { announceAtOnce, type Changes, gatherChanges } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';
import type { DeviceGroupsTable, DevicesTable, DeviceTemplatesTable, ItemsTable } from '../../db/schema-monitoring.ts';

export interface DeviceFilter {
  device_group_id?: number | undefined;
  name?: string | undefined;
  driver?: string | undefined;
  code?: string | undefined;
  category_id?: number | undefined;
  state?: number | undefined;
  ids?: number[] | undefined;
}

export interface ItemFilter {
  device_id?: number | undefined;
  device_group_id?: number | undefined;
  name?: string | undefined;
  state?: number | undefined;
  ids?: number[] | undefined;
}

/** `null`: every site; otherwise only these (site-based permissions plug in here). */
export type AllowedSites = number[] | null;

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What the query groups share: the connection, the dialect's LIKE, the scoped device and item queries. */
const queryBase = (db: Db, changes: Changes) => {
  const k: Kysely<Database> = db.kysely;
  // An item's write names the item (the alarm engine re-reads it) and its device (the collector
  // keeps a device's items together).
  const itemsChanged = (rows: { id: number; device_id: number }[]) => {
    if (!rows.length) return;
    changes.note('items', [...new Set(rows.map((r) => r.id))]);
    changes.note('devices', [...new Set(rows.map((r) => r.device_id))]);
  };
  const like = (column: string, value: string) =>
    [column, db.dialect === 'postgres' ? 'ilike' : 'like', escapeLike(value)] as const;

  const deviceQuery = (filter: DeviceFilter, allowed: AllowedSites) => {
    let q = k.selectFrom('devices').innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id');
    if (filter.device_group_id !== undefined && filter.device_group_id !== -1) {
      q = q.where('devices.device_group_id', '=', filter.device_group_id);
    }
    if (filter.name) q = q.where(...(like('devices.name', filter.name) as [never, never, never]));
    if (filter.driver) q = q.where('devices.driver', '=', filter.driver);
    if (filter.code) q = q.where('devices.code', '=', filter.code);
    if (filter.state !== undefined) q = q.where('devices.state', '=', filter.state);
    if (filter.ids) q = q.where('devices.id', 'in', filter.ids.length ? filter.ids : [0]);
    if (filter.category_id !== undefined) {
      q = q.where('devices.code', 'in', k.selectFrom('categorys').select('code').where('id', '=', filter.category_id));
    }
    if (allowed) q = q.where('devices.device_group_id', 'in', allowed.length ? allowed : [0]);
    return q;
  };

  const itemQuery = (filter: ItemFilter, allowed: AllowedSites) => {
    let q = k.selectFrom('items').innerJoin('devices', 'devices.id', 'items.device_id');
    if (filter.device_id !== undefined) q = q.where('items.device_id', '=', filter.device_id);
    if (filter.device_group_id !== undefined && filter.device_group_id !== -1) {
      q = q.where('devices.device_group_id', '=', filter.device_group_id);
    }
    if (filter.name) q = q.where(...(like('items.name', filter.name) as [never, never, never]));
    if (filter.state !== undefined) q = q.where('items.state', '=', filter.state);
    if (filter.ids) q = q.where('items.id', 'in', filter.ids.length ? filter.ids : [0]);
    if (allowed) q = q.where('devices.device_group_id', 'in', allowed.length ? allowed : [0]);
    return q;
  };

  return { k, changes, itemsChanged, like, deviceQuery, itemQuery };
};
type QueryBase = ReturnType<typeof queryBase>;

/** Sites, categories and templates. */
const siteQueries = ({ k, changes, like }: QueryBase) => ({
  // sites
  listSites: async (filter: { name?: string | undefined; parent_id?: number | undefined }, allowed: AllowedSites) => {
    let q = k.selectFrom('device_groups');
    if (filter.name) q = q.where(...(like('name', filter.name) as [never, never, never]));
    if (filter.parent_id !== undefined) q = q.where('parent_id', '=', filter.parent_id);
    if (allowed) q = q.where('id', 'in', allowed.length ? allowed : [0]);
    return q.selectAll().orderBy('weight', 'desc').orderBy('id').execute();
  },
  getSite: (id: number) => k.selectFrom('device_groups').selectAll().where('id', '=', id).executeTakeFirst(),
  insertSite: async (row: Insertable<DeviceGroupsTable>) => {
    const { id } = await k.insertInto('device_groups').values(row).returning('id').executeTakeFirstOrThrow();
    changes.note('sites', [id]);
    return id;
  },
  updateSite: async (id: number, row: Updateable<DeviceGroupsTable>) => {
    await k.updateTable('device_groups').set(row).where('id', '=', id).execute();
    changes.note('sites', [id]);
  },
  deleteSites: async (ids: number[]) => {
    const n = Number((await k.deleteFrom('device_groups').where('id', 'in', ids).executeTakeFirst()).numDeletedRows);
    if (n) changes.note('sites', ids);
    return n;
  },
  childSites: (ids: number[]) =>
    k.selectFrom('device_groups').select(['id', 'parent_id']).where('parent_id', 'in', ids).execute(),
  siteDevices: (siteIds: number[]) =>
    k
      .selectFrom('devices')
      .leftJoin('categorys', 'categorys.code', 'devices.code')
      .select(['devices.id', 'devices.device_group_id', 'devices.state', 'categorys.id as category_id'])
      .where('devices.device_group_id', 'in', siteIds.length ? siteIds : [0])
      .orderBy('devices.id')
      .execute(),

  // categories and templates
  listCategories: () => k.selectFrom('categorys').selectAll().orderBy('weight', 'desc').orderBy('id').execute(),
  getCategory: (code: string) => k.selectFrom('categorys').selectAll().where('code', '=', code).executeTakeFirst(),
  updateCategory: (code: string, row: { name: string; enable: number; weight: number }) =>
    k.updateTable('categorys').set(row).where('code', '=', code).execute(),
  listTemplates: (filter: { driver?: string | undefined; category_code?: string | undefined }) => {
    let q = k.selectFrom('device_templates').selectAll();
    if (filter.driver) q = q.where('driver', '=', filter.driver);
    if (filter.category_code) q = q.where('category_code', '=', filter.category_code);
    return q.orderBy('id').execute();
  },
  getTemplate: (id: number) => k.selectFrom('device_templates').selectAll().where('id', '=', id).executeTakeFirst(),
  insertTemplate: async (row: Insertable<DeviceTemplatesTable>) =>
    (await k.insertInto('device_templates').values(row).returning('id').executeTakeFirstOrThrow()).id,
  updateTemplate: (id: number, row: Updateable<DeviceTemplatesTable>) =>
    k.updateTable('device_templates').set(row).where('id', '=', id).execute(),
  deleteTemplate: async (id: number) =>
    Number((await k.deleteFrom('device_templates').where('id', '=', id).executeTakeFirst()).numDeletedRows),
  /** Devices made from each template (every site: a template is shared). */
  templateUsage: async () =>
    new Map(
      (
        await k
          .selectFrom('devices')
          .select(['template_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('template_id', 'is not', null)
          .groupBy('template_id')
          .execute()
      ).map((r) => [Number(r.template_id), Number(r.n)]),
    ),
});

/** Devices. */
const deviceQueries = ({ k, changes, itemsChanged, deviceQuery }: QueryBase) => ({
  // devices
  countDevices: async (filter: DeviceFilter, allowed: AllowedSites) =>
    Number(
      (
        await deviceQuery(filter, allowed)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  listDevices: (filter: DeviceFilter, allowed: AllowedSites, page?: { offset: number; limit: number }) => {
    let q = deviceQuery(filter, allowed)
      .selectAll('devices')
      .select(['device_groups.name as device_group_name'])
      .select((eb) =>
        eb
          .selectFrom('items')
          .select((e) => e.fn.countAll<number>().as('c'))
          .whereRef('items.device_id', '=', 'devices.id')
          .as('item_count'),
      )
      .orderBy('devices.id');
    if (page) q = q.limit(page.limit).offset(page.offset);
    return q.execute();
  },
  insertDevice: async (row: Insertable<DevicesTable>) => {
    const { id } = await k.insertInto('devices').values(row).returning('id').executeTakeFirstOrThrow();
    changes.note('devices', [id]);
    return id;
  },
  updateDevice: async (id: number, row: Updateable<DevicesTable>) => {
    await k.updateTable('devices').set(row).where('id', '=', id).execute();
    changes.note('devices', [id]);
  },
  updateDevices: async (ids: number[], row: Updateable<DevicesTable>) => {
    const n = Number(
      (await k.updateTable('devices').set(row).where('id', 'in', ids).executeTakeFirst()).numUpdatedRows,
    );
    if (n) changes.note('devices', ids);
    return n;
  },
  deleteDevice: async (id: number) => {
    itemsChanged(await k.deleteFrom('items').where('device_id', '=', id).returning(['id', 'device_id']).execute());
    const n = Number((await k.deleteFrom('devices').where('id', '=', id).executeTakeFirst()).numDeletedRows);
    changes.note('devices', [id]);
    return n;
  },
  categoryIds: async () =>
    new Map((await k.selectFrom('categorys').select(['code', 'id']).execute()).map((c) => [c.code, c.id])),
});

/** Items, time periods and serial ports. */
const itemQueries = ({ k, changes, itemsChanged, itemQuery }: QueryBase) => ({
  // items
  countItems: async (filter: ItemFilter, allowed: AllowedSites) =>
    Number(
      (
        await itemQuery(filter, allowed)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  listItems: (filter: ItemFilter, allowed: AllowedSites, page?: { offset: number; limit: number }) => {
    let q = itemQuery(filter, allowed)
      .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id')
      .selectAll('items')
      .select(['devices.name as device_name', 'devices.device_group_id', 'device_groups.name as site'])
      .orderBy('items.device_id')
      .orderBy('items.id');
    if (page) q = q.limit(page.limit).offset(page.offset);
    return q.execute();
  },
  insertItems: async (rows: Insertable<ItemsTable>[]) => {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 200) {
      const got = await k
        .insertInto('items')
        .values(rows.slice(i, i + 200))
        .returning('id')
        .execute();
      ids.push(...got.map((r) => r.id));
    }
    itemsChanged(ids.map((id, i) => ({ id, device_id: rows[i]!.device_id })));
    return ids;
  },
  updateItem: async (id: number, row: Updateable<ItemsTable>) => {
    // An item moved to another device changes the items of both.
    const before =
      row.device_id === undefined
        ? []
        : await k.selectFrom('items').select(['id', 'device_id']).where('id', '=', id).execute();
    itemsChanged([
      ...before,
      ...(await k.updateTable('items').set(row).where('id', '=', id).returning(['id', 'device_id']).execute()),
    ]);
  },
  deleteItem: async (id: number) => {
    const rows = await k.deleteFrom('items').where('id', '=', id).returning(['id', 'device_id']).execute();
    itemsChanged(rows);
    return rows.length;
  },
  itemsUsingPeriod: async (periodId: number) =>
    Number(
      (
        await k
          .selectFrom('items')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where((eb) =>
            eb.or([
              eb('working_period_id', '=', periodId),
              eb('check_period_id', '=', periodId),
              eb('notification_period_id', '=', periodId),
              eb('alarm_period_id', '=', periodId),
            ]),
          )
          .executeTakeFirstOrThrow()
      ).n,
    ),
  /** Every item's stored state (the live state, when the collector runs, is newer). */
  /** The rows' states of the caller's sites' items (`ids`: of these only). */
  itemStates: (allowed: AllowedSites = null, ids?: number[]) =>
    itemQuery(ids ? { ids } : {}, allowed)
      .select(['items.id', 'items.state'])
      .execute(),
  /**
   * How many items of the caller's sites each state has, as their rows say, and the rows' states of
   * the items `ids` among them: one statement, so both are of one moment (a row written between two
   * reads would be counted in one state and corrected from the other).
   */
  itemStateCounts: async (allowed: AllowedSites, ids: number[]) => {
    const counts = itemQuery({}, allowed)
      .select([sql<number>`0`.as('kind'), 'items.state as a', (eb) => eb.fn.countAll<number | string>().as('b')])
      .groupBy('items.state');
    const rows = await (ids.length
      ? counts.unionAll(
          itemQuery({ ids }, allowed).select([sql<number>`1`.as('kind'), 'items.id as a', 'items.state as b']),
        )
      : counts
    ).execute();
    const byState = new Map<number, number>();
    const states = new Map<number, number>();
    for (const r of rows) {
      if (Number(r.kind) === 0) byState.set(Number(r.a), Number(r.b));
      else states.set(Number(r.a), Number(r.b));
    }
    return { byState, states };
  },
  countSites: async (allowed: AllowedSites = null) => {
    let q = k.selectFrom('device_groups');
    if (allowed) q = q.where('id', 'in', allowed.length ? allowed : [0]);
    return Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  },

  // time periods
  listPeriods: () => k.selectFrom('time_periods').selectAll().orderBy('id').execute(),
  getPeriod: (id: number) => k.selectFrom('time_periods').selectAll().where('id', '=', id).executeTakeFirst(),
  insertPeriod: async (row: { name: string; ranges: string }) => {
    const { id } = await k.insertInto('time_periods').values(row).returning('id').executeTakeFirstOrThrow();
    changes.note('time_periods', [id]);
    return id;
  },
  updatePeriod: async (id: number, row: { name: string; ranges: string }) => {
    await k.updateTable('time_periods').set(row).where('id', '=', id).execute();
    changes.note('time_periods', [id]);
  },
  deletePeriod: async (id: number) => {
    await k.deleteFrom('time_periods').where('id', '=', id).execute();
    changes.note('time_periods', [id]);
  },

  // serial ports
  listSerialPorts: () => k.selectFrom('serial_ports').selectAll().orderBy('name').execute(),
  saveSerialPort: (name: string, settings: string) =>
    k
      .insertInto('serial_ports')
      .values({ name, settings })
      .onConflict((oc) => oc.column('name').doUpdateSet({ settings }))
      .execute(),
});

/**
 * `changes` hears every write of sites, devices, items and time periods (the collector and the alarm
 * engine keep them in memory): a device's items changing names the device.
 */
const createQueries = (db: Db, changes: Changes) => {
  const base = queryBase(db, changes);
  return { ...siteQueries(base), ...deviceQueries(base), ...itemQueries(base) };
};

export type MonitoringQueries = ReturnType<typeof createQueries>;

/**
 * Kysely only: plain rows of sites, categories, templates, devices, items, periods, ports. Writes
 * announce themselves on `bus` (at once, or after the commit of a transaction).
 */
export const createMonitoringRepository = (db: Db, bus?: Pick<EventBus, 'publish'>) => ({
  ...createQueries(db, announceAtOnce(bus)),
  async transaction<T>(fn: (repo: MonitoringQueries) => Promise<T>) {
    const changes = gatherChanges();
    const result = await db.kysely.transaction().execute((trx) => fn(createQueries({ ...db, kysely: trx }, changes)));
    changes.publish(bus);
    return result;
  },
});

export type MonitoringRepository = ReturnType<typeof createMonitoringRepository>;
