import { z } from 'zod';
import { pageOf, tParam } from './envelope.ts';
import { defineRoute } from './route.ts';
import { storedNumber } from './stored-number.ts';

/**
 * The home dashboard and the overview page (000 §2.6, §3, §7; 002 §7.3): host figures and service
 * states (`get_system_info`), the alarm ranking and its clear, active alarm counts by level, the
 * environment items, and the state of every granted site. docs/dashboard.md.
 */

/** A service's real state: its object in the server process is running or not. */
export const serviceState = z.enum(['running', 'stopped']);
export type ServiceState = z.infer<typeof serviceState>;

const sizeFigures = z.object({
  /** Text with a unit suffix T, G, M, K or B (000 §7). */
  total: z.string(),
  used: z.string(),
  free: z.string(),
  /** Used / total × 100, two decimals. */
  percent: z.number(),
  total_bytes: z.number(),
  used_bytes: z.number(),
  free_bytes: z.number(),
});

/**
 * GET get_system_info: host figures and the run info of 000 §3. The fields marked "host" describe the
 * machine itself (its name, system, CPU model, data path, uptimes); no page shows them, so only
 * administrators (user 1, role 1), who run the host, get them (docs/dashboard.md).
 */
export const systemInfo = z.object({
  cpu: z.object({
    /** Busy percent over the last measuring interval; null before the first measurement. */
    percent: z.number().nullable(),
    /** The measuring interval (ms): 3000 (000 §7). */
    interval_ms: z.number().int(),
    /** Host. */
    cores: z.number().int().optional(),
    /** Host. */
    model: z.string().optional(),
  }),
  memory: sizeFigures,
  /** The file system of the data directory (its path: host). */
  disk: sizeFigures.extend({ path: z.string().optional() }),
  /** Host: seconds since the host booted, and since the server started. */
  uptime: z.number().int().optional(),
  server_uptime: z.number().int().optional(),
  /** Host. */
  hostname: z.string().optional(),
  platform: z.string().optional(),
  server_time: z.number().int().optional(),
  alert_service: serviceState,
  collection_service: serviceState,
  /** Spelled so in 000 §3. */
  system_serice: serviceState,
  notification_service: serviceState,
  /** Cellular signal strength; null: this server has no cellular modem (the web says there is no data). */
  signal: z.number().nullable(),
});
export type SystemInfo = z.infer<typeof systemInfo>;

/** GET overview/alarm_count: items ranked by alarms raised since the last clear. */
export const alarmCountQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(5),
  t: tParam,
});
export const alarmCountRow = z.object({
  /** The item id. */
  id: z.number().int(),
  name: z.string(),
  alarm_count: z.number().int(),
  device: z.object({
    name: z.string(),
    /** The device's site, preceded by its parent sites. */
    DeviceGroups: z.array(z.object({ name: z.string() })),
  }),
});
export type AlarmCountRow = z.infer<typeof alarmCountRow>;
export const alarmCountPage = pageOf(alarmCountRow).extend({
  /** Time of the last clear (epoch seconds; 0: never): alarms raised after it are counted. */
  since: z.number().int(),
});

/** GET overview/alarm_level_count: open alarms by level 1–5 with the level's name and colour. */
export const alarmLevelCount = z.object({
  total: z.number().int(),
  data: z.array(z.object({ level: z.number().int(), name: z.string(), color: z.string(), count: z.number().int() })),
});

/** GET overview/environment: TEMP and HUM items of environment devices (category 2) with their latest values. */
export const environmentItem = z.object({
  id: z.number().int(),
  name: z.string(),
  /** 'TEMP' or 'HUM'. */
  item_cell_name: z.string(),
  unit: z.string(),
  value: storedNumber,
  state: z.number().int(),
  last_check: z.number().int(),
});
export const environmentDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  driver: z.string(),
  /** `<driver>_<id>`: the trend call's device_name (000 §7). */
  device_name: z.string(),
  device_group_id: z.number().int(),
  device_group: z.string(),
  state: z.number().int(),
  items: z.array(environmentItem),
});
export const environmentAnswer = z.object({ total: z.number().int(), data: z.array(environmentDevice) });

/** GET overview/sites: the state of every granted site at a glance (/overview). */
export const siteOverviewRow = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int(),
  devices: z.number().int(),
  items: z.number().int(),
  item_abnormal: z.number().int(),
  /** Worst state of its devices and items (002 §4 codes); 0 not ready when it has none. */
  worst_state: z.number().int(),
  /** Open alarms of the site. */
  active_alarms: z.number().int(),
});
export const siteOverviewAnswer = z.object({ total: z.number().int(), data: z.array(siteOverviewRow) });
export type SiteOverviewRow = z.infer<typeof siteOverviewRow>;

/** Severity order of states for "worst" (most severe first): serious, abnormal, warning, unknown, jitter, normal, not ready. */
export const stateSeverity: readonly number[] = [5, 2, 3, 4, 6, 1, 0];

/** Page id of /overview (docs/menus.md). */
export const overviewMenuId = 105;

const tags = ['dashboard'];
export const dashboardRoutes = {
  systemInfo: defineRoute({
    method: 'GET',
    path: 'get_system_info',
    summary: 'Host CPU, memory, disk, uptime and the state of the server services (000 §3 run info)',
    tags,
    response: systemInfo,
  }),
  alarmCount: defineRoute({
    method: 'GET',
    path: 'overview/alarm_count',
    summary: 'Items ranked by alarms raised since the last clear, within the caller’s sites',
    tags,
    query: alarmCountQuery,
    response: alarmCountPage,
  }),
  alarmCountClear: defineRoute({
    method: 'PUT',
    path: 'overview/alarm_count_clear',
    summary: 'Restarts the alarm ranking: only alarms raised after it are counted (administrators)',
    tags,
    response: z.object({ since: z.number().int() }),
  }),
  alarmLevelCount: defineRoute({
    method: 'GET',
    path: 'overview/alarm_level_count',
    summary: 'Open alarms by level 1–5 within the caller’s sites',
    tags,
    response: alarmLevelCount,
  }),
  environment: defineRoute({
    method: 'GET',
    path: 'overview/environment',
    summary: 'Temperature and humidity items of environment devices with their latest values',
    tags,
    response: environmentAnswer,
  }),
  sites: defineRoute({
    method: 'GET',
    path: 'overview/sites',
    summary: 'Devices, items, abnormal items, worst state and open alarms of each granted site',
    tags,
    response: siteOverviewAnswer,
  }),
};
