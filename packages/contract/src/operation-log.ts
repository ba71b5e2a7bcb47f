/**
 * The codes the server writes to the operation log, and how a reader turns them into names
 * (docs/operation-log.md). A row keeps codes, never text in the writer's language: the module and
 * action are codes named under `logs.modules` and `logs.actions` of the shared locale files, and a
 * detail in words is a coded detail, `{"code", "params"}`, named under `logs.details`; a detail that
 * is data (a written value, a block reason typed by a user) is stored as it is.
 */

/**
 * Module code → its name's key under `logs.modules`. The codes are those modules write themselves
 * and those the shared trail derives from a route's path (`server/src/modules/logs/index.ts`,
 * `trailModule`); a test fails when a written code is missing here.
 */
export const operationLogModules = {
  // Written by the modules themselves.
  auth: 'auth',
  ldap: 'ldap',
  settings: 'settings',
  // The global settings, one module each (the key was the target: a code).
  'settings/ACCOUNT_SAFE': 'accountSafe',
  'settings/LOGIN_SAFE': 'loginSafe',
  'settings/PWD_COMPLEXITY': 'passwordRules',
  'settings/OUTBOUND': 'outbound',
  notify: 'notify',
  dashboard: 'dashboard',
  alarms: 'alarms',
  logs: 'logs',
  users: 'users',
  roles: 'roles',
  user_groups: 'userGroups',
  security: 'security',
  energy: 'energy',
  api_tokens: 'apiTokens',
  https: 'https',
  maintenance: 'maintenance',
  automation: 'automation',
  branding: 'branding',
  recovery: 'recovery',
  // The shared trail: the path of every write route (without its parameters).
  alarm_log: 'alarmLog',
  clean_notice_list: 'cleanNoticeList',
  data_history_template: 'dataHistoryTemplate',
  data_historys: 'dataHistorys',
  'data_historys/export': 'dataHistorysExport',
  'data_historys/table': 'dataHistorysTable',
  'device_groups/device/curve/export': 'deviceCurveExport',
  'device_groups/device/item': 'deviceItem',
  'electricity_safe/meters': 'electricitySafeMeters',
  'electricity_safe/switch_opt': 'electricitySafeSwitch',
  'energy/device_groups_device': 'energyMeters',
  energy_cost_set: 'energyCostSet',
  gis: 'gis',
  'gis/params': 'gisParams',
  'inspection/manual': 'inspectionManual',
  'inspection/report/review': 'inspectionReview',
  'menus/language': 'menusLanguage',
  notification_log: 'notificationLog',
  on_duty_handover: 'dutyHandover',
  'on_duty_handover/setting': 'dutyHandoverSetting',
  on_duty_memorandum: 'dutyMemorandum',
  on_duty_table: 'dutyTable',
  'on_duty_table/rotation': 'dutyRotation',
  on_duty_time_schedule: 'dutySchedule',
  operation_record: 'operationRecord',
  'overview/alarm_count_clear': 'alarmCountClear',
  'setting/account_blocks': 'accountBlocks',
  'setting/alarm_commons': 'alarmCommons',
  'setting/alarm_levels': 'alarmLevels',
  'setting/alarm_push': 'alarmPush',
  'setting/alarm_push/test': 'alarmPushTest',
  'setting/categorys': 'categories',
  'setting/contact_groups': 'contactGroups',
  'setting/contacts': 'contacts',
  'setting/device_groups': 'sites',
  'setting/device_groups/copy': 'sitesCopy',
  'setting/device_templates': 'deviceTemplates',
  'setting/device_templates/from_device': 'deviceTemplatesFromDevice',
  'setting/devices': 'devices',
  'setting/devices/bulk': 'devicesBulk',
  'setting/devices/copy': 'devicesCopy',
  'setting/devices/data_history': 'devicesDataHistory',
  'setting/devices/points': 'devicesPoints',
  'setting/email_service': 'emailService',
  'setting/energy': 'energySettings',
  'setting/https': 'https',
  'setting/https/acme': 'httpsAcme',
  'setting/https/cert_file': 'httpsCertFile',
  'setting/https/domain': 'httpsDomain',
  'setting/inspection_report': 'inspectionReport',
  'setting/intelligent_inspection': 'intelligentInspection',
  'setting/items': 'items',
  'setting/items/bulk': 'itemsBulk',
  'setting/items/data_history': 'itemsDataHistory',
  'setting/maintain/firewall/keep': 'firewallKeep',
  'setting/menus': 'menus',
  'setting/maintain/firewall/ports': 'firewallRules',
  'setting/maintain/firewall/status': 'firewallStatus',
  'setting/notice_tpl': 'noticeTemplate',
  'setting/patrol_settings': 'patrolSettings',
  'setting/power_safety_settings': 'powerSafetySettings',
  'setting/recover_tpl': 'recoverTemplate',
  'setting/roles': 'roles',
  'setting/serial_port': 'serialPort',
  // Door access (docs/door-access.md).
  'access_control/device': 'doorDevices',
  'access_control/card': 'doorCards',
  'access_control/copy': 'doorCopy',
  'access_control/ctrl': 'doorCtrl',
  'access_control/log_sync': 'doorLogSync',
  'access_control/permission': 'doorPermissions',
  'access_control/contact': 'doorNoticeContact',
  'access_control/toggle': 'doorNoticeToggle',
  'access_control/option': 'doorOptions',
  // The box's time, network and services (docs/time-network.md).
  'setting/time': 'settingTime',
  'setting/time/syncd': 'settingTimeSyncd',
  'setting/network/ip': 'networkIp',
  'setting/network/dns': 'networkDns',
  'setting/network/keep': 'networkKeep',
  'setting/service': 'hostService',
  // The system pages (docs/system.md), written by the system module itself.
  'setting/maintain/debug_log': 'debugLog',
  'setting/maintain/sm4': 'sm4',
  'setting/maintain/tools/ping': 'toolsPing',
  'setting/maintain/tools/port': 'toolsPort',
  'setting/maintain/tools/traceroute': 'toolsTraceroute',
  'setting/series_retention': 'seriesRetention',
  'setting/time_periods': 'timePeriods',
  'setting/top_view/background': 'topViewBackground',
  'setting/top_view/device': 'topViewDevice',
  'setting/top_view/image_backgroup': 'topViewImageBackground',
  'setting/top_view/images': 'topViewImages',
  'setting/top_view/normal_icon': 'topViewIcon',
  'setting/top_view/ticket': 'topViewTicket',
  'setting/top_view/upload_quota': 'topViewUploadQuota',
  'setting/top_view/vertical_view_polling_set': 'topViewPolling',
  'setting/user_groups': 'userGroups',
  'setting/users': 'users',
  stairstep: 'stairstep',
  stemp_time: 'tariffTimes',
  time_sharing_system: 'timeSharing',
  warning_operation: 'warningOperation',
  work_order: 'workOrders',
  'work_order/file': 'workOrderFiles',
  work_order_set: 'workOrderSettings',
  'setting/actions': 'automationActions',
  'setting/auto': 'linkage',
  'setting/auto/update_state': 'linkageState',
  'setting/cron': 'timedTasks',
  'pub/remote_control': 'remoteControl',
} as const;
export type OperationLogModule = keyof typeof operationLogModules;

