import type { Generated } from 'kysely';

/** Tables of alarms and notifications (migration 0006-alarms), joined into `Database` in schema.ts. */
export interface AlarmTables {
  alarm_levels: { id: Generated<number>; name: string; level: number; color: string; sound: number };
  alarm_settings: { k: string; v: string; updated_at: number };
  // `source` has a default: rows written by other code than the engine (tests, seeds) leave it out.
  alarms: Omit<AlarmsTable, 'source'> & { source: Generated<string> };
  /** Id counters (migration 0027): `next_id` is the first id no process has reserved yet. */
  id_blocks: { name: string; next_id: number };
  alarm_disabled: { kind: string; target_id: number; user_name: string; time: number };
  alarm_logs: AlarmLogsTable;
  contacts: ContactsTable;
  contact_groups: ContactGroupsTable;
  notify_channels: { id: Generated<number>; name: string; kind: string; config: string; enable: number };
  notification_logs: NotificationLogsTable;
}

export interface AlarmsTable {
  id: number;
  item_id: number;
  device_id: number;
  device_group_id: number;
  item_name: string;
  device_name: string;
  device_group_name: string;
  kind: string;
  status: number;
  level: number;
  color: string;
  info: string;
  value: number | null;
  start_time: number;
  end_time: number | null;
  last_check: number;
  handling: number;
  remarks: string;
  confirmed_by: string;
  confirmed_at: number | null;
  notify_count: number;
  escalated: number;
  /** What raised an area's own alarm (`video:3`); '' for the engine's item and device alarms. */
  source: string;
}

export interface AlarmLogsTable {
  id: Generated<number>;
  time: number;
  alarm_id: number;
  item_id: number;
  device_group_id: number;
  item_name: string;
  device_name: string;
  device_group_name: string;
  state: number;
  action: string;
  result: number;
  detail: string;
  user_name: string;
  attempts: number;
}

export interface ContactsTable {
  id: Generated<number>;
  name: string;
  alias: string;
  email: string;
  phone: string;
  voice_number: string;
  sms_number: string;
  alarm_level: number;
  time_period_id: number;
  duty: number;
  enable: number;
}

export interface ContactGroupsTable {
  id: Generated<number>;
  name: string;
  remark: string;
  /** JSON list of contact ids. */
  contact_ids: string;
  email: number;
  sms: number;
  voice: number;
  /** JSON list of notify_channels ids. */
  channel_ids: string;
  escalate_minutes: number;
  escalate_group_id: number;
  mode: number;
}

export interface NotificationLogsTable {
  id: Generated<number>;
  time: number;
  alarm_id: number;
  item_id: number;
  item_name: string;
  device_name: string;
  device_group_name: string;
  state: number;
  action: string;
  channel: string;
  target: string;
  result: number;
  detail: string;
  attempts: number;
}
