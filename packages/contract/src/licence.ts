import { z } from 'zod';
import { defineRoute } from './route.ts';

/**
 * The licence (000 §2.2, §3, §4.6; 002 §4; docs/licence.md): a serial number made at first start, a
 * trial of some days from then, and activation codes signed by the vendor (Ed25519) that bind the
 * serial number, the edition, an expiry and the device, item and per-category quotas.
 */

export const licenceStates = ['activated', 'trial', 'expired', 'unknown'] as const;
export const licenceState = z.enum(licenceStates);
export type LicenceState = z.infer<typeof licenceState>;

/** Trial pop-up frequency (000 §4.6): 1 daily, 2 daily in the last 3 days, 3 never. */
export const trialPopupFrequencies = [1, 2, 3] as const;

const tags = ['licence'];
const seconds = (what: string) => z.number().int().describe(`${what} (epoch seconds)`);

export const licenceInfo = z.object({
  sn: z.string().describe('Serial number of this installation, made at its first start.'),
  status: licenceState.describe('activated, trial, expired or unknown.'),
  edition: z.string().describe('Edition the activation code names; empty during the trial.'),
  start_time: seconds('First start of the installation: the trial counts from it'),
  trial_days: z.number().int().describe('Days of the trial.'),
  remain_days: z
    .number()
    .int()
    .describe('Whole days left of the trial (0 once it is over; activated: days to expiry, -1 when it never expires).'),
  expire_timestamp: z
    .number()
    .int()
    .describe('End of the trial, or of the activation (0: an activation that never expires); epoch seconds.'),
  device_quantity: z.number().int().describe('Devices the activation allows (0 during the trial: not limited).'),
  devices: z.number().int().describe('Devices configured now.'),
  item_quantity: z.number().int().describe('Monitored items the activation allows (0 during the trial: not limited).'),
  items: z.number().int().describe('Monitored items configured now.'),
  category_limit: z
    .record(z.string(), z.number().int())
    .describe('Devices allowed per category code (codes not named are limited only by device_quantity).'),
  blocks_configuration: z
    .boolean()
    .describe('Whether configuration changes (setting/* writes) are refused: the licence has expired.'),
});
export type LicenceInfo = z.infer<typeof licenceInfo>;

export const categoryLicenceRow = z.object({
  code: z.string().describe('Category code.'),
  name: z.string().describe("Category name: the user-given one, else the catalogue's in the caller's language."),
  name_key: z.string().describe('Locale key of the category name.'),
  limit: z.number().int().describe('Devices allowed in this category (-1: no limit of its own).'),
  count: z.number().int().describe('Devices of this category now.'),
});
export type CategoryLicenceRow = z.infer<typeof categoryLicenceRow>;

export const activationInput = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1, { message: 'licence.codeRequired' })
    .max(4096, { message: 'licence.codeMalformed' })
    .describe('The activation code the vendor issued for this serial number.'),
});

export const licenceRoutes = {
  get: defineRoute({
    method: 'GET',
    path: 'pub/license',
    summary: 'Licence status, counts and serial number (shown on the login page too)',
    tags,
    response: licenceInfo,
  }),
  activate: defineRoute({
    method: 'POST',
    path: 'pub/license',
    summary: 'Activate with a code signed by the vendor for this serial number',
    tags,
    body: activationInput,
    response: licenceInfo,
  }),
  categories: defineRoute({
    method: 'GET',
    path: 'pub/categorys_license',
    summary: 'Device counts and quotas per category',
    tags,
    response: z.object({ total: z.number().int(), data: z.array(categoryLicenceRow) }),
  }),
  softwareVersion: defineRoute({
    method: 'GET',
    path: 'setting/software_version',
    summary: 'Version, build, components and their versions, licence summary, changelog',
    tags,
    response: z.object({
      version: z.string(),
      build: z.string(),
      components: z.array(z.object({ name: z.string(), version: z.string() })),
      licence: licenceInfo,
      changelog: z
        .array(z.object({ version: z.string(), date: z.string(), changes: z.array(z.string()) }))
        .describe('CHANGELOG.md of the build, newest version first.'),
    }),
  }),
};
