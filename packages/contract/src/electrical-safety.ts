import { z } from 'zod';
import { pageOf, pageQuery, tParam } from './envelope.ts';
import { defineRoute } from './route.ts';
import { storedNumber } from './stored-number.ts';

/**
 * Electrical quality and safety (issue 17 item 5; 002 §2.1 /electricity_safe/*, /energy_manage/elect_*,
 * §7.1 setting/power_safety_settings, §7.3 overview/electrical_safety; docs/electrical-safety.md):
 * which items of a power meter are its phase voltages, currents, powers, PF, THD and frequency, the
 * quality figures from them (live and over time), the switches of a site with their states, and
 * switch operation behind a verification password.
 */

const msg = (key: string) => `electricalSafety.validation.${key}`;
const id = z.coerce.number().int().min(1).max(2_147_483_647);
const epoch = z.coerce.number().int().min(0).max(32_503_680_000);
/** A password encrypted by the browser under the server's login key (as at sign-in). */
const encrypted = z.string().max(1024);

/**
 * What an item of a power meter measures. Phase voltages `ua`…`uc` (V, phase to neutral), line
 * voltages `uab`…`uca`, phase currents `ia`…`ic` (A), total active `p` (kW), reactive `q` (kvar)
 * and apparent `s` (kVA) power, power factor `pf`, frequency `f` (Hz), and the total harmonic
 * distortion of voltage `thd_u` and current `thd_i` (%).
 */
export const meterRoles = [
  'ua',
  'ub',
  'uc',
  'uab',
  'ubc',
  'uca',
  'ia',
  'ib',
  'ic',
  'p',
  'q',
  's',
  'pf',
  'f',
  'thd_u',
  'thd_i',
] as const;
export const meterRole = z.enum(meterRoles);
export type MeterRole = z.infer<typeof meterRole>;

const roleShape = Object.fromEntries(meterRoles.map((r) => [r, id.nullable().default(null)])) as {
  [K in MeterRole]: z.ZodDefault<z.ZodNullable<typeof id>>;
};
/** Item id per role (null: the meter does not give it). */
export const meterPoints = z.object(roleShape).strict();
export type MeterPoints = z.infer<typeof meterPoints>;

/** A switch of a device: its state item (1 closed / on, 0 open / off) and the name shown on the diagram. */
export const switchPoint = z
  .object({
    item_id: id,
    name: z
      .string()
      .trim()
      .max(50, { message: msg('tooLong') })
      .default('')
      .describe("Shown on the diagram; empty: the item's name."),
  })
  .strict();

/** PUT electricity_safe/meters/{device id}: the device's mapping, stored as given. */
export const meterMappingInput = z
  .object({
    points: meterPoints.default(meterPoints.parse({})),
    switches: z
      .array(switchPoint)
      .max(64, { message: msg('tooManySwitches') })
      .default([]),
    t: tParam,
  })
  .strict();
export type MeterMappingInput = z.infer<typeof meterMappingInput>;

/** `stored`: set through the API; `auto`: read from the item cell names (docs/electrical-safety.md). */
export const mappingSources = ['stored', 'auto'] as const;

export const meterMapping = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  code: z.string().describe('Device category code (power_meter, switch, …).'),
  source: z.enum(mappingSources),
  points: z.record(z.string(), z.number().int().nullable()),
  switches: z.array(z.object({ item_id: z.number().int(), name: z.string() })),
  /** Every item of the device, for the mapping form. */
  items: z.array(z.object({ id: z.number().int(), name: z.string(), item_cell_name: z.string(), unit: z.string() })),
});
export type MeterMapping = z.infer<typeof meterMapping>;

export const meterListQuery = z
  .object({
    device_group_id: id.optional().describe('Only this site (and its sub-sites).'),
    device_id: id.optional(),
    t: tParam,
  })
  .strict();

// ---------- settings ----------

/** A limit in percent (0.1–100) with its default. */
const percentLimit = (value: number) =>
  z
    .number()
    .min(0.1, { message: msg('percent') })
    .max(100, { message: msg('percent') })
    .default(value);

