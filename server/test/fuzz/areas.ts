/**
 * The fuzz test's files: which OpenAPI tags each sends bad requests to. The tables a rejected
 * request of those routes must leave unchanged are read from the declarations of the areas that
 * registered them (server/src/modules/<area>/area.ts), with the operation log and the global
 * settings for every file, and `also` for tables of other areas those routes reach. A new tag must
 * be given a file, or coverage.int.test.ts fails.
 */
export const fuzzAreas = {
  monitoring: { tags: ['monitoring', 'site-map'], also: [] },
  series: { tags: ['series', 'reports', 'device-view', 'network'], also: ['items'] },
  auth: { tags: ['auth', 'health', 'settings', 'ldap', 'tokens', 'licence'], also: ['user_roles', 'module_settings'] },
  users: { tags: ['users', 'security', 'logs'], also: ['users', 'sessions', 'alarm_logs', 'notification_logs'] },
  alarms: { tags: ['alarms', 'dashboard'], also: ['items'] },
  notify: { tags: ['notify'], also: ['role_contacts', 'alarm_settings'] },
  inspection: { tags: ['inspection', 'duty'], also: ['module_settings'] },
  energy: { tags: ['energy'], also: [] },
  'electrical-safety': { tags: ['electrical-safety'], also: ['module_settings', 'items'] },
  'work-orders': { tags: ['work-orders'], also: [] },
  https: { tags: ['https'], also: ['module_settings'] },
  firewall: { tags: ['firewall'], also: ['module_settings'] },
  'time-network': { tags: ['time-network'], also: ['module_settings'] },
  system: { tags: ['system'], also: ['module_settings'] },
  maintenance: { tags: ['maintenance'], also: [] },
  automation: { tags: ['automation'], also: [] },
  video: { tags: ['video'], also: [] },
  'door-access': { tags: ['door-access'], also: [] },
  // Custom entries live in the access area's catalogue (the custom-menus area declares no table).
  'custom-menus': { tags: ['custom-menus'], also: ['menus', 'role_menus', 'functions', 'module_settings'] },
  branding: { tags: ['branding'], also: ['module_settings'] },
  recovery: { tags: ['recovery'], also: ['users'] },
} satisfies Record<string, { tags: string[]; also: string[] }>;

export type FuzzArea = keyof typeof fuzzAreas;
