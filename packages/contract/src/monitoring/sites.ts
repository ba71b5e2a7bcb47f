import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { coordinate, msg, optionalText, requiredText, weightSchema } from './fields.ts';

// ---------- sites ----------

export const siteInput = z.strictObject({
  name: requiredText(64, 'siteName').describe('Site name, 1–64 characters.'),
  parent_id: z.number().int().min(0).max(2_147_483_647).default(0).describe('Id of the parent site (0: top level).'),
  weight: weightSchema.describe('Sort number: a positive integer not starting with 0; higher comes first.'),
  has_device: z
    .boolean()
    .default(true)
    .describe('Whether the site mounts devices (a leaf), or only groups other sites.'),
  longitude: coordinate(180, 'longitude').default(null).describe('Longitude 0–180 with at most 6 decimals, or null.'),
  latitude: coordinate(90, 'latitude').default(null).describe('Latitude 0–90 with at most 6 decimals, or null.'),
  background: optionalText(300).default('').describe("Background image of the site map (file name or URL), or ''."),
  scene: optionalText(200).default('').describe("Scene of the site map, or ''."),
  /** JSON text with map styles (001 §3 Site group `extend`). */
  extend: optionalText(20_000).default('').describe("JSON text with map styles (001 §3 Site group extend), or ''."),
});
export type SiteInput = z.input<typeof siteInput>;

export const siteRow = z.object({
  id: z.number().int().describe('Site id.'),
  name: z.string().describe('Site name.'),
  parent_id: z.number().int().describe('Parent site id (0: top level).'),
  weight: z.number().int().describe('Sort number.'),
  has_device: z.boolean().describe('Whether the site mounts devices.'),
  longitude: z.number().nullable().describe('Longitude, or null.'),
  latitude: z.number().nullable().describe('Latitude, or null.'),
  background: z.string().describe("Background image, or ''."),
  scene: z.string().describe("Scene, or ''."),
  extend: z.string().describe("JSON text with map styles, or ''."),
  devices: z
    .array(
      z.object({
        id: z.number().int().describe('Device id.'),
        category_id: z.number().int().describe('Category id of the device.'),
      }),
    )
    .describe("The site's devices: id and category id."),
  created_at: z.number().int().describe('Creation time (epoch seconds).'),
  updated_at: z.number().int().describe('Last change (epoch seconds).'),
});
export type SiteRow = z.infer<typeof siteRow>;

export const siteListQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Rows per page (1–1000, default 100).'),
  name: z.string().max(64).optional().describe('Only sites whose name contains this text.'),
  parent_id: z.coerce.number().int().min(0).max(2_147_483_647).optional().describe('Only children of this site.'),
});

export const copyInput = z.strictObject({
  /** How many copies (batch copy); each is named "<name>-<n>". */
  count: z
    .number()
    .int()
    .min(1, { message: msg('count') })
    .max(50, { message: msg('count') })
    .default(1)
    .describe('How many copies (1–50); each is named "<name>-<n>".'),
  /** Sites: copy their devices and items too. */
  with_devices: z.boolean().default(true).describe('Sites: copy their devices and items too.'),
  /** Devices: the site the copies go to (default: the same site). */
  device_group_id: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .describe('Devices: the site the copies go to (default: the same site).'),
});

export const idsQuery = z.object({
  ids: z
    .string()
    .max(2000)
    .regex(/^\d{1,10}(,\d{1,10})*$/, { message: msg('ids') })
    // Ids are 32-bit integers in both databases; a larger number would be a database error.
    .refine((s) => s.split(',').every((n) => Number(n) >= 1 && Number(n) <= 2_147_483_647), { message: msg('ids') })
    .transform((s) => s.split(',').map(Number))
    .describe('Comma-separated ids, e.g. 3,5,8.'),
});

/** The site tree for the station page and pickers (002 §7.3 device_groups/menu). */
export interface SiteTreeNode {
  id: number;
  name: string;
  parent_id: number;
  weight: number;
  has_device: boolean;
  device_count: number;
  /** Devices in an abnormal, warning, serious or unknown state, this site only. */
  abnormal_count: number;
  children: SiteTreeNode[];
}
export const siteTreeNode: z.ZodType<SiteTreeNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    parent_id: z.number().int(),
    weight: z.number().int(),
    has_device: z.boolean(),
    device_count: z.number().int(),
    abnormal_count: z.number().int(),
    children: z.array(siteTreeNode),
  }),
);