/** Limits the quality figures are judged against; defaults from the Chinese standards named in docs. */
export const safetyLimits = z
  .object({
    voltage_unbalance_max: percentLimit(2).describe(
      'Voltage unbalance (%) above which a meter is flagged; GB/T 15543: 2 % normal.',
    ),
    current_unbalance_max: percentLimit(15),
    thd_u_max: percentLimit(5).describe('GB/T 14549, 0.38 kV: 5 %.'),
    thd_i_max: percentLimit(20),
    pf_min: z
      .number()
      .min(0, { message: msg('pfMin') })
      .max(1, { message: msg('pfMin') })
      .default(0.9),
    frequency_nominal: z.union([z.literal(50), z.literal(60)], { message: msg('frequencyNominal') }).default(50),
    frequency_band: z
      .number()
      .min(0.01, { message: msg('frequencyBand') })
      .max(5, { message: msg('frequencyBand') })
      .default(0.2)
      .describe('GB/T 15945: ±0.2 Hz.'),
    voltage_nominal: z
      .number()
      .min(1, { message: msg('voltageNominal') })
      .max(100_000, { message: msg('voltageNominal') })
      .default(220)
      .describe('Phase voltage (V).'),
    voltage_deviation_max: percentLimit(7).describe('GB/T 12325, 380 V three-phase: ±7 %.'),
  })
  .strict();
export type SafetyLimits = z.infer<typeof safetyLimits>;
export const defaultSafetyLimits: SafetyLimits = safetyLimits.parse({});

/** GET setting/power_safety_settings: never the password, only whether one is set. */
export const powerSafetySettings = z.object({
  control_enabled: z.boolean().describe('Whether switches may be operated at all.'),
  password_set: z.boolean(),
  password_updated_at: z.number().int().describe('When the verification password was last set (0: never).'),
  limits: safetyLimits,
});
export type PowerSafetySettings = z.infer<typeof powerSafetySettings>;

/** PUT setting/power_safety_settings. A new password needs the current one when one is set. */
export const powerSafetySettingsInput = z
  .object({
    control_enabled: z.boolean(),
    limits: safetyLimits,
    new_password: encrypted.optional().describe('A new switch-operation password, encrypted; absent: unchanged.'),
    old_password: encrypted.optional().describe('The current one, encrypted, when a password is set.'),
    t: tParam,
  })
  .strict();
export type PowerSafetySettingsInput = z.infer<typeof powerSafetySettingsInput>;

// ---------- quality ----------

export const qualityIssues = [
  'voltage',
  'voltage_unbalance',
  'current_unbalance',
  'thd_u',
  'thd_i',
  'pf',
  'frequency',
] as const;
export type QualityIssue = (typeof qualityIssues)[number];

/** The figures of one meter at one time (live, or the averages of one bucket). */
export const qualityFigures = z.object({
  /** NEMA MG-1: largest deviation of the three magnitudes from their mean, over the mean (%). */
  voltage_unbalance: z.number().nullable(),
  current_unbalance: z.number().nullable(),
  /** IEC V2/V1 (%) from the line voltages (CIGRÉ), when the meter gives them. */
  vuf: z.number().nullable(),
  /** Signed: negative is leading (from Q). */
  pf: z.number().nullable(),
  /** Where the PF comes from: the meter's PF item, P/S, or P and Q. */
  pf_source: z.enum(['item', 'p_s', 'p_q']).nullable(),
  thd_u: z.number().nullable(),
  thd_i: z.number().nullable(),
  frequency: z.number().nullable(),
  frequency_deviation: z.number().nullable(),
  /** Largest deviation of a phase voltage from the nominal one (%). */
  voltage_deviation: z.number().nullable(),
});
export type QualityFigures = z.infer<typeof qualityFigures>;

export const monitorRow = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  state: z.number().int(),
  source: z.enum(mappingSources),
  readings: z.record(z.string(), storedNumber).describe('Latest value per mapped role.'),
  units: z.record(z.string(), z.string()),
  figures: qualityFigures,
  issues: z.array(z.enum(qualityIssues)),
  last_check: z.number().int(),
});
export type MonitorRow = z.infer<typeof monitorRow>;

