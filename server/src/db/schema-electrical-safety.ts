/** Electrical-safety tables (migration 0022-electrical-safety, docs/electrical-safety.md). */
export interface ElectricalSafetyTables {
  electrical_meters: {
    device_id: number;
    /** JSON: item id per role. */
    points: string;
    /** JSON: [{item_id, name}]. */
    switches: string;
    updated_at: number;
  };
}
