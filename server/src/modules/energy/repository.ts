import type { Db } from '../../db/kysely.ts';

/** The energy tables and what they join (docs/energy.md). */
export const createEnergyRepository = (db: Db) => {
  const k = db.kysely;
  const meterSelect = () =>
    k
      .selectFrom('energy_meters as m')
      .innerJoin('items as i', 'i.id', 'm.item_id')
      .innerJoin('devices as d', 'd.id', 'i.device_id')
      .leftJoin('device_groups as g', 'g.id', 'm.device_group_id')
      .select([
        'm.id',
        'm.name',
        'm.item_id',
        'i.name as item_name',
        'd.id as device_id',
        'd.name as device_name',
        'd.device_group_id as item_site_id',
        'm.kind',
        'm.category',
        'm.device_group_id',
        'g.name as device_group_name',
        'm.measure_point',
        'm.rollover_at',
        'm.max_power_kw',
      ])
      .orderBy('m.device_group_id')
      .orderBy('m.id');
  return {
    sites: () => k.selectFrom('device_groups').select(['id', 'parent_id']).execute(),
    siteRows: () =>
      k
        .selectFrom('device_groups')
        .select(['id', 'name', 'parent_id', 'weight'])
        .orderBy('weight', 'desc')
        .orderBy('id')
        .execute(),
    siteExists: async (id: number) =>
      !!(await k.selectFrom('device_groups').select('id').where('id', '=', id).executeTakeFirst()),
    itemSite: async (itemId: number) =>
      (
        await k
          .selectFrom('items as i')
          .innerJoin('devices as d', 'd.id', 'i.device_id')
          .select('d.device_group_id')
          .where('i.id', '=', itemId)
          .executeTakeFirst()
      )?.device_group_id,
    meters: (siteIds: number[] | null) => {
      const q = meterSelect();
      return (
        siteIds === null
          ? q
          : siteIds.length === 0
            ? q.where('m.id', '<', 0)
            : q.where('m.device_group_id', 'in', siteIds)
      ).execute();
    },
    meter: (id: number) => meterSelect().where('m.id', '=', id).executeTakeFirst(),
    meterOfItem: (itemId: number) =>
      k.selectFrom('energy_meters').select('id').where('item_id', '=', itemId).executeTakeFirst(),
    insertMeter: async (row: {
      name: string;
      item_id: number;
      kind: string;
      category: string;
      device_group_id: number;
      measure_point: string | null;
      rollover_at: number | null;
      max_power_kw: number | null;
      created_at: number;
    }) => (await k.insertInto('energy_meters').values(row).returning('id').executeTakeFirstOrThrow()).id,
    updateMeter: (id: number, row: Record<string, string | number | null>) =>
      k.updateTable('energy_meters').set(row).where('id', '=', id).execute(),
    deleteMeter: (id: number) => k.deleteFrom('energy_meters').where('id', '=', id).execute(),

    /** Booked energy per hour (or per local day) of the meters over [t1, t2). */
    energy: async (table: 'energy_hours' | 'energy_days', meterIds: number[], t1: number, t2: number) =>
      meterIds.length === 0 || t2 <= t1
        ? []
        : (
            await k
              .selectFrom(table)
              .select(['meter_id', 'ts', 'kwh', 'estimated'])
              .where('meter_id', 'in', meterIds)
              .where('ts', '>=', t1)
              .where('ts', '<', t2)
              .orderBy('meter_id')
              .orderBy('ts')
              .execute()
          ).map((r) => ({ meter_id: r.meter_id, ts: Number(r.ts), kwh: r.kwh, estimated: r.estimated === 1 })),
    /** The hours of whole local days [t1, t2): each day's hourly kWh as the fill packed them. */
    dayHours: async (meterIds: number[], t1: number, t2: number) =>
      meterIds.length === 0 || t2 <= t1
        ? []
        : k
            .selectFrom('energy_days')
            .select(['meter_id', 'ts', 'hours'])
            .where('meter_id', 'in', meterIds)
            .where('ts', '>=', t1)
            .where('ts', '<', t2)
            .orderBy('meter_id')
            .orderBy('ts')
            .execute(),
    /** Energy per meter over [t1, t2) of hours or days, summed by the database. */
    energySums: async (table: 'energy_hours' | 'energy_days', meterIds: number[], t1: number, t2: number) =>
      meterIds.length === 0 || t2 <= t1
        ? []
        : k
            .selectFrom(table)
            .select((eb) => ['meter_id', eb.fn.sum<number>('kwh').as('kwh')])
            .where('meter_id', 'in', meterIds)
            .where('ts', '>=', t1)
            .where('ts', '<', t2)
            .groupBy('meter_id')
            .execute(),
    /** The rules that fired for the meters, stamped at readings in [t1, t2). */
    events: (meterIds: number[], t1: number, t2: number) =>
      meterIds.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('energy_events')
            .select(['meter_id', 'ts', 'rule', 'from_value', 'to_value', 'kwh'])
            .where('meter_id', 'in', meterIds)
            .where('ts', '>=', t1)
            .where('ts', '<', t2)
            .orderBy('meter_id')
            .orderBy('ts')
            .execute(),

    tariffs: (mode?: string) => {
      const q = k.selectFrom('energy_tariffs').selectAll().orderBy('id');
      return (mode ? q.where('mode', '=', mode) : q).execute();
    },
    tariff: (id: number) => k.selectFrom('energy_tariffs').selectAll().where('id', '=', id).executeTakeFirst(),
    tariffNamed: (name: string) =>
      k.selectFrom('energy_tariffs').select('id').where('name', '=', name).executeTakeFirst(),
    insertTariff: async (row: {
      name: string;
      mode: string;
      summer_months: string;
      gradients: string;
      slots: string;
      updated_at: number;
    }) => (await k.insertInto('energy_tariffs').values(row).returning('id').executeTakeFirstOrThrow()).id,
    updateTariff: (
      id: number,
      row: { name: string; summer_months: string; gradients: string; slots: string; updated_at: number },
    ) => k.updateTable('energy_tariffs').set(row).where('id', '=', id).execute(),
    deleteTariff: (id: number) => k.deleteFrom('energy_tariffs').where('id', '=', id).execute(),
    tariffInUse: async (id: number) =>
      !!(await k.selectFrom('energy_tariff_sets').select('id').where('tariff_id', '=', id).executeTakeFirst()),

    tariffSets: (siteIds: number[] | null) => {
      const q = k
        .selectFrom('energy_tariff_sets as s')
        .innerJoin('energy_tariffs as t', 't.id', 's.tariff_id')
        .select(['s.id', 's.device_group_id', 's.tariff_id', 't.name as tariff_name', 's.valid_from'])
        .orderBy('s.device_group_id')
        .orderBy('s.valid_from');
      return (
        siteIds === null
          ? q
          : siteIds.length === 0
            ? q.where('s.id', '<', 0)
            : q.where('s.device_group_id', 'in', siteIds)
      ).execute();
    },
    /** Adds the tariff from `valid_from` on, or replaces the one starting at that same time. */
    setTariff: async (siteId: number, tariffId: number, validFrom: number) => {
      await k.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('energy_tariff_sets')
          .where('device_group_id', '=', siteId)
          .where('valid_from', '=', validFrom)
          .execute();
        await trx
          .insertInto('energy_tariff_sets')
          .values({ device_group_id: siteId, tariff_id: tariffId, valid_from: validFrom })
          .execute();
      });
    },
  };
};
export type EnergyRepository = ReturnType<typeof createEnergyRepository>;