export const monitorAnswer = z.object({ limits: safetyLimits, data: z.array(monitorRow) });

export const analysisQuery = z
  .object({
    device_id: id,
    t1: epoch,
    t2: epoch,
    t: tParam,
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.t2 < q.t1) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('endBeforeStart') });
    if (q.t2 - q.t1 > 366 * 86_400) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('rangeTooLong') });
  });

const stat = z.object({
  avg: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Share of the buckets beyond the limit (%); null without data or without a limit. */
  over_pct: z.number().nullable(),
  limit: z.number().nullable(),
});

export const analysisAnswer = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  /** Bucket of the means: minute (ranges up to two days), hour (up to 62 days), day (local days) beyond. */
  resolution: z.enum(['minute', 'hour', 'day']),
  limits: safetyLimits,
  points: z.array(
    qualityFigures.extend({
      ts: z.number().int(),
      phases: z.record(z.string(), z.number().nullable()).describe('Mean per role over the bucket.'),
    }),
  ),
  summary: z.record(z.string(), stat),
});
export type AnalysisAnswer = z.infer<typeof analysisAnswer>;

// ---------- distribution and switches ----------

export const switchStates = ['on', 'off', 'unknown'] as const;
export const switchRow = z.object({
  item_id: z.number().int(),
  name: z.string(),
  item_name: z.string(),
  value: storedNumber,
  /** on: value 1 (closed); off: 0 (open); unknown: no value or the item is unknown. */
  switch_state: z.enum(switchStates),
  item_state: z.number().int(),
  writable: z.boolean(),
  last_check: z.number().int(),
});
export type SwitchRow = z.infer<typeof switchRow>;

export const distributionDevice = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  state: z.number().int(),
  readings: z.record(z.string(), storedNumber),
  units: z.record(z.string(), z.string()),
  issues: z.array(z.enum(qualityIssues)),
  switches: z.array(switchRow),
});
export const distributionSite = z.object({
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  devices: z.array(distributionDevice),
});
export const distributionAnswer = z.object({
  control_enabled: z.boolean(),
  password_set: z.boolean(),
  data: z.array(distributionSite),
});
export type DistributionAnswer = z.infer<typeof distributionAnswer>;

export const distributionQuery = z
  .object({ device_group_id: id.optional().describe('Only this site (and its sub-sites).'), t: tParam })
  .strict();

/** POST electricity_safe/switch_opt: close (1) or open (0) a switch, with the verification password. */
export const switchOperation = z
  .object({
    item_id: id,
    value: z.union([z.literal(0), z.literal(1)], { message: msg('switchValue') }),
    password: encrypted,
    t: tParam,
  })
  .strict();

export const switchLogQuery = pageQuery.extend({ device_group_id: id.optional() }).strict();
export const switchLogRow = z.object({
  id: z.number().int(),
  time: z.number().int(),
  user_name: z.string(),
  item_id: z.number().int(),
  switch_name: z.string(),
  device_name: z.string(),
  device_group_name: z.string(),
  value: z.number().nullable(),
  result: z.number().int(),
  detail: z.string(),
});

// ---------- overview ----------

export const safetySiteRow = z.object({
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  meters: z.number().int(),
  meters_with_issues: z.number().int(),
  switches: z.number().int(),
  switches_on: z.number().int(),
  switches_off: z.number().int(),
  switches_unknown: z.number().int(),
  /** Open alarms of the site's power meter and switch devices. */
  active_alarms: z.number().int(),
  /**
   * The site's active power (kW) by the energy site-total rule: the meters whose energy meters all sit
   * beneath an incoming meter are left out (their power is in it); null without a P item.
   */
  power_kw: z.number().nullable(),
});
export const safetyIssueRow = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  device_group_name: z.string(),
  issue: z.enum(qualityIssues),
  value: z.number(),
  limit: z.number(),
});
export const electricalSafetyOverview = z.object({
  meters: z.number().int(),
  meters_with_issues: z.number().int(),
  switches: z.number().int(),
  switches_on: z.number().int(),
  switches_off: z.number().int(),
  switches_unknown: z.number().int(),
  active_alarms: z.number().int(),
  power_kw: z.number().nullable(),
  /** Worst figures over all meters (null: no meter gives it). */
  worst: z.object({
    voltage_unbalance: z.number().nullable(),
    current_unbalance: z.number().nullable(),
    thd_u: z.number().nullable(),
    pf: z.number().nullable(),
    frequency_deviation: z.number().nullable(),
  }),
  limits: safetyLimits,
  sites: z.array(safetySiteRow),
  issues: z.array(safetyIssueRow),
});
export type ElectricalSafetyOverview = z.infer<typeof electricalSafetyOverview>;

