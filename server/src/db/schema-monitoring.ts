import type { ColumnType, Generated } from 'kysely';

/**
 * Tables of sites, devices, monitored items and the series store (migration 0003-monitoring),
 * joined into `Database` in schema.ts. Booleans are 0/1 integers; JSON is text.
 */
export interface MonitoringTables {
  device_groups: DeviceGroupsTable;
  categorys: CategorysTable;
  device_templates: DeviceTemplatesTable;
  devices: DevicesTable;
  items: ItemsTable;
  time_periods: TimePeriodsTable;
  serial_ports: SerialPortsTable;
  sample_chunks: SampleChunksTable;
  sample_blocks: SampleBlocksTable;
  series_compaction: SeriesCompactionTable;
  samples_1m: RollupTable;
  samples_1h: RollupTable;
  data_history_templates: DataHistoryTemplatesTable;
}

/** A site (002 §3 Site; 001 §3 Site group). */
export interface DeviceGroupsTable {
  id: Generated<number>;
  name: string;
  parent_id: number;
  weight: number;
  has_device: number;
  longitude: number | null;
  latitude: number | null;
  background: string;
  scene: string;
  extend: string;
  created_at: number;
  updated_at: number;
}

export interface CategorysTable {
  id: number;
  code: string;
  name_key: string;
  /** A name given by the user; the translated `name_key` when empty. */
  name: string;
  enable: number;
  weight: number;
}

export interface DeviceTemplatesTable {
  /** Numbered by the database for templates users make (migration 0014). */
  id: Generated<number>;
  /** Built-in templates: a locale key; '' for templates made by users. */
  name_key: string;
  /** A name given by a user; the translated `name_key` when empty. */
  name: ColumnType<string, string | undefined, string>;
  category_code: string;
  driver: string;
  /** JSON list of template items (contract `templateItem`). */
  items: string;
}

export interface DevicesTable {
  id: Generated<number>;
  name: string;
  device_group_id: number;
  driver: string;
  code: string;
  template_id: number | null;
  ip: string;
  port: number | null;
  protocol_id: number;
  classification_id: number;
  device_count: number;
  /** JSON (contract `serialSettings`). */
  serial: string;
  zigbee_enable: number;
  zigbee_address: string;
  protocol_version: string;
  /** JSON (contract `deviceOptions`). */
  options: string;
  check_interval: number;
  enable: number;
  state: number;
  state_reason: string;
  state_time: number;
  created_at: number;
  updated_at: number;
}

/** A monitored item (002 §3). */
export interface ItemsTable {
  id: Generated<number>;
  device_id: number;
  name: string;
  item_cell_name: string;
  unit: string;
  /** What the item measures: room_temperature, room_humidity or '' (migration 0031; contract `itemPurpose`). */
  purpose: ColumnType<string, string | undefined, string>;
  /** Decimals the value is shown with; null: as read (migration 0011). */
  decimals: ColumnType<number | null, number | null | undefined, number | null>;
  location_id: number;
  value_type: number;
  threshold_min: number | null;
  threshold_max: number | null;
  status_threshold: string;
  recovery_point: number | null;
  overrun_point: number | null;
  alarm_level: number;
  alarm_color: string;
  contact_group_id: number;
  working_period_id: number;
  overrun_action_id: number;
  recovery_action_id: number;
  /** Action run when a person confirms the item's alarm (0: none; migration 0036). */
  confirm_action_id: ColumnType<number, number | undefined, number>;
  check_interval: number;
  repetitions: number;
  notification_interval: number;
  check_period_id: number;
  notification_period_id: number;
  alarm_period_id: number;
  /** JSON (contract `itemSource`). */
  source: string;
  /** 1: a value only recorded, with no thresholds and no threshold alarm (migration 0014). */
  telemetry_only: ColumnType<number, number | undefined, number>;
  /** Seconds a value may go unrefreshed before the item is unknown; 0: no limit (migration 0012). */
  max_age: ColumnType<number, number | undefined, number>;
  /** 1: an item that cannot be read raises its own point-fault alarm (migration 0027). */
  fault_alarm: ColumnType<number, number | undefined, number>;
  enable: number;
  state: number;
  value: number | null;
  last_check: number;
  info: string;
}

export interface TimePeriodsTable {
  id: Generated<number>;
  name: string;
  /** JSON list of {weekdays, start, end}. */
  ranges: string;
}

export interface SerialPortsTable {
  name: string;
  /** JSON (contract `serialSettings`). */
  settings: string;
}

/** Every sample of one item over [t0, t1] (epoch ms): `data` is n float64 times then n float64 values. */
export interface SampleChunksTable {
  item_id: number;
  t0: number;
  t1: number;
  n: number;
  data: Uint8Array;
}

/** A series flush block (migration 0025): `data` is times and values (float64), then item ids (int32). */
export interface SampleBlocksTable {
  seq: Generated<number>;
  claimed: number;
  item_lo: number;
  item_hi: number;
  t0: number;
  t1: number;
  n: number;
  data: Uint8Array;
}

/** The one row (id 1) of the compaction's progress: the next item of the run in progress, or null. */
export interface SeriesCompactionTable {
  id: number;
  next_item: number | null;
}

/** A roll-up bucket; `ts` is the bucket start in epoch seconds. */
export interface RollupTable {
  item_id: number;
  ts: number;
  min: number;
  max: number;
  sum: number;
  count: number;
}

export interface DataHistoryTemplatesTable {
  id: Generated<number>;
  name: string;
  /** JSON list of item ids. */
  item_ids: string;
  interval: string;
  created_at: number;
  /** The selection's site (0: none), devices (JSON list) and range (002 §4; t1/t2 when custom). */
  site_id: Generated<number>;
  device_ids: Generated<string>;
  range: Generated<string>;
  t1: number | null;
  t2: number | null;
  /** The user who saved it. */
  created_by: number | null;
}
