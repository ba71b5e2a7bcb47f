/**
 * The fuzz test's areas: which OpenAPI tags each test file sends bad requests to, and which tables a
 * rejected request of those routes must leave unchanged (the operation log and the global settings
 * are checked for every area). A new tag must be given an area, or coverage.int.test.ts fails.
 */
export const fuzzAreas = {
  monitoring: {
    tags: ['monitoring', 'top-view'],
    tables: [
      'device_groups',
      'categorys',
      'device_templates',
      'devices',
      'items',
      'time_periods',
      'serial_ports',
      'top_view_backgrounds',
      'top_view_components',
      'top_view_images',
      'top_view_image_uses',
      'top_view_settings',
    ],
  },
  series: {
    tags: ['series', 'reports', 'device-view', 'network'],
    tables: ['sample_chunks', 'samples_1m', 'samples_1h', 'data_history_templates', 'device_state_logs', 'items'],
  },
  auth: {
    tags: ['auth', 'health', 'settings', 'ldap', 'tokens'],
    tables: ['users', 'user_roles', 'sessions', 'device_tokens', 'api_tokens', 'captchas', 'login_attempts'],
  },
  users: {
    tags: ['users', 'security', 'logs'],
    tables: [
      'users',
      'roles',
      'role_menus',
      'role_functions',
      'role_sites',
      'role_contacts',
      'role_videos',
      'user_roles',
      'user_groups',
      'user_user_groups',
      'account_blocks',
      'sessions',
      'alarm_logs',
      'notification_logs',
    ],
  },
  alarms: {
    tags: ['alarms', 'dashboard'],
    tables: ['alarms', 'alarm_logs', 'alarm_levels', 'alarm_settings', 'alarm_disabled', 'items'],
  },
  notify: {
    tags: ['notify'],
    tables: ['contacts', 'contact_groups', 'notify_channels', 'notification_logs', 'role_contacts', 'alarm_settings'],
  },
  inspection: {
    tags: ['inspection', 'duty'],
    tables: [
      'inspection_reports',
      'inspection_plans',
      'scheduled_tasks',
      'module_settings',
      'duty_shifts',
      'duty_rotations',
      'duty_table',
      'duty_memos',
      'duty_handovers',
    ],
  },
  energy: {
    tags: ['energy'],
    tables: ['energy_meters', 'energy_tariffs', 'energy_tariff_sets'],
  },
  'electrical-safety': {
    tags: ['electrical-safety'],
    tables: ['electrical_meters', 'module_settings', 'items'],
  },
  'work-orders': {
    tags: ['work-orders'],
    tables: ['work_orders', 'work_order_history', 'work_order_files', 'work_order_sets'],
  },
} satisfies Record<string, { tags: string[]; tables: string[] }>;

export type FuzzArea = keyof typeof fuzzAreas;
