import type { Kysely } from 'kysely';

/**
 * Energy per meter, computed once (issue 17; docs/energy.md "Where energy is stored"): each meter's
 * booked kWh per hour after the counter rules (with the estimated flag), the rules that fired, the
 * sums per local day, and how far each meter's roll-ups have been read. Filled incrementally from
 * the series store's hourly roll-ups, so a year answers from 365 daily rows per meter.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['energy_hours', 'energy_days']) {
    let create = db.schema
      .createTable(table)
      .addColumn('meter_id', 'integer', (c) => c.notNull().references('energy_meters.id').onDelete('cascade'))
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('kwh', 'double precision', (c) => c.notNull())
      .addColumn('estimated', 'integer', (c) => c.notNull());
    // A day also holds its hours (comma-separated kWh from its first whole hour; empty: none), so
    // the cost of a year reads 365 rows per meter, not 8 760.
    if (table === 'energy_days') create = create.addColumn('hours', 'text', (c) => c.notNull().defaultTo(''));
    await create.addPrimaryKeyConstraint(`${table}_pk`, ['meter_id', 'ts']).execute();
  }
  await db.schema
    .createTable('energy_events')
    .addColumn('meter_id', 'integer', (c) => c.notNull().references('energy_meters.id').onDelete('cascade'))
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('rule', 'varchar(10)', (c) => c.notNull())
    .addColumn('from_value', 'double precision', (c) => c.notNull())
    .addColumn('to_value', 'double precision', (c) => c.notNull())
    .addColumn('kwh', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('energy_events_meter_ts').on('energy_events').columns(['meter_id', 'ts']).execute();
  // The last roll-up hour read per meter and its sample count: a later hour or a grown count is new data.
  await db.schema
    .createTable('energy_fill')
    .addColumn('meter_id', 'integer', (c) =>
      c.primaryKey().notNull().references('energy_meters.id').onDelete('cascade'),
    )
    .addColumn('last_ts', 'bigint', (c) => c.notNull())
    .addColumn('last_count', 'integer', (c) => c.notNull())
    .addColumn('dirty_from', 'bigint')
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['energy_fill', 'energy_events', 'energy_days', 'energy_hours'])
    await db.schema.dropTable(table).execute();
};
