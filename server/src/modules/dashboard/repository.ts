import type { Db } from '../../db/kysely.ts';

/** `null`: every site; otherwise only these. */
export type AllowedSites = number[] | null;

/** Global config key of the alarm ranking's clear time (JSON `{since}`, epoch seconds). */
export const alarmCountClearKey = 'ALARM_COUNT_CLEAR';

/** Reads of the dashboard and the overview page (Kysely only). */
export const createDashboardRepository = (db: Db) => {
  const k = db.kysely;
  const sites = (allowed: AllowedSites) => (allowed === null ? null : allowed.length ? allowed : [0]);

  return {
    /** The last clear: its time and the highest alarm id then (alarms after it are counted). */
    async clearMark(): Promise<{ since: number; after_id: number }> {
      const row = await k
        .selectFrom('global_config')
        .select('v')
        .where('k', '=', alarmCountClearKey)
        .executeTakeFirst();
      if (!row) return { since: 0, after_id: 0 };
      try {
        const v = JSON.parse(row.v) as { since?: unknown; after_id?: unknown };
        const n = (x: unknown) => (Number.isFinite(Number(x)) && Number(x) > 0 ? Math.floor(Number(x)) : 0);
        return { since: n(v.since), after_id: n(v.after_id) };
      } catch {
        return { since: 0, after_id: 0 };
      }
    },
    async setClearMark(since: number) {
      const max = await k
        .selectFrom('alarms')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst();
      const v = JSON.stringify({ since, after_id: Number(max?.m ?? 0) });
      await k
        .insertInto('global_config')
        .values({ k: alarmCountClearKey, v, updated_at: since })
        .onConflict((oc) => oc.column('k').doUpdateSet({ v, updated_at: since }))
        .execute();
    },

    /** Items by alarms raised after alarm `afterId` (item alarms only; communication alarms have no item). */
    async alarmRanking(afterId: number, allowed: AllowedSites, page: number, limit: number) {
      const s = sites(allowed);
      let q = k.selectFrom('alarms').where('item_id', '>', 0).where('id', '>', afterId);
      if (s) q = q.where('device_group_id', 'in', s);
      const total = await q.select((eb) => eb.fn.count<number>('item_id').distinct().as('n')).executeTakeFirst();
      const rows = await q
        .select(['item_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('id').as('last_id')])
        .groupBy('item_id')
        .orderBy('n', 'desc')
        .orderBy('item_id')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      return {
        total: Number(total?.n ?? 0),
        rows: rows.map((r) => ({ ...r, n: Number(r.n), last_id: Number(r.last_id) })),
      };
    },
    /** Current names of items with their device and site; an item deleted since falls back to the alarm's names. */
    itemsWithDevices: (itemIds: number[]) =>
      k
        .selectFrom('items')
        .innerJoin('devices', 'devices.id', 'items.device_id')
        .select(['items.id', 'items.name', 'devices.name as device_name', 'devices.device_group_id'])
        .where('items.id', 'in', itemIds.length ? itemIds : [0])
        .execute(),
    alarmsById: (ids: number[]) =>
      k
        .selectFrom('alarms')
        .select(['id', 'item_id', 'item_name', 'device_name', 'device_group_id', 'device_group_name'])
        .where('id', 'in', ids.length ? ids : [0])
        .execute(),
    allSites: () => k.selectFrom('device_groups').select(['id', 'name', 'parent_id', 'weight']).execute(),

    /** Open alarms by level. */
    async openAlarmsByLevel(allowed: AllowedSites) {
      const s = sites(allowed);
      let q = k.selectFrom('alarms').where('end_time', 'is', null);
      if (s) q = q.where('device_group_id', 'in', s);
      const rows = await q
        .select(['level', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('level')
        .execute();
      return rows.map((r) => ({ level: Number(r.level), n: Number(r.n) }));
    },
    levels: () =>
      k.selectFrom('alarm_levels').select(['level', 'name', 'color']).orderBy('level').orderBy('id').execute(),

    /** TEMP and HUM items of devices of category 2 (environment). */
    environment: (allowed: AllowedSites) => {
      const s = sites(allowed);
      let q = k
        .selectFrom('devices')
        .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id')
        .innerJoin('items', 'items.device_id', 'devices.id')
        .where('devices.code', 'in', k.selectFrom('categorys').select('code').where('id', '=', 2))
        .where('items.item_cell_name', 'in', ['TEMP', 'HUM']);
      if (s) q = q.where('devices.device_group_id', 'in', s);
      return q
        .select([
          'devices.id as device_id',
          'devices.name as device_name',
          'devices.driver',
          'devices.state as device_state',
          'devices.device_group_id',
          'device_groups.name as device_group',
          'items.id',
          'items.name',
          'items.item_cell_name',
          'items.unit',
          'items.value',
          'items.state',
          'items.last_check',
        ])
        .orderBy('device_groups.weight', 'desc')
        .orderBy('devices.device_group_id')
        .orderBy('devices.id')
        .orderBy('items.id')
        .execute();
    },

    /** Per site: device counts by state, item counts by state, open alarms. */
    async siteFigures(allowed: AllowedSites) {
      const s = sites(allowed);
      let sq = k.selectFrom('device_groups').select(['id', 'name', 'parent_id', 'weight']);
      if (s) sq = sq.where('id', 'in', s);
      let dq = k
        .selectFrom('devices')
        .select(['device_group_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['device_group_id', 'state']);
      if (s) dq = dq.where('device_group_id', 'in', s);
      let iq = k
        .selectFrom('items')
        .innerJoin('devices', 'devices.id', 'items.device_id')
        .select(['devices.device_group_id', 'items.state', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['devices.device_group_id', 'items.state']);
      if (s) iq = iq.where('devices.device_group_id', 'in', s);
      let aq = k
        .selectFrom('alarms')
        .where('end_time', 'is', null)
        .select(['device_group_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('device_group_id');
      if (s) aq = aq.where('device_group_id', 'in', s);
      const [siteRows, devices, items, alarms] = await Promise.all([
        sq.orderBy('weight', 'desc').orderBy('id').execute(),
        dq.execute(),
        iq.execute(),
        aq.execute(),
      ]);
      const num = <T extends { n: unknown }>(rows: T[]) => rows.map((r) => ({ ...r, n: Number(r.n) }));
      return { sites: siteRows, devices: num(devices), items: num(items), alarms: num(alarms) };
    },
  };
};
export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
