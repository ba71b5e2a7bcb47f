import type { Kysely } from 'kysely';
import { withId } from '../migration-kit.ts';

/**
 * Energy (issue 17; docs/energy.md): meters (a device item read as a kWh counter or a kW power),
 * tariffs of the three billing modes (their gradients and time slots as JSON text) and the tariff
 * in force per site from a time on. Energy itself is not stored here: it is read from the series
 * store's hourly roll-ups of the meter items.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await withId(db, db.schema.createTable('energy_meters'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('measure_point', 'varchar(20)')
    .addColumn('rollover_at', 'double precision')
    .addColumn('max_power_kw', 'double precision')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('energy_meters_item').on('energy_meters').columns(['item_id']).unique().execute();

  await withId(db, db.schema.createTable('energy_tariffs'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('mode', 'varchar(20)', (c) => c.notNull())
    .addColumn('summer_months', 'text', (c) => c.notNull())
    .addColumn('gradients', 'text', (c) => c.notNull())
    .addColumn('slots', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('energy_tariffs_name').on('energy_tariffs').columns(['name']).unique().execute();

  await withId(db, db.schema.createTable('energy_tariff_sets'))
    .addColumn('device_group_id', 'integer', (c) => c.notNull())
    .addColumn('tariff_id', 'integer', (c) => c.notNull().references('energy_tariffs.id').onDelete('restrict'))
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('energy_tariff_sets_site')
    .on('energy_tariff_sets')
    .columns(['device_group_id', 'valid_from'])
    .unique()
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['energy_tariff_sets', 'energy_tariffs', 'energy_meters'])
    await db.schema.dropTable(table).execute();
};
