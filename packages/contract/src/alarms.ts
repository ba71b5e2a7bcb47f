import { z } from 'zod';
import { pageOf, pageQuery } from './envelope.ts';
import { defineRoute } from './route.ts';
import { storedNumber } from './stored-number.ts';

/**
 * Alarms: levels, common parameters (jitter, flood limit), alarm params of the shell, the current
 * alarm list (`review`), alarm operations (`warning_operation`), alarm log and the push messages of
 * the alarm engine (000 §3, §4.7, §6, §7; 002 §3, §4, §7.1, §7.3, §9). docs/alarms.md.
 * Validation messages are keys of the shared locale files (`alarms.validation.*`).
 */

const msg = (key: string) => `alarms.validation.${key}`;
const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const alarmIdParams = z.object({ id });
/** RSA-OAEP ciphertext of the caller's password (docs/auth.md). */
const encrypted = z.string().min(1).max(1024);

/** Alarm operation codes (000 §4.7). */
export const alarmAction = { confirm: 0, unconfirm: 1, disable: 2, enable: 3 } as const;
/** Alarm handling states (002 §4). */
export const handlingState = { unprocessed: 0, confirmed: 1, disabled: 2, processed: 3 } as const;
export const handlingStates = ['unprocessed', 'confirmed', 'disabled', 'processed'] as const;

/** Status 1000: a notice drawn without the status badge (000 §4.7), used for recovery notices. */
export const recoveredStatus = 1000;

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: msg('color') });
const requiredText = (max: number, key: string) =>
  z
    .string()
    .trim()
    .min(1, { message: msg(key) })
    .max(max, { message: msg('tooLong') });

// ---------- alarm levels (setting/alarm_levels, /warning_level) ----------

export const alarmLevelInput = z.strictObject({
  name: requiredText(32, 'levelName'),
  /** 1 (most severe) … 5. */
  level: z
    .number()
    .int()
    .min(1, { message: msg('level') })
    .max(5, { message: msg('level') }),
  color: hexColor,
  /** Whether browsers play the alarm sound for this level. */
  sound: z.boolean().default(true),
});
export const alarmLevelRow = z.object({
  id: z.number().int(),
  name: z.string(),
  level: z.number().int(),
  color: z.string(),
  sound: z.boolean(),
});
export type AlarmLevelRow = z.infer<typeof alarmLevelRow>;

/** The names levels 1–5 are seeded with (the spec's words); shown in the reader's language until renamed. */
export const seededLevelNames: Record<number, string> = { 1: '紧急', 2: '严重', 3: '重要', 4: '次要', 5: '提示' };
/** Locale key of a seeded level name. */
export const seededLevelKey = (level: number) => `alarms.levelNames.l${level}`;
/**
 * The name a level is shown by: a seeded name in the reader's language (`text` looks a key up),
 * a name an administrator gave as it is.
 */
export const levelName = (name: string, level: number, text: (key: string) => string): string =>
  seededLevelNames[level] === name ? text(seededLevelKey(level)) : name;

// ---------- common parameters (setting/alarm_commons) ----------

const pct = z.number().min(0).max(100);
const count = (max: number) => z.number().int().min(0).max(max);

/**
 * Alarm common parameters (002 §3): voice, video pop-up, notification, jitter recognition and its
 * thresholds, buzzer and lamp (002 §9 ranges), plus the flood limiter and escalation switch.
 */
