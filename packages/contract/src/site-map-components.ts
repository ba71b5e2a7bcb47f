import { z } from 'zod';

/**
 * What a site-map picture is made of (001 §3): the canvas style, the components' kinds, styles,
 * events and bindings, each bounded and free of markup or script; top-view.ts has the routes.
 */

const id = z.coerce.number().int().min(1).max(2_147_483_647);
/** Geometry is sent as strings by the spec's client (001 §3): accepted as numbers or numeric strings. */
const px = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d{1,6}(\.\d{1,4})?$/),
  ])
  .transform(Number)
  .pipe(z.number().min(-100_000).max(100_000));
const text = (max: number) => z.string().max(max);
/** A stored image of the library: its path as answered by the image routes, or empty. */
export const imagePath = z
  .string()
  .max(200)
  .regex(/^(\/api\/v1\/setting\/top_view\/file\/[0-9a-f]{32}\.(png|jpg|gif|svg))?$/, 'not an image of the library');
/**
 * A link a component may navigate to: a page of the console (`/station?deviceId=3`) or an http(s)
 * address. `javascript:`, `data:` and protocol-relative addresses are refused.
 */
const safeLink = z
  .string()
  .max(500)
  .regex(/^$|^\/(?!\/)[^\s]*$|^https?:\/\/[^\s]+$/i, 'only a console path or an http(s) address');
const colour = z
  .string()
  .max(40)
  .regex(/^[#a-zA-Z0-9(),.%\s-]*$/, 'not a colour');
const cssWord = z
  .string()
  .max(40)
  .regex(/^[a-zA-Z0-9 .%-]*$/);

/** Canvas settings in a background's `extend` (001 §3 Background record; defaults 1366 × 768, 100 %). */
export const pictureStyle = z.strictObject({
  name: text(100).optional(),
  canvasWidth: z.number().int().min(100).max(20_000).default(1366).describe('Canvas width, px.'),
  canvasHeight: z.number().int().min(100).max(20_000).default(768).describe('Canvas height, px.'),
  canvasScale: z.number().min(1).max(1000).default(100).describe('Canvas scale, percent.'),
  width: z.number().min(0).max(100_000).optional(),
  height: z.number().min(0).max(100_000).optional(),
  left: z.number().min(-100_000).max(100_000).optional(),
  top: z.number().min(-100_000).max(100_000).optional(),
  rotate: z.number().min(-360).max(360).optional(),
  opacity: z.number().min(0).max(1).optional(),
  zIndex: z.number().int().min(-10_000).max(10_000).optional(),
});
export type PictureStyle = z.infer<typeof pictureStyle>;

/** Component kinds of 001 §3 (Group holds grouped components). */
export const componentKinds = [
  'Picture',
  'Cdefault',
  'component2',
  'component3',
  'component4',
  'component5',
  'ElectricSafe',
  'VText',
  'VButton',
  'Duanluqi',
  'IconElec1',
  'IconElec2',
  'IconElec3',
  'IconElec4',
  'IconElec5',
  'IconElec6',
  'Items',
  'SiteButton',
  'Line_x',
  'Line_y',
  'LineBroken',
  'Dot',
  'Donghuan',
  'KaiGuan1',
  'KaiGuan2',
  'SiteName',
  'Line_link',
  'Dev_link',
  'Leak_cord',
  'Group',
] as const;
export const componentKind = z.enum(componentKinds);

/** Style of a component (001 §3 "style"): only known keys, numbers bounded, texts that cannot hold markup. */
export const componentStyle = z.strictObject({
  name: text(200).optional(),
  link_group_id: z.number().int().min(0).optional(),
  onOff: z.boolean().optional(),
  info: text(500).optional(),
  sortId: z.number().int().min(0).max(1_000_000).optional(),
  width: z.number().min(0).max(100_000).optional(),
  height: z.number().min(0).max(100_000).optional(),
  top: z.number().min(-100_000).max(100_000).optional(),
  left: z.number().min(-100_000).max(100_000).optional(),
  rotate: z.number().min(-360).max(360).optional(),
  opacity: z.number().min(0).max(1).optional(),
  zIndex: z.number().int().min(-10_000).max(10_000).optional(),
  fontSize: z.number().min(0).max(1000).optional(),
  borderWidth: z.number().min(0).max(1000).optional(),
  borderColor: colour.optional(),
  borderStyle: cssWord.optional(),
  borderRadius: z.number().min(0).max(10_000).optional(),
  color: colour.optional(),
  backgroundColor: colour.optional(),
  fontWeight: z.union([z.number().int().min(100).max(900), cssWord]).optional(),
  textAlign: cssWord.optional(),
  lineHeight: z.union([z.number().min(0).max(1000), cssWord]).optional(),
  letterSpacing: z.number().min(-100).max(1000).optional(),
});

const componentItem = z.strictObject({
  itemId: z.number().int().min(1),
  name: text(200),
  alarm: z.boolean(),
  info: text(500).optional(),
});

/** Device binding (001 §3 `info`): the editor's copy; the server answers the live items itself. */
const deviceInfo = z.strictObject({
  driver: text(50).optional(),
  device: z.number().int().min(0).optional(),
  deviceName: text(200).optional(),
  items: z.array(componentItem).max(500),
  normal_img: imagePath.optional(),
  abnormal_img: imagePath.optional(),
});

/** Event of a component (001 §3 "Other"): a redirect goes to a safe link; a callback is a name, never code. */
const componentEvent = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('redirect'), value: safeLink }),
  z.strictObject({ kind: z.literal('alert'), value: text(500) }),
  z.strictObject({
    kind: z.literal('callback'),
    value: z
      .string()
      .max(60)
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  }),
]);