/** Menu ids (migration 0022-electrical-safety). */
export const electricalSafetyMenus = {
  group: 770,
  overview: 771,
  distribution: 772,
  switchOpt: 773,
  monitor: 774,
  analysis: 775,
} as const;

const tags = ['electrical-safety'];
export const electricalSafetyRoutes = {
  meters: defineRoute({
    method: 'GET',
    path: 'electricity_safe/meters',
    summary: "Power meter and switch devices of the caller's sites with the role of each item",
    tags,
    query: meterListQuery,
    response: z.array(meterMapping),
  }),
  setMeter: defineRoute({
    method: 'PUT',
    path: 'electricity_safe/meters/:id',
    summary: 'Sets which items of a device are its phase voltages, currents, powers, PF, THD, frequency and switches',
    tags,
    params: z.object({ id }),
    body: meterMappingInput,
    response: meterMapping,
  }),
  resetMeter: defineRoute({
    method: 'DELETE',
    path: 'electricity_safe/meters/:id',
    summary: "Forgets a device's stored mapping: its items are read by their cell names again",
    tags,
    params: z.object({ id }),
    response: meterMapping,
  }),
  monitor: defineRoute({
    method: 'GET',
    path: 'energy/elect_monitor',
    summary: 'Live electrical quality of every meter: unbalance, THD, power factor, frequency, judged by the limits',
    tags,
    query: meterListQuery,
    response: monitorAnswer,
  }),
  analysis: defineRoute({
    method: 'GET',
    path: 'energy/elect_analysis',
    summary: "A meter's electrical quality over a time range, from the series store's roll-ups",
    tags,
    query: analysisQuery,
    response: analysisAnswer,
  }),
  settings: defineRoute({
    method: 'GET',
    path: 'setting/power_safety_settings',
    summary: 'Quality limits, whether switch operation is enabled and whether its password is set',
    tags,
    response: powerSafetySettings,
  }),
  saveSettings: defineRoute({
    method: 'PUT',
    path: 'setting/power_safety_settings',
    summary: 'Saves the limits, the control switch and (optionally) a new verification password, stored hashed',
    tags,
    body: powerSafetySettingsInput,
    response: powerSafetySettings,
  }),
  distribution: defineRoute({
    method: 'GET',
    path: 'electricity_safe/distribution_power',
    summary: "Switches of the caller's sites with their states, per site and device (the distribution diagram)",
    tags,
    query: distributionQuery,
    response: distributionAnswer,
  }),
  switchOpt: defineRoute({
    method: 'POST',
    path: 'electricity_safe/switch_opt',
    summary: 'Closes or opens a switch through its device, after the verification password',
    tags,
    body: switchOperation,
    response: z.object({ item_id: z.number().int(), value: z.number() }),
  }),
  switchLog: defineRoute({
    method: 'GET',
    path: 'electricity_safe/switch_opt',
    summary: "Switch operations on the caller's sites, newest first",
    tags,
    query: switchLogQuery,
    response: pageOf(switchLogRow),
  }),
  overview: defineRoute({
    method: 'GET',
    path: 'overview/electrical_safety',
    summary:
      "Meters, switches, quality issues and open alarms of the caller's sites (home panel, /electricity_safe/overview)",
    tags,
    response: electricalSafetyOverview,
  }),
};
