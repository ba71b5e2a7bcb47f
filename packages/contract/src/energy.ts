import { z } from 'zod';
import { epoch, id, msg, recordName } from './energy-fields.ts';
import { tariffInput, tariffRow, tariffSetInput, tariffSetRow } from './energy-tariffs.ts';
import { tParam } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Energy (002 §2.3, §3, §5.1, §7.1 setting/energy, §7.6; docs/energy.md): meters chosen among device
 * items, consumption from counter differences, tariffs in the three billing modes, cost and PUE.
 */

const idParams = z.object({ id: id.describe('Id of the record.') });

/** Categories of a meter; `total` is a facility (incoming) meter, the rest are its parts (The Green Grid). */
export const meterCategories = ['total', 'it', 'cooling', 'lighting', 'ups_loss', 'other'] as const;
export const meterCategory = z.enum(meterCategories);
export type MeterCategory = z.infer<typeof meterCategory>;

/** Where an IT meter measures: The Green Grid PUE category 1 (UPS output), 2 (PDU output), 3 (IT input). */
export const measurePoints = ['ups_output', 'pdu_output', 'it_input'] as const;
export const measurePoint = z.enum(measurePoints);
export const pueCategoryOf = { ups_output: 1, pdu_output: 2, it_input: 3 } as const;

export const meterInput = z
  .object({
    name: recordName,
    item_id: id.describe('The monitored item read as the meter.'),
    kind: z.enum(['counter', 'power']).describe('counter: cumulative kWh; power: active power in kW, integrated.'),
    category: meterCategory,
    device_group_id: id.describe("Site the meter's energy belongs to."),
    measure_point: measurePoint.nullable().default(null).describe('For IT meters: where they measure.'),
    rollover_at: z.number().positive().max(1e15).nullable().default(null).describe('Register wrap value (kWh).'),
    max_power_kw: z.number().positive().max(1e6).nullable().default(null).describe('Highest plausible power (kW).'),
  })
  .strict();
export type MeterInput = z.infer<typeof meterInput>;

export const meterRow = z.object({
  id: z.number().int(),
  name: z.string(),
  item_id: z.number().int(),
  item_name: z.string(),
  device_id: z.number().int(),
  device_name: z.string(),
  kind: z.enum(['counter', 'power']),
  category: meterCategory,
  device_group_id: z.number().int(),
  device_group_name: z.string(),
  measure_point: measurePoint.nullable(),
  rollover_at: z.number().nullable(),
  max_power_kw: z.number().nullable(),
});
export type MeterRow = z.infer<typeof meterRow>;

export const intervals = ['hour', 'day', 'month', 'year'] as const;
const energyQueryFields = z
  .object({
    device_group_id: id.optional().describe('Only this site (and its sub-sites).'),
    meter_id: id.optional().describe('Only this meter.'),
    t1: epoch.describe('Start (epoch seconds).'),
    t2: epoch.describe('End (epoch seconds).'),
    interval: z.enum(intervals).default('day'),
    t: tParam,
  })
  .strict();
const rangeRule = (q: { t1: number; t2: number }, ctx: z.RefinementCtx) => {
  if (q.t2 < q.t1) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('endBeforeStart') });
  if (q.t2 - q.t1 > 3 * 366 * 86_400) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('rangeTooLong') });
};
export const energyQuery = energyQueryFields.superRefine(rangeRule);
export type EnergyQuery = z.infer<typeof energyQuery>;

const counterRule = z.enum(['reset', 'rollover', 'dip', 'spike', 'gap']);
/**
 * What every per-meter answer says about the meter's site (docs/energy.md "A site's total"): its name,
 * so rows of several sites that share a meter name can be told apart, and whether the meter counts in
 * the site's total (one of its top-level meters), so a client sums those rows and applies no rule of its own.
 */
