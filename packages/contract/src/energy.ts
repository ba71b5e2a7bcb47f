import { z } from 'zod';
import { tParam } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Energy (002 §2.3, §3, §5.1, §7.1 setting/energy, §7.6; docs/energy.md): meters chosen among device
 * items, consumption from counter differences, tariffs in the three billing modes, cost and PUE.
 */

const msg = (key: string) => `energy.validation.${key}`;
const id = z.coerce.number().int().min(1).max(2_147_483_647);
const epoch = z.coerce.number().int().min(0).max(32_503_680_000);
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
    name: z
      .string()
      .trim()
      .min(1, { message: msg('name') })
      .max(100, { message: msg('tooLong') }),
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
export const energyQuery = z
  .object({
    device_group_id: id.optional().describe('Only this site (and its sub-sites).'),
    meter_id: id.optional().describe('Only this meter.'),
    t1: epoch.describe('Start (epoch seconds).'),
    t2: epoch.describe('End (epoch seconds).'),
    interval: z.enum(intervals).default('day'),
    t: tParam,
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.t2 < q.t1) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('endBeforeStart') });
    if (q.t2 - q.t1 > 3 * 366 * 86_400) ctx.addIssue({ code: 'custom', path: ['t2'], message: msg('rangeTooLong') });
  });
export type EnergyQuery = z.infer<typeof energyQuery>;

const counterRule = z.enum(['reset', 'rollover', 'dip', 'spike', 'gap']);
export const meterEnergy = z.object({
  meter_id: z.number().int(),
  name: z.string(),
  category: meterCategory,
  device_group_id: z.number().int(),
  total_kwh: z.number(),
  buckets: z.array(
    z.object({
      ts: z.number().int().describe('Start of the interval.'),
      kwh: z.number(),
      estimated: z.boolean().describe('Part of it was spread over a gap.'),
    }),
  ),
  events: z
    .array(z.object({ ts: z.number().int(), rule: counterRule, from: z.number(), to: z.number(), kwh: z.number() }))
    .describe('The counter rules that fired (docs/energy.md).'),
});
export type MeterEnergy = z.infer<typeof meterEnergy>;

// ---------- tariffs ----------

export const tariffModes = ['stair', 'time_share', 'stair_time_share'] as const;
export const tariffMode = z.enum(tariffModes);
export type TariffMode = z.infer<typeof tariffMode>;
export const bands = ['sharp', 'peak', 'flat', 'valley'] as const;
export const seasons = ['all', 'summer', 'non_summer'] as const;

/** Prices in yuan per kWh with at most 4 decimals, stored exactly as integers of 1/10 000 yuan. */
const price = z
  .number()
  .min(0, { message: msg('price') })
  .max(1000, { message: msg('price') })
  .refine((p) => Math.abs(p * 1e4 - Math.round(p * 1e4)) < 1e-6, { message: msg('price') });
const hhmm = z.string().regex(/^([01]\d|2[0-4]):[0-5]\d$/, { message: msg('time') });

export const gradient = z
  .object({
    season: z.enum(seasons).default('all'),
    start: z.number().min(0, { message: msg('gradientStart') }),
    end: z.number().nullable().describe('null: open-ended (the last tier).'),
    price: price.describe('stair: the tier price; stair_time_share: added to the period price.'),
  })
  .strict();
export const timeSlot = z
  .object({
    season: z.enum(seasons).default('all'),
    start: hhmm,
    end: hhmm.describe("'24:00' or an end not after the start runs past midnight."),
    band: z.enum(bands),
    price,
  })
  .strict();

export const tariffInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { message: msg('name') })
      .max(100, { message: msg('tooLong') }),
    summer_months: z.array(z.number().int().min(1).max(12)).max(12).default([]),
    gradients: z.array(gradient).max(50).default([]),
    slots: z.array(timeSlot).max(96).default([]),
  })
  .strict();
export type TariffInput = z.infer<typeof tariffInput>;
export type Gradient = z.infer<typeof gradient>;
export type TimeSlot = z.infer<typeof timeSlot>;

export const tariffRow = tariffInput.extend({ id: z.number().int(), mode: tariffMode }).strip();
export type TariffRow = z.infer<typeof tariffRow>;

export const tariffSetInput = z
  .object({ tariff_id: id, valid_from: epoch.describe('From when this tariff applies to the site.') })
  .strict();
export const tariffSetRow = z.object({
  id: z.number().int(),
  device_group_id: z.number().int(),
  tariff_id: z.number().int(),
  tariff_name: z.string(),
  valid_from: z.number().int(),
});

export const costRow = z.object({
  meter_id: z.number().int(),
  name: z.string(),
  category: meterCategory,
  device_group_id: z.number().int(),
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
  kwh: z.number(),
});
export const ratioRow = z.object({
  category: meterCategory,
  kwh: z.number(),
  percent: z.number().describe('Share of the parts (the incoming meters are left out: they hold the parts).'),
});

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
