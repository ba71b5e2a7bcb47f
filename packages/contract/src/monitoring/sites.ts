import { z } from 'zod';
import { pageQuery } from '../envelope.ts';
import { coordinate, msg, optionalText, requiredText, weightSchema } from './fields.ts';

// ---------- sites ----------

export const siteInput = z.strictObject({
  name: requiredText(64, 'siteName'),
  parent_id: z.number().int().min(0).max(2_147_483_647).default(0),
  weight: weightSchema,
  has_device: z.boolean().default(true),
  longitude: coordinate(180, 'longitude').default(null),
  latitude: coordinate(90, 'latitude').default(null),
  background: optionalText(300).default(''),
  scene: optionalText(200).default(''),
  /** JSON text with map styles (001 §3 Site group `extend`). */
  extend: optionalText(20_000).default(''),
});
export type SiteInput = z.input<typeof siteInput>;

export const siteRow = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int(),
  weight: z.number().int(),
  has_device: z.boolean(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  background: z.string(),
  scene: z.string(),
  extend: z.string(),
  devices: z.array(z.object({ id: z.number().int(), category_id: z.number().int() })),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type SiteRow = z.infer<typeof siteRow>;

export const siteListQuery = pageQuery.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  name: z.string().max(64).optional(),
  parent_id: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
});

export const copyInput = z.strictObject({
  /** How many copies (batch copy); each is named "<name>-<n>". */
  count: z
    .number()
    .int()
    .min(1, { message: msg('count') })
    .max(50, { message: msg('count') })
    .default(1),
  /** Sites: copy their devices and items too. */
  with_devices: z.boolean().default(true),
  /** Devices: the site the copies go to (default: the same site). */
  device_group_id: z.number().int().min(1).max(2_147_483_647).optional(),
});

export const idsQuery = z.object({
  ids: z
    .string()
    .max(2000)
    .regex(/^\d{1,10}(,\d{1,10})*$/, { message: msg('ids') })
    // Ids are 32-bit integers in both databases; a larger number would be a database error.
    .refine((s) => s.split(',').every((n) => Number(n) >= 1 && Number(n) <= 2_147_483_647), { message: msg('ids') })
    .transform((s) => s.split(',').map(Number)),
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