const componentAnimation = z.strictObject({
  category: z.enum(['enter', 'emphasis', 'exit']),
  name: z
    .string()
    .max(60)
    .regex(/^[A-Za-z0-9_-]+$/),
  duration: z.number().min(0).max(600).optional(),
  loop: z.boolean().optional(),
});

const componentDialog = z.strictObject({
  placement: cssWord,
  width: z.number().min(0).max(10_000),
  trigger: cssWord,
  content: text(2000),
});

/** A kind-specific value: text, number, flag, line points or a small record of those. */
const propScalar = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);
const propValue = z.union([
  propScalar,
  z.array(z.union([propScalar, z.strictObject({ x: z.number(), y: z.number() })])).max(500),
  z.record(z.string().max(60), propScalar).refine((r) => Object.keys(r).length <= 50, 'too many keys'),
]);

/**
 * The component JSON stored in a placed record's `extend` (001 §3 "Canvas component"): strict, so
 * an unknown key, a script-bearing link or an out-of-range number is refused, never stored.
 */
export const componentJson = z.strictObject({
  component: componentKind.describe('Component kind (001 §3).'),
  selfId: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/)
    .optional()
    .describe('The editor’s own id.'),
  groupId: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/)
    .nullable()
    .optional()
    .describe('Group the component belongs to.'),
  label: text(200).optional(),
  propValue: propValue.optional(),
  style: componentStyle.optional(),
  events: z.array(componentEvent).max(20).optional(),
  animations: z.array(componentAnimation).max(20).optional(),
  groupStyle: componentStyle.optional(),
  dialog: componentDialog.nullable().optional(),
  device: deviceInfo.nullable().optional(),
  iconUrl: imagePath.optional(),
  rotate: z.number().min(-360).max(360).optional(),
  zIndex: z.number().int().min(-10_000).max(10_000).optional(),
  isLock: z.boolean().optional(),
});
export type ComponentJson = z.infer<typeof componentJson>;

/** One placed component as the editor saves it (001 §3 placed record; id absent: a new one). */
export const componentInput = z.strictObject({
  id: id.optional().describe('Id of the placed record; absent for a component new on the canvas.'),
  type: z.number().int().min(0).max(99).default(0).describe('Component type: 0 a device component.'),
  device_id: z.number().int().min(0).nullable().default(null).describe('Bound device (null or 0: none).'),
  link: safeLink.default('').describe('Where a click goes (the station page of the device, or another page).'),
  normal_img: imagePath.default('').describe('Icon when no item alarms.'),
  abnormal_img: imagePath.default('').describe('Icon when an item alarms.'),
  width: px.describe('Width, px (a number or numeric string).'),
  height: px.describe('Height, px.'),
  top: px.describe('Top, px.'),
  left: px.describe('Left, px.'),
  item_ids: z.array(z.number().int().min(1)).max(500).default([]).describe('Items shown by the component.'),
  video_id: z.number().int().min(0).nullable().default(null).describe('Bound video (null: none).'),
  extend: componentJson.describe('The component JSON (strict).'),
});
export type ComponentInput = z.input<typeof componentInput>;