export const meterSiteFields = {
  site_name: z.string().describe("Name of the site the meter's energy belongs to."),
  in_site_total: z
    .boolean()
    .describe("Counts in its site's total: an incoming (total) meter, or any meter of a site without one."),
};

export const meterEnergy = z.object({
  meter_id: z.number().int(),
  name: z.string(),
  category: meterCategory,
  device_group_id: z.number().int(),
  ...meterSiteFields,
  total_kwh: z.number(),
  buckets: z.array(
    z.object({
      ts: z.number().int().describe('Start of the interval.'),
      kwh: z.number(),
      estimated: z
        .boolean()
        .describe(
          "Not wholly measured: part of it was spread over a counter's gap or reset, or a power meter's hour is its mean over the hour (its minutes pruned).",
        ),
    }),
  ),
  events: z
    .array(z.object({ ts: z.number().int(), rule: counterRule, from: z.number(), to: z.number(), kwh: z.number() }))
    .describe(
      'The rules that fired, each at the time of the reading that showed it: baseline and reading (kWh; kW for a power meter\'s gap), energy booked (docs/energy.md "Rules").',
    ),
});
export type MeterEnergy = z.infer<typeof meterEnergy>;

export * from './energy-tariffs.ts';

export const costRow = z.object({
  meter_id: z.number().int(),
  name: z.string(),
  category: meterCategory,
  device_group_id: z.number().int(),
  ...meterSiteFields,
  kwh: z.number(),
  cost_cents: z.number().int().describe('Exact cost in fen (0.01 yuan).'),
  buckets: z.array(z.object({ ts: z.number().int(), kwh: z.number(), cost_cents: z.number().int() })),
  /** Energy of hours without a tariff in force: not costed. */
  uncosted_kwh: z.number(),
});

export const pueAnswer = z.object({
  device_group_id: z.number().int(),
  /** The Green Grid category of the figure: the lowest measurement point of the site's IT meters (0: none). */
  category: z.number().int().min(0).max(3),
  total_source: z.enum(['total_meters', 'sum_of_parts']).describe('Facility energy from incoming meters or the sum.'),
  buckets: z.array(
    z.object({
      ts: z.number().int(),
      total_kwh: z.number(),
      it_kwh: z.number(),
      cooling_kwh: z.number(),
      pue: z.number().nullable().describe('Facility energy / IT energy (null: no IT energy).'),
      ppue_cooling: z.number().nullable().describe('(IT + cooling) / IT.'),
      estimated: z.boolean(),
    }),
  ),
  pue: z.number().nullable().describe('Over the whole range.'),
  ppue_cooling: z.number().nullable(),
});
export type PueAnswer = z.infer<typeof pueAnswer>;

export const rankingRow = z.object({
  meter_id: z.number().int(),
  name: z.string(),
  category: meterCategory,
  device_group_id: z.number().int(),
  ...meterSiteFields,
  kwh: z.number(),
});
export const ratioRow = z.object({
  category: meterCategory,
  kwh: z.number(),
  percent: z.number().describe('Share of the parts (the incoming meters are left out: they hold the parts).'),
});

/** energy/analysis: the trend with month-on-month (the previous interval) and year-on-year. */
export const analysisQuery = energyQueryFields
  .extend({ category: meterCategory.optional().describe('Only the meters of this category.') })
  .strict()
  .superRefine(rangeRule);
export type AnalysisQuery = z.infer<typeof analysisQuery>;
const percent = z.number().nullable().describe('Change in % (null: nothing to compare with).');
export const analysisAnswer = z.object({
  source: z
    .enum(['total_meters', 'sum_of_parts', 'meter', 'category'])
    .describe("Whose energy: the site's incoming meters, the sum of its meters, one meter or one category."),
  buckets: z.array(
    z.object({
      ts: z.number().int(),
      kwh: z.number(),
      previous_kwh: z.number().describe('The interval before (month-on-month for months).'),
      mom_percent: percent,
      last_year_kwh: z.number().describe('The same interval a year earlier.'),
      yoy_percent: percent,
      estimated: z.boolean(),
    }),
  ),
  total_kwh: z.number(),
  last_year_total_kwh: z.number(),
  yoy_percent: percent,
});
export type AnalysisAnswer = z.infer<typeof analysisAnswer>;