/** Action code → its name's key under `logs.actions`. */
export const operationLogActions = {
  create: 'create',
  add: 'add',
  update: 'update',
  edit: 'edit',
  delete: 'delete',
  login: 'login',
  logout: 'logout',
  lock: 'lock',
  auto_login: 'autoLogin',
  change_password: 'changePassword',
  verify_password: 'verifyPassword',
  revoke_device_token: 'revokeDeviceToken',
  revoke: 'revoke',
  import: 'import',
  auto_create: 'autoCreate',
  export: 'export',
  clear: 'clear',
  block: 'block',
  unblock: 'unblock',
  test: 'test',
  tariff: 'tariff',
  switch_opt: 'switch',
  enable: 'enable',
  disable: 'disable',
  keep: 'keep',
  rollback: 'rollback',
  backup: 'backup',
  restore: 'restore',
  upload: 'upload',
  run: 'run',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
  open_door: 'openDoor',
  door_mode: 'doorMode',
} as const;
export type OperationLogAction = keyof typeof operationLogActions;

/** Detail code → its parameters; each is named under `logs.details.<code>`. */
export interface OperationLogDetails {
  passwordChangeRequired: Record<string, never>;
  via: { via: string };
  accountLocked: Record<string, never>;
  wrongPassword: Record<string, never>;
  wrongPasswordVia: { via: string };
  autoLock: Record<string, never>;
  oldPasswordWrong: Record<string, never>;
  passwordChanged: Record<string, never>;
  passwordReset: Record<string, never>;
  rows: { count: number };
  countingSince: { time: number };
  tokenExpires: { days: number };
  tokenExpiresReadOnly: { days: number };
  tokenOfUser: { user: string };
  /** A write the device or a rule refused; `error` is a key of the shared texts, `errorParams` its values as JSON. */
  writeRefused: { value: string; error: string; errorParams: string };
  switchWrongPassword: { value: string };
  ldapUnavailable: { reason: string };
  ldapNotImported: Record<string, never>;
  ldapNoDefaults: Record<string, never>;
  ldapImport: { imported: number; skipped: number };
  debugLog: { bytes: number };
  debugLogEncrypted: { bytes: number };
  sm4Enabled: Record<string, never>;
  sm4Disabled: Record<string, never>;
  sm4KeyEnabled: Record<string, never>;
  sm4KeyDisabled: Record<string, never>;
  recoveryCodeAccepted: Record<string, never>;
  recoveryCodeWrong: Record<string, never>;
  recoveryCodeExpired: Record<string, never>;
  recoveryCodeNone: Record<string, never>;
  recoveryTooMany: Record<string, never>;
  recoveryTicketInvalid: Record<string, never>;
}
export const operationLogDetailCodes = [
  'passwordChangeRequired',
  'via',
  'accountLocked',
  'wrongPassword',
  'wrongPasswordVia',
  'autoLock',
  'oldPasswordWrong',
  'passwordChanged',
  'passwordReset',
  'rows',
  'countingSince',
  'tokenExpires',
  'tokenExpiresReadOnly',
  'tokenOfUser',
  'writeRefused',
  'switchWrongPassword',
  'ldapUnavailable',
  'ldapNotImported',
  'ldapNoDefaults',
  'ldapImport',
  'debugLog',
  'debugLogEncrypted',
  'sm4Enabled',
  'sm4Disabled',
  'sm4KeyEnabled',
  'sm4KeyDisabled',
  'recoveryCodeAccepted',
  'recoveryCodeWrong',
  'recoveryCodeExpired',
  'recoveryCodeNone',
  'recoveryTooMany',
  'recoveryTicketInvalid',
] as const satisfies readonly (keyof OperationLogDetails)[];
export type OperationLogDetailCode = (typeof operationLogDetailCodes)[number];

