import type { Generated } from 'kysely';

/** Energy tables (migration 0018-energy, docs/energy.md). */
export interface EnergyTables {
  energy_meters: {
    id: Generated<number>;
    name: string;
    item_id: number;
    kind: string;
    category: string;
    device_group_id: number;
    measure_point: string | null;
    rollover_at: number | null;
    max_power_kw: number | null;
    created_at: number;
  };
  energy_tariffs: {
    id: Generated<number>;
    name: string;
    mode: string;
    /** JSON arrays. */
    summer_months: string;
    gradients: string;
    slots: string;
    updated_at: number;
  };
  energy_tariff_sets: {
    id: Generated<number>;
    device_group_id: number;
    tariff_id: number;
    valid_from: number;
  };
  /** Migration 0021-energy-hourly: booked energy per meter and hour, and per local day. */
  energy_hours: EnergyRow;
  /** `hours`: the day's hourly kWh, comma-separated from its first whole hour ('' where none). */
  energy_days: EnergyRow & { hours: string };
  energy_events: {
    meter_id: number;
    ts: number;
    rule: string;
    from_value: number;
    to_value: number;
    kwh: number;
  };
  energy_fill: {
    meter_id: number;
    /** Start of the last roll-up hour read, and its sample count then. */
    last_ts: number;
    last_count: number;
    /** A late sample's hour: recomputed from there. */
    dirty_from: number | null;
  };
}

interface EnergyRow {
  meter_id: number;
  ts: number;
  kwh: number;
  /** 1 when part of it was spread over a gap. */
  estimated: number;
}