/** energy/load: the load (mean kW) per interval and its peak hour, from the hourly energy. */
export const loadAnswer = z.object({
  source: z.enum(['total_meters', 'sum_of_parts', 'meter']),
  buckets: z.array(
    z.object({
      ts: z.number().int(),
      avg_kw: z.number().describe('Energy of the interval / its hours.'),
      peak_kw: z.number().describe('The highest hourly mean within the interval.'),
      peak_ts: z.number().int().nullable(),
      it_avg_kw: z.number(),
    }),
  ),
  avg_kw: z.number(),
  peak_kw: z.number(),
  peak_ts: z.number().int().nullable(),
});
export type LoadAnswer = z.infer<typeof loadAnswer>;

/** energy/get_active_power: the latest active power per meter. */
export const activePowerQuery = z
  .object({ device_group_id: id.optional().describe('Only this site (and its sub-sites).'), t: tParam })
  .strict();
export const activePowerRow = z.object({
  meter_id: z.number().int(),
  name: z.string(),
  category: meterCategory,
  device_group_id: z.number().int(),
  ...meterSiteFields,
  kw: z.number().nullable().describe('null: no reading in the last half hour and no energy in the last two hours.'),
  ts: z.number().int().nullable().describe('Time of the reading the figure comes from.'),
  source: z
    .enum(['power_item', 'counter', 'hour_energy'])
    .describe(
      "power_item: the meter's kW item; counter: the counter's rise over the last minutes; hour_energy: the mean of the last whole hour's energy (no two recent readings).",
    ),
});
export const activePowerAnswer = z.object({
  meters: z.array(activePowerRow),
  total_kw: z.number().describe("The site's incoming meters, or the sum of its meters without one."),
  it_kw: z.number(),
  cooling_kw: z.number(),
});
export type ActivePowerAnswer = z.infer<typeof activePowerAnswer>;

/** energy_analysis/time_sharing_statistics: kWh per time-share period under the tariffs in force. */
export const bandKwh = z.object({
  sharp: z.number(),
  peak: z.number(),
  flat: z.number(),
  valley: z.number(),
  none: z.number().describe('Hours under a stair tariff or without a tariff: no period.'),
});
export const timeShareAnswer = z.object({
  source: z.enum(['total_meters', 'sum_of_parts', 'meter']),
  buckets: z.array(bandKwh.extend({ ts: z.number().int() })),
  total: bandKwh,
  percent: bandKwh.describe('Share of each period in the total (%).'),
});
export type TimeShareAnswer = z.infer<typeof timeShareAnswer>;

/** device_groups/pue_menu: the site tree of the sites with meters (and the sites above them). */
export interface PueMenuNode {
  id: number;
  name: string;
  parent_id: number;
  meter_count: number;
  /** The Green Grid category its PUE would state (0: no IT meter, no PUE). */
  category: number;
  children: PueMenuNode[];
}
export const pueMenuNode: z.ZodType<PueMenuNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    parent_id: z.number().int(),
    meter_count: z.number().int(),
    category: z.number().int().min(0).max(3),
    children: z.array(pueMenuNode),
  }),
);

/** setting/electricity_statistics: per site, this month and the last, for /electric_statistics. */
export const electricityStatisticsRow = z.object({
  device_group_id: z.number().int(),
  name: z.string(),
  meters: z.number().int(),
  month_kwh: z
    .number()
    .describe("This local calendar month so far: the site's total (its top-level meters, sub-sites included)."),
  last_month_kwh: z.number(),
  month_cost_cents: z.number().int().describe("Cost of the site's top-level meters this month so far (fen)."),
  month_pue: z.number().nullable(),
  tariff_name: z.string().nullable().describe('The tariff in force now.'),
});

