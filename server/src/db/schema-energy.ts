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
}