/** A detail as a writer gives it: a coded detail, or data stored as it is. */
export type OperationLogDetail =
  | string
  | { [C in OperationLogDetailCode]: { code: C; params?: OperationLogDetails[C] } }[OperationLogDetailCode];

/** The detail column's text of a detail. */
export const encodeOperationLogDetail = (detail: OperationLogDetail | undefined): string =>
  detail === undefined ? '' : typeof detail === 'string' ? detail : JSON.stringify(detail);

type Decoded = { code: OperationLogDetailCode; params: Record<string, string | number> };

/** The English details rows held before details were coded, read as the codes they meant. */
const legacyDetails: [RegExp, (m: RegExpMatchArray) => Decoded][] = [
  [/^password change required$/, () => ({ code: 'passwordChangeRequired', params: {} })],
  [/^locked$/, () => ({ code: 'accountLocked', params: {} })],
  [/^auto$/, () => ({ code: 'autoLock', params: {} })],
  [/^wrong user name or password$/, () => ({ code: 'wrongPassword', params: {} })],
  [/^ldap: wrong user name or password$/, () => ({ code: 'wrongPasswordVia', params: { via: 'LDAP' } })],
  [/^ldap$/, () => ({ code: 'via', params: { via: 'LDAP' } })],
  [/^ldap: not imported$/, () => ({ code: 'ldapNotImported', params: {} })],
  [/^old password wrong$/, () => ({ code: 'oldPasswordWrong', params: {} })],
  [/^password changed$/, () => ({ code: 'passwordChanged', params: {} })],
  [/^password reset$/, () => ({ code: 'passwordReset', params: {} })],
  [/^(\d+) rows$/, (m) => ({ code: 'rows', params: { count: Number(m[1]) } })],
  [/^since (\d+)$/, (m) => ({ code: 'countingSince', params: { time: Number(m[1]) } })],
  [/^expires in (\d+) days$/, (m) => ({ code: 'tokenExpires', params: { days: Number(m[1]) } })],
  [/^expires in (\d+) days, read-only$/, (m) => ({ code: 'tokenExpiresReadOnly', params: { days: Number(m[1]) } })],
  [/^([-\d.]+): wrong password$/, (m) => ({ code: 'switchWrongPassword', params: { value: m[1] ?? '' } })],
];

