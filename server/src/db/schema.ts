import type { Generated } from 'kysely';
import type { AlarmTables } from './schema-alarms.ts';
import type { AutomationTables } from './schema-automation.ts';
import type { BusTables } from './schema-bus.ts';
import type { DeviceLogTables } from './schema-device-log.ts';
import type { DoorAccessTables } from './schema-door-access.ts';
import type { ElectricalSafetyTables } from './schema-electrical-safety.ts';
import type { EnergyTables } from './schema-energy.ts';
import type { InspectionDutyTables } from './schema-inspection-duty.ts';
import type { MonitoringTables } from './schema-monitoring.ts';
import type { TopViewTables } from './schema-site-map.ts';
import type { ApiTokenTables } from './schema-tokens.ts';
import type { VideoTables } from './schema-video.ts';
import type { WorkOrderTables } from './schema-work-orders.ts';

/**
 * The tables, as Kysely sees them. Each area adds its tables here and in a migration of its own.
 * Column names follow the spec's field names (snake_case); times are epoch seconds.
 */
export interface Database
  extends MonitoringTables,
    AlarmTables,
    DeviceLogTables,
    ApiTokenTables,
    TopViewTables,
    InspectionDutyTables,
    EnergyTables,
    WorkOrderTables,
    ElectricalSafetyTables,
    AutomationTables,
    VideoTables,
    DoorAccessTables,
    BusTables {
  global_config: GlobalConfigTable;
  users: UsersTable;
  sessions: SessionsTable;
  device_tokens: DeviceTokensTable;
  captchas: CaptchasTable;
  login_attempts: LoginAttemptsTable;
  operation_logs: OperationLogsTable;
  menus: MenusTable;
  functions: FunctionsTable;
  roles: RolesTable;
  user_roles: { user_id: number; role_id: number };
  role_menus: { role_id: number; menu_id: number };
  role_functions: { role_id: number; function_id: number };
  role_sites: { role_id: number; site_id: number };
  user_groups: UserGroupsTable;
  user_user_groups: { user_id: number; group_id: number };
  role_videos: { role_id: number; video_id: number };
  role_contacts: { role_id: number; contact_id: number };
  account_blocks: AccountBlocksTable;
}

/** Global configuration values by key (000 §7 `setting/gc`: ACCOUNT_SAFE, PWD_COMPLEXITY, …). */
export interface GlobalConfigTable {
  id: Generated<number>;
  k: string;
  /** JSON text. */
  v: string;
  updated_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  user_name: string;
  alias: string;
  /** argon2id PHC string. */
  password_hash: string;
  password_changed_at: number;
  /** 1 when the password must be changed at the next login (the first admin password). */
  must_change_password: number;
  pwd_always_valid: number;
  email: string;
  phone: string;
  enable: number;
  /** 1 local, 2 LDAP (000 §6: login type 2 loses the personnel pages). */
  login_type: number;
  language: string;
  locked_at: number | null;
  lock_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  remember: number;
  device_token_id: number | null;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  revoke_reason: string | null;
}

export interface DeviceTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  /** Auto-login period 1–6 (000 §2.1). */
  period: number;
  expires_at: number | null;
  ip: string;
  user_agent: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A captcha lives 2 minutes and is taken (deleted) by its first use, right or wrong. */
export interface CaptchasTable {
  id: string;
  code: string;
  expires_at: number;
  /** The PNG drawn at the first fetch (migration 0030), answered again on every later one. */
  image: Generated<Uint8Array | null>;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  user_name: string;
  ip: string;
  success: number;
  time: number;
}

export interface OperationLogsTable {
  id: Generated<number>;
  time: number;
  user_id: number | null;
  user_name: string;
  ip: string;
  module: string;
  action: string;
  target: string;
  /** 1 success, 0 failure. */
  result: number;
  detail: string;
}

/** Menu node (000 §3): the catalogue the left menu, the route guard and permissions use. */
export interface MenusTable {
  id: number;
  parent_id: number;
  /** Key of the name in the shared locale files; `name` is used when null (custom menus). */
  name_key: string | null;
  name: string;
  url: string;
  icon: string;
  target: string;
  enable: number;
  display: number;
  weight: number;
  builtin: number;
}

/** A function (button) of a page: add, edit, delete, export, confirm alarm… */
export interface FunctionsTable {
  id: Generated<number>;
  menu_id: number;
  code: string;
  name_key: string;
}

/** A role: grants over sites, menus and functions (002 §3 Permissions). Role 1 is the administrator. */
export interface RolesTable {
  id: Generated<number>;
  name: string;
  remark: string;
  created_at: number;
}

/** User group (002 §3): a tree by parent_id (0 at the top). */
export interface UserGroupsTable {
  id: Generated<number>;
  name: string;
  parent_id: number;
  remark: string;
  created_at: number;
}

/** Account block list entry (002 §3): null expiry is everlasting. */
export interface AccountBlocksTable {
  id: Generated<number>;
  user_id: number;
  reason: string;
  created_at: number;
  expires_at: number | null;
  created_by: number | null;
}
