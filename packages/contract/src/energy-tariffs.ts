import { z } from 'zod';
import { epoch, id, msg, recordName } from './energy-fields.ts';

/**
 * Energy tariffs (002 §3, §5.1, §7.1 setting/energy stairstep, time_sharing_system, stemp_time;
 * docs/energy.md "Tariffs"): the three billing modes, their tiers and periods, and the tariff set on
 * a site from a date. Part of `@sitewatch/contract/energy`, which exports it whole.
 */

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
    name: recordName,
    summer_months: z.array(z.number().int().min(1).max(12)).max(12).default([]),
    gradients: z
      .array(gradient)
      .max(50)
      .default([])
      .describe(
        'Price tiers; required for stair and stair + time-share tariffs (stairstep, stemp_time): from 0 up, the last open-ended, for each season; none for time-share tariffs.',
      ),
    slots: z
      .array(timeSlot)
      .max(96)
      .default([])
      .describe(
        'Price periods; required for time-share and stair + time-share tariffs (time_sharing_system, stemp_time): covering the whole day without overlap, for each season; none for stair tariffs.',
      ),
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