export const alarmCommons = z
  .strictObject({
    voice_enable: z.boolean().default(true),
    popup_enable: z.boolean().default(true),
    video_enable: z.boolean().default(true),
    notify_enable: z.boolean().default(true),
    jitter_enable: z.boolean().default(true),
    /** 'standard' is the spec's rule (changes / 20); 'weighted' is Nagios's (0.75 … 1.25). */
    jitter_type: z.enum(['standard', 'weighted']).default('standard'),
    /** Flapping starts above this percent … */
    jitter_start: pct.default(50),
    /** … and stops below this one. */
    jitter_stop: pct.default(25),
    /** Confirmed states older than this many seconds drop out of the window (0: never). */
    jitter_period: count(604_800).default(3600),
    /** Confirmed states that must be seen before jitter is judged. */
    buffer_times: count(21).default(5),
    /** Lifts (abnormal → normal) in a row after which the item is jittering regardless of percent (0: off). */
    max_continuous_lifts: count(1000).default(0),
    /** Seconds a jittering item must stay below the stop threshold before notices resume (0: at once). */
    recovery_period: count(86_400).default(0),
    /**
     * Level (1 most severe … 5) of point-fault alarms: an item that cannot be read or judged
     * (docs/alarms.md "Point faults").
     */
    point_fault_level: z.number().int().min(1).max(5).default(3),
    /** Times a problem notice is repeated at the item's notification interval. */
    notify_times: count(100).default(3),
    /** Flood limiter: at most this many notices a minute per recipient and channel (0: off). */
    flood_limit: count(10_000).default(20),
    escalation_enable: z.boolean().default(true),
    buzzer: z
      .strictObject({
        enable: z.boolean().default(false),
        frequency: z.number().int().min(1).max(65_535).default(2000),
        duty: pct.default(10),
        count: z.number().int().min(0).max(65_535).default(0),
        time: z.number().int().min(0).max(65_535).default(0),
      })
      .default({ enable: false, frequency: 2000, duty: 10, count: 0, time: 0 }),
    lamp: z
      .strictObject({
        enable: z.boolean().default(false),
        frequency: z.number().min(0).max(1000).default(2),
        duty: pct.default(10),
        count: z.number().int().min(0).max(65_535).default(0),
        time: z.number().int().min(0).max(65_535).default(0),
      })
      .default({ enable: false, frequency: 2, duty: 10, count: 0, time: 0 }),
  })
  .refine((c) => c.jitter_stop <= c.jitter_start, { message: msg('jitterStop'), path: ['jitter_stop'] });
export type AlarmCommons = z.infer<typeof alarmCommons>;
export const defaultAlarmCommons: AlarmCommons = alarmCommons.parse({});

/** The shell's alarm params (000 §3): what the engine's settings allow, per browser switches aside. */
export const alarmParams = z.object({
  popup_enable: z.boolean(),
  voice_enable: z.boolean(),
  video_enable: z.boolean(),
});

// ---------- alarms ----------

/** What an alarm is about (docs/alarms.md). */
export const alarmKind = z.enum(['threshold', 'point_fault', 'communication']);
export type AlarmKind = z.infer<typeof alarmKind>;

/** An alarm as the notice panel, the bell list and /alarm show it (000 §3 alarm notice). */
export const alarmRow = z.object({
  /** The alarm record id. */
  status_id: z.number().int(),
  item_id: z.number().int(),
  device_id: z.number().int(),
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  device_name: z.string(),
  item_name: z.string(),
  /**
   * 'threshold' (an item's value), 'point_fault' (an item that cannot be read or judged: the reason
   * in `info`) or 'communication' (a device without data).
   */
  kind: alarmKind,
  /** Item state when raised (002 §4: 2 abnormal, 4 unknown …); 1000 when recovered. */
  status: z.number().int(),
  status_label: z.string(),
  level: z.number().int(),
  color: z.string(),
  info: z.string(),
  value: storedNumber,
  start_time: z.number().int(),
  end_time: z.number().int().nullable(),
  last_check: z.number().int(),
  /** 0 unprocessed, 1 confirmed, 2 disabled, 3 processed. */
  handling: z.number().int(),
  remarks: z.string(),
  confirmed_by: z.string(),
  jitter: z.number(),
  /** JSON text lists, as the spec's notice carries them. */
  roles: z.string(),
  users: z.string(),
  videos: z.string(),
});
export type AlarmRow = z.infer<typeof alarmRow>;

export const reviewQuery = pageQuery.extend({
  device_group_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  level: z.coerce.number().int().min(1).max(5).optional(),
  handling: z.coerce.number().int().min(0).max(3).optional(),
  /** 'open' (default): current alarms; 'all' includes recovered ones. */
  scope: z.enum(['open', 'all']).default('open'),
  start: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  end: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  /** One alarm (a work order's link to its alarm). */
  status_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});

const remarks = z
  .string()
  .trim()
  .min(1, { message: msg('remarks') })
  .max(500, { message: msg('tooLong') });

/** POST warning_operation (000 §7): one alarm. */
export const warningOperation = z.strictObject({
  alarm_action: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  remarks,
  item_id: z.number().int().min(0).max(2_147_483_647),
  status_id: z
    .number()
    .int()
    .min(1, { message: msg('noData') })
    .max(2_147_483_647),
});
/** PUT warning_operation: confirm all open alarms the caller can see; remarks only. */
export const operateAll = z.strictObject({ remarks });

