import type { Generated } from 'kysely';

/** Tables of the device pages (migration 0009-device-log), joined into `Database` in schema.ts. */
export interface DeviceLogTables {
  device_state_logs: DeviceStateLogsTable;
}

/** One change of a device's state (002 §4: not ready, normal, abnormal, unknown …). */
export interface DeviceStateLogsTable {
  id: Generated<number>;
  device_id: number;
  device_group_id: number;
  time: number;
  state: number;
  /** -1 when no earlier state was recorded. */
  prev_state: number;
  reason: string;
}