/** energy/energy_device and energy/device_groups_device: the devices whose items are meters. */
export const energyDevice = z.object({
  device_id: z.number().int(),
  device_name: z.string(),
  device_group_id: z.number().int().describe("The device's own site."),
  meters: z.array(
    z.object({
      meter_id: z.number().int(),
      name: z.string(),
      item_id: z.number().int(),
      item_name: z.string(),
      kind: z.enum(['counter', 'power']),
      category: meterCategory,
      device_group_id: z.number().int().describe("Site the meter's energy belongs to."),
    }),
  ),
});
export type EnergyDevice = z.infer<typeof energyDevice>;
export const deviceGroupsDeviceInput = z
  .object({
    device_group_ids: z
      .array(id)
      .min(1, { message: msg('siteRequired') })
      .max(500)
      .describe('Sites (with their sub-sites) whose meters are wanted.'),
    t: tParam,
  })
  .strict();

/** energy/export: an analysis answer as an xlsx workbook. */
export const exportReports = ['used', 'ranking', 'ratio', 'cost', 'pue', 'analysis', 'load', 'time_sharing'] as const;
export const exportQuery = energyQueryFields
  .extend({
    report: z.enum(exportReports).describe('Which answer to export.'),
    category: meterCategory.optional().describe('analysis only: one category.'),
  })
  .strict()
  .superRefine(rangeRule);

const tags = ['energy'];
const siteQuery = z.object({ device_group_id: id.optional(), t: tParam }).strict();

const tariffCrud = (path: string, what: string) =>
  ({
    list: defineRoute({
      method: 'GET',
      path,
      summary: `${what} tariffs`,
      tags,
      query: siteQuery.pick({ t: true }),
      response: z.array(tariffRow),
    }),
    create: defineRoute({
      method: 'POST',
      path,
      summary: `Adds a ${what} tariff`,
      tags,
      body: tariffInput,
      response: tariffRow,
    }),
    update: defineRoute({
      method: 'PUT',
      path: `${path}/:id`,
      summary: `Changes a ${what} tariff`,
      tags,
      params: idParams,
      body: tariffInput,
      response: tariffRow,
    }),
    remove: defineRoute({
      method: 'DELETE',
      path: `${path}/:id`,
      summary: `Deletes a ${what} tariff`,
      tags,
      params: idParams,
      response: z.null(),
    }),
  }) as const;