export const alarmLogRow = z.object({
  id: z.number().int(),
  time: z.number().int(),
  alarm_id: z.number().int(),
  item_id: z.number().int(),
  device_group_id: z.number().int(),
  /** The triggered item: site / device / item. */
  item_name: z.string(),
  device_name: z.string(),
  device_group_name: z.string(),
  state: z.number().int(),
  /** raise, recover, confirm, unconfirm, disable, enable, confirm_all, jitter_start, jitter_stop, escalate. */
  action: z.string(),
  result: z.number().int(),
  detail: z.string(),
  user_name: z.string(),
  attempts: z.number().int(),
});
export const logQuery = pageQuery.extend({
  start: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  end: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  item_name: z.string().max(64).optional(),
  action: z.string().max(32).optional(),
});
export const clearLogs = z.object({ verify_password: encrypted });

// ---------- push messages ----------

/** Pushed for every new alarm, recovery and operation (000 §8), to the users 000 §6 allows. */
export const alarmPushMessage = z.object({
  type: z.literal('alarm'),
  event: z.enum(['raise', 'recover', 'operation', 'jitter']),
  /** Milliseconds since the epoch when the engine published it (latency figures). */
  sent_ms: z.number(),
  alarm: alarmRow,
  /**
   * Shift handover on (002 §4): true for the users on duty now, false for the others (their lists
   * follow, no pop-up or sound). Absent when handover is off: everyone is told.
   */
  notice: z.boolean().optional(),
});
export type AlarmPushMessage = z.infer<typeof alarmPushMessage>;

// ---------- routes ----------

export const alarmRoutes = {
  levels: defineRoute({
    method: 'GET',
    path: 'setting/alarm_levels',
    summary: 'Alarm levels 1–5 with colours',
    tags: ['alarms'],
    response: pageOf(alarmLevelRow),
  }),
  levelCreate: defineRoute({
    method: 'POST',
    path: 'setting/alarm_levels',
    summary: 'Add an alarm level',
    tags: ['alarms'],
    body: alarmLevelInput,
    response: alarmLevelRow,
  }),
  levelUpdate: defineRoute({
    method: 'PUT',
    path: 'setting/alarm_levels/:id',
    summary: 'Change an alarm level',
    tags: ['alarms'],
    params: alarmIdParams,
    body: alarmLevelInput,
    response: alarmLevelRow,
  }),
  levelDelete: defineRoute({
    method: 'DELETE',
    path: 'setting/alarm_levels/:id',
    summary: 'Delete an alarm level',
    tags: ['alarms'],
    params: alarmIdParams,
    response: z.null(),
  }),
  commons: defineRoute({
    method: 'GET',
    path: 'setting/alarm_commons',
    summary: 'Alarm common parameters (jitter, flood limit, buzzer, lamp)',
    tags: ['alarms'],
    response: alarmCommons,
  }),
  commonsUpdate: defineRoute({
    method: 'PUT',
    path: 'setting/alarm_commons',
    summary: 'Change the alarm common parameters',
    tags: ['alarms'],
    body: alarmCommons,
    response: alarmCommons,
  }),
  params: defineRoute({
    method: 'GET',
    path: 'alarm_params',
    summary: 'Alarm params of the shell: popup_enable, voice_enable, video_enable',
    tags: ['alarms'],
    response: alarmParams,
  }),
  review: defineRoute({
    method: 'GET',
    path: 'review',
    summary: 'Alarms the caller can see (current by default), newest first',
    tags: ['alarms'],
    query: reviewQuery,
    response: pageOf(alarmRow),
  }),
  operation: defineRoute({
    method: 'POST',
    path: 'warning_operation',
    summary: 'Alarm operation: 0 confirm, 1 remove confirmation, 2 disable item alarm, 3 enable',
    tags: ['alarms'],
    body: warningOperation,
    response: alarmRow,
  }),
  operateAll: defineRoute({
    method: 'PUT',
    path: 'warning_operation',
    summary: 'Confirm every open alarm the caller can see (remarks only)',
    tags: ['alarms'],
    body: operateAll,
    response: z.object({ confirmed: z.number().int() }),
  }),
  alarmLog: defineRoute({
    method: 'GET',
    path: 'alarm_log',
    summary: 'Alarm log: raises, recoveries, operations and jitter events',
    tags: ['logs'],
    query: logQuery,
    response: pageOf(alarmLogRow),
  }),
  alarmLogClear: defineRoute({
    method: 'DELETE',
    path: 'alarm_log',
    summary: 'Clear the alarm log (verification password required)',
    tags: ['logs'],
    body: clearLogs,
    response: z.null(),
  }),
};

/** Menu ids of the alarm pages (docs/menus.md). */
export const alarmMenus = {
  alarm: 104,
  alarmParam: 231,
  warningLevel: 232,
  mailbox: 233,
  alarmPush: 234,
  alarmTemplate: 235,
  contacts: 225,
  contactGroups: 226,
  alarmLog: 302,
  notificationLog: 303,
} as const;