/**
 * A stored detail read back: its code and parameters, or null for data. A row written before
 * details were coded is read by its English text where it is one of the texts writers used.
 */
export const decodeOperationLogDetail = (text: string): Decoded | null => {
  for (const [pattern, decoded] of legacyDetails) {
    const match = text.match(pattern);
    if (match) return decoded(match);
  }
  if (!text.startsWith('{"code":')) return null;
  try {
    const value = JSON.parse(text) as { code?: unknown; params?: unknown };
    if (!(operationLogDetailCodes as readonly unknown[]).includes(value.code)) return null;
    const params = value.params && typeof value.params === 'object' ? value.params : {};
    return { code: value.code as OperationLogDetailCode, params: params as Decoded['params'] };
  } catch {
    return null;
  }
};

/** The key of a module's name, or null for a code without one (shown as it is). */
export const operationLogModuleKey = (code: string) =>
  Object.hasOwn(operationLogModules, code)
    ? (`logs.modules.${operationLogModules[code as OperationLogModule]}` as const)
    : null;

/** The key of an action's name, or null for a code without one (shown as it is). */
export const operationLogActionKey = (code: string) =>
  Object.hasOwn(operationLogActions, code)
    ? (`logs.actions.${operationLogActions[code as OperationLogAction]}` as const)
    : null;

/** A text lookup: a key of the shared or web locale files and its values, in the reader's language. */
export type TextOf = (key: string, values?: Record<string, string | number>) => string;

const parsedValues = (json: unknown): Record<string, string | number> => {
  try {
    const value = typeof json === 'string' ? JSON.parse(json) : {};
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
};

/**
 * What a reader sees for a row's codes, in the language of `text`: the module's and action's
 * names (a code without one as it is), and the detail in words (a refused write's error named from
 * its key, a `time` given as epoch seconds through `time`) or, for data, as it is. The operation
 * log page, the device log, the switch log and the xlsx export all read rows through this.
 */
export const operationLogReader = (text: TextOf, time: (seconds: number) => string) => ({
  module: (code: string) => {
    const key = operationLogModuleKey(code);
    return key ? text(key) : code;
  },
  action: (code: string) => {
    const key = operationLogActionKey(code);
    return key ? text(key) : code;
  },
  detail: (stored: string) => {
    const coded = decodeOperationLogDetail(stored);
    if (!coded) return stored;
    const params = { ...coded.params };
    if (coded.code === 'writeRefused') params.error = text(String(params.error), parsedValues(params.errorParams));
    if (typeof params.time === 'number') params.time = time(params.time);
    return text(`logs.details.${coded.code}`, params);
  },
});