export const energyRoutes = {
  meters: defineRoute({
    method: 'GET',
    path: 'setting/energy',
    summary: 'Energy meters of the granted sites',
    tags,
    query: siteQuery,
    response: z.array(meterRow),
  }),
  createMeter: defineRoute({
    method: 'POST',
    path: 'setting/energy',
    summary: 'Chooses an item as an energy meter',
    tags,
    body: meterInput,
    response: meterRow,
  }),
  updateMeter: defineRoute({
    method: 'PUT',
    path: 'setting/energy/:id',
    summary: 'Changes an energy meter',
    tags,
    params: idParams,
    body: meterInput,
    response: meterRow,
  }),
  removeMeter: defineRoute({
    method: 'DELETE',
    path: 'setting/energy/:id',
    summary: 'Removes an energy meter (its item stays)',
    tags,
    params: idParams,
    response: z.null(),
  }),
  used: defineRoute({
    method: 'GET',
    path: 'energy/energy_used',
    summary: 'Consumption per meter and interval, with the counter rules that fired',
    tags,
    query: energyQuery,
    response: z.array(meterEnergy),
  }),
  pue: defineRoute({
    method: 'GET',
    path: 'energy/pue_value',
    summary: 'PUE and partial PUE (cooling) of a site per interval',
    tags,
    query: energyQuery,
    response: pueAnswer,
  }),
  cost: defineRoute({
    method: 'GET',
    path: 'energy_analysis/cost_statistics',
    summary: 'Cost per meter and interval under the tariffs in force',
    tags,
    query: energyQuery,
    response: z.array(costRow),
  }),
  ranking: defineRoute({
    method: 'GET',
    path: 'energy/item_energy_ranking',
    summary: 'Meters ranked by consumption over the range',
    tags,
    query: energyQuery,
    response: z.array(rankingRow),
  }),
  ratio: defineRoute({
    method: 'GET',
    path: 'energy_analysis/ratio_statistics',
    summary: 'Consumption by category and its share',
    tags,
    query: energyQuery,
    response: z.array(ratioRow),
  }),
  costSets: defineRoute({
    method: 'GET',
    path: 'energy_cost_set',
    summary: 'Tariffs in force per site, with their start',
    tags,
    query: siteQuery,
    response: z.array(tariffSetRow),
  }),
  setCost: defineRoute({
    method: 'PUT',
    path: 'energy_cost_set/:id',
    summary: 'Applies a tariff to a site (id) from a time on',
    tags,
    params: idParams,
    body: tariffSetInput,
    response: tariffSetRow,
  }),
  analysis: defineRoute({
    method: 'GET',
    path: 'energy/analysis',
    summary: 'Consumption trend with month-on-month and year-on-year',
    tags,
    query: analysisQuery,
    response: analysisAnswer,
  }),
  load: defineRoute({
    method: 'GET',
    path: 'energy/load',
    summary: 'Load (mean kW) per interval with its peak hour',
    tags,
    query: energyQuery,
    response: loadAnswer,
  }),
  activePower: defineRoute({
    method: 'GET',
    path: 'energy/get_active_power',
    summary: 'Latest active power per meter and per site',
    tags,
    query: activePowerQuery,
    response: activePowerAnswer,
  }),
  timeSharing: defineRoute({
    method: 'GET',
    path: 'energy_analysis/time_sharing_statistics',
    summary: 'Consumption per time-share period (sharp, peak, flat, valley) under the tariffs in force',
    tags,
    query: energyQuery,
    response: timeShareAnswer,
  }),
  pueMenu: defineRoute({
    method: 'GET',
    path: 'device_groups/pue_menu',
    summary: 'Site tree of the sites with meters, for choosing a PUE site',
    tags,
    query: z.object({ t: tParam }).strict(),
    response: z.array(pueMenuNode),
  }),
  electricityStatistics: defineRoute({
    method: 'GET',
    path: 'setting/electricity_statistics',
    summary: 'Per site: consumption, cost and PUE this month and the last',
    tags,
    query: z.object({ t: tParam }).strict(),
    response: z.array(electricityStatisticsRow),
  }),
  energyDevice: defineRoute({
    method: 'GET',
    path: 'energy/energy_device',
    summary: 'Devices with energy meters among their items, with those meters',
    tags,
    query: siteQuery,
    response: z.array(energyDevice),
  }),
  deviceGroupsDevice: defineRoute({
    method: 'POST',
    path: 'energy/device_groups_device',
    reads: true,
    summary: 'Devices with energy meters of several sites (a read sent as POST)',
    tags,
    body: deviceGroupsDeviceInput,
    response: z.array(energyDevice),
  }),
  exportReport: defineRoute({
    method: 'GET',
    path: 'energy/export',
    summary: 'An analysis answer as an xlsx workbook',
    tags,
    query: exportQuery,
    response: z.null(),
  }),
  stair: tariffCrud('stairstep', 'stair'),
  timeShare: tariffCrud('time_sharing_system', 'time-share'),
  stairTimeShare: tariffCrud('stemp_time', 'stair + time-share'),
};

/** Which tariff routes hold which mode. */
export const tariffRouteModes = {
  stair: 'stair',
  timeShare: 'time_share',
  stairTimeShare: 'stair_time_share',
} as const;
