import { z } from 'zod';
import { tParam } from './envelope.ts';
import { itemPurpose } from './monitoring/fields.ts';
import { defineRoute } from './route.ts';
import { componentInput, componentJson, imagePath, pictureStyle } from './site-map-components.ts';

export * from './site-map-components.ts';

/**
 * The site map ("top view", 001 whole; 002 §7.1 `setting/top_view/*`, §7.3 `gis`, `gis/params`):
 * a background picture per site, site type and sub-site, the components placed on it, the image
 * library (backgrounds and icons), the rotation (carousel) setting and the GIS map settings.
 * Server design: docs/site-map.md "Server".
 */

const tags = ['site-map'];
const id = z.coerce.number().int().min(1).max(2_147_483_647);
/** Site type (001 §9: 0 aerial view, 1 device overview, 2 line diagram, 3 topology; default 0). */
const siteType = z.coerce.number().int().min(0).max(99);
/** Sub-site id; 0 is the home view (001 §3). */
const subSite = z.coerce.number().int().min(0).max(2_147_483_647);
/** An item of a placed device, with its alarm flag (a device shows its abnormal image if any is set). */
export const placedItem = z.object({
  item_id: z.number().int(),
  name: z.string().describe('Item name.'),
  item_cell_name: z.string().describe('Point name.'),
  value: z.number().nullable().describe('Last value.'),
  unit: z.string().describe('Unit shown after the value, e.g. °C, V, kWh.'),
  decimals: z.number().int().nullable().describe('Decimals the value is shown with, or null: as read.'),
  purpose: itemPurpose.describe(
    "What the item measures: room_temperature (the heat map's), room_humidity, or '' none.",
  ),
  info: z.string().describe('State text.'),
  alarm: z.boolean().describe('Whether the item has an open alarm.'),
});

/**
 * The item a device gives the heat map (docs/site-map.md "Heat map"): its first item whose purpose
 * is the room temperature, set on the item or its template's point. A name that looks like a
 * temperature is not enough: a UPS's battery temperature or a device's internal one is no room's.
 */
export const heatItemOf = <T extends { purpose: string }>(items: readonly T[]): T | undefined =>
  items.find((i) => i.purpose === 'room_temperature');

/** A placed component record (001 §3): geometry as strings as the spec's client reads them. */
export const placedComponent = z.object({
  id: z.number().int().describe('Record id.'),
  device_group_id: z.number().int().describe('Site.'),
  parent_id: z.number().int().describe('Sub-site (0: the home view).'),
  site_type: z.number().int().describe('Site type of the picture.'),
  type: z.number().int().describe('Component type: 0 a device component.'),
  device_id: z.number().int().nullable().describe('Bound device.'),
  device: z.string().describe('Name of the bound device, or empty.'),
  link: z.string(),
  normal_img: z.string(),
  abnormal_img: z.string(),
  width: z.string(),
  height: z.string(),
  top: z.string(),
  left: z.string(),
  item_ids: z.array(z.number().int()),
  video_id: z.number().int().nullable(),
  extend: componentJson,
  items: z.array(placedItem).describe('Items of the bound device with their alarm flag.'),
  alarm: z.boolean().describe('Whether an item of the device alarms (show the abnormal image).'),
});
export type PlacedComponent = z.infer<typeof placedComponent>;

/** A background record (001 §3). */
export const backgroundRecord = z.object({
  id: z.number().int(),
  device_group_id: z.number().int().describe('Site.'),
  type: z.number().int().describe('Site type.'),
  parent_id: z.number().int().describe('Sub-site (0: the home view).'),
  background: z.string().describe('The background image.'),
  extend: pictureStyle.describe('Picture style with canvas width, height and scale.'),
});
export type BackgroundRecord = z.infer<typeof backgroundRecord>;

export const pictureQuery = z.object({
  device_group_id: id.describe('The site.'),
  type: siteType.default(0).describe('Site type (default 0).'),
  parent_id: subSite.default(0).describe('Sub-site (0: the home view).'),
  t: tParam,
});

export const backgroundsQuery = z.object({
  device_group_id: id.describe('The site.'),
  t: tParam,
});

export const backgroundInput = z.strictObject({
  device_group_id: id.describe('The site.'),
  type: siteType.default(0),
  parent_id: subSite.default(0),
  background: imagePath.refine((p) => p !== '', 'a background image is required').describe('The image.'),
  extend: pictureStyle.default({ canvasWidth: 1366, canvasHeight: 768, canvasScale: 100 }),
  t: tParam,
});

/** One save of the editor: everything on the canvas of one site, site type and sub-site (001 §4). */
export const pictureSave = z.strictObject({
  device_group_id: id.describe('The site.'),
  type: siteType.default(0).describe('Site type.'),
  parent_id: subSite.default(0).describe('Sub-site (0: the home view).'),
  background: backgroundInput
    .omit({ device_group_id: true, type: true, parent_id: true, t: true })
    .nullable()
    .describe('The background picture of this site type; required (机房背景图不可缺少！).'),
  components: z.array(componentInput).max(5000).describe('Every component on the canvas.'),
  t: tParam,
});
export type PictureSave = z.input<typeof pictureSave>;

export const pictureSaved = z.object({
  created: z.number().int().describe('Components created.'),
  updated: z.number().int().describe('Components updated.'),
  deleted: z.number().int().describe('Components no longer on the canvas, deleted.'),
  ids: z.array(z.number().int()).describe('Record id of each component, in the order sent.'),
});

export const picture = z.object({
  background: backgroundRecord.nullable(),
  components: z.array(placedComponent),
});

/** A stored image of the library. */
export const libraryImage = z.object({
  id: z.number().int(),
  url: imagePath.describe('Where the image is served.'),
  name: z.string().describe('File name given at upload (shown only).'),
  content_type: z.string(),
  size: z.number().int().describe('Bytes.'),
});
export const iconRow = libraryImage.extend({ normal_img: imagePath.describe('The icon (001 §3 Icon).') });

/**
 * How much the image library may hold (issue 27; docs/site-map.md "Image library"): per uploader
 * and in total, in images and in bytes. An upload past any of them is refused with what was reached.
 */
export const uploadQuota = z.strictObject({
  user_images: z.number().int().min(1).max(1_000_000).default(200).describe('Images one user may upload.'),
  user_bytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 ** 4)
    .default(100 * 1024 * 1024)
    .describe('Bytes one user may upload (100 MB).'),
  total_images: z.number().int().min(1).max(1_000_000).default(2000).describe('Images in the library.'),
  total_bytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 ** 4)
    .default(1024 * 1024 * 1024)
    .describe('Bytes in the library (1 GB).'),
});
export type UploadQuota = z.infer<typeof uploadQuota>;

/** The rotation (carousel) setting (001 §3, §4, §5). */
export const rotationSetting = z.object({
  enable: z.boolean().describe('Whether /fullScreen cycles the sites.'),
  interval: z.number().int().describe('Seconds per site (≥ 10).'),
  device_group_ids: z.array(z.number().int()).describe('Sites to cycle (≥ 2, each with devices).'),
});
export type RotationSetting = z.infer<typeof rotationSetting>;

/**
 * The saved form: checked by the service only when enabled (001 §4, a disabled setting is stored
 * with interval 10 when it is not a number), so the messages of 001 §5 come back word for word.
 */
export const rotationInput = z.strictObject({
  enable: z.boolean(),
  interval: z.union([z.number(), z.string().max(20), z.null()]).optional(),
  device_group_ids: z.array(z.number().int().min(1)).max(1000).default([]),
  t: tParam,
});

/** GIS: sites placed on the map by longitude and latitude (002 §5.1: integer part 0–180 / 0–90, ≤ 6 decimals). */
const longitude = z.number().min(-180).max(180);
const latitude = z.number().min(-90).max(90);
export const gisSite = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int(),
  longitude: z.number().nullable(),
  latitude: z.number().nullable(),
  devices: z.number().int().describe('Devices of the site.'),
  alarms: z.number().int().describe('Open alarms of the site’s devices.'),
});
export const gisUpdate = z.strictObject({
  sites: z
    .array(z.strictObject({ id: id, longitude: longitude.nullable(), latitude: latitude.nullable() }))
    .min(1)
    .max(1000),
  t: tParam,
});
export const gisParams = z.strictObject({
  center_longitude: longitude.default(116.397),
  center_latitude: latitude.default(39.908),
  zoom: z.number().int().min(1).max(20).default(5),
  tile_url: z
    .string()
    .max(500)
    .regex(/^$|^https?:\/\/[^\s]+$/i)
    .default('')
    .describe('Tile server address with {z}/{x}/{y}; empty: no tiles (offline).'),
});
export type GisParams = z.infer<typeof gisParams>;

export const stationItemsQuery = z.object({
  device_id: id.describe('The device.'),
  cell_names: z.string().max(2000).optional().describe('Comma-separated point names; empty: every item.'),
  t: tParam,
});

/**
 * The editor's ticket (000 §2.4, 001 §2 `token`): the console mints a short-lived one-time ticket
 * for the editor's address, and the editor redeems it once for the session's token, so the session
 * token never stands in a URL.
 */
export const editorTicket = z.object({
  ticket: z.string().describe('One-time ticket for /groupmap_edit?token='),
  expires_in: z.number().int().describe('Seconds the ticket stays valid.'),
});
export const ticketRedeem = z.strictObject({
  ticket: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .describe('The ticket from the editor address.'),
  t: tParam,
});

const fileParams = z.object({
  name: z
    .string()
    .regex(/^[0-9a-f]{32}\.(png|jpg|gif|svg)$/)
    .describe('Stored file name.'),
});

export const topViewRoutes = {
  backgrounds: defineRoute({
    method: 'GET',
    path: 'setting/top_view/background',
    summary: 'Background records of a site (every site type and sub-site)',
    tags,
    query: backgroundsQuery,
    response: z.array(backgroundRecord),
  }),
  addBackground: defineRoute({
    method: 'POST',
    path: 'setting/top_view/background',
    summary: 'Add a background for a site, site type and sub-site',
    tags,
    body: backgroundInput,
    response: backgroundRecord,
  }),
  updateBackground: defineRoute({
    method: 'PUT',
    path: 'setting/top_view/background/:id',
    summary: 'Change a background record',
    tags,
    params: z.object({ id }),
    body: backgroundInput,
    response: backgroundRecord,
  }),
  picture: defineRoute({
    method: 'GET',
    path: 'setting/top_view/device',
    summary: 'The picture of a site: its background and placed components with their items',
    tags,
    query: pictureQuery,
    response: picture,
  }),
  save: defineRoute({
    method: 'PUT',
    path: 'setting/top_view/device',
    summary: 'Save the canvas: create, update and delete components in one transaction',
    tags,
    body: pictureSave,
    response: pictureSaved,
  }),
  clear: defineRoute({
    method: 'DELETE',
    path: 'setting/top_view/device/:id',
    summary: 'Clear a site: delete every component and background of it',
    tags,
    params: z.object({ id: id.describe('The site.') }),
    response: z.object({ deleted: z.number().int() }),
  }),
  mintTicket: defineRoute({
    method: 'POST',
    path: 'setting/top_view/ticket',
    summary: 'Mint a one-time ticket that opens the editor in its own window',
    tags,
    body: z.strictObject({ t: tParam }),
    response: editorTicket,
  }),
  redeemTicket: defineRoute({
    method: 'POST',
    path: 'pub/top_view/ticket',
    summary: 'Redeem an editor ticket (once, within its lifetime) for the session token',
    tags,
    body: ticketRedeem,
    response: z.object({ access_token: z.string() }),
  }),
  backgroundImages: defineRoute({
    method: 'GET',
    path: 'setting/top_view/image_backgroup',
    summary: 'Background images of the library',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(libraryImage),
  }),
  icons: defineRoute({
    method: 'GET',
    path: 'setting/top_view/normal_icon',
    summary: 'Icons of the library',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(iconRow),
  }),
  deleteImage: defineRoute({
    method: 'DELETE',
    path: 'setting/top_view/images/:id',
    summary: 'Delete an image of the library that no picture uses (one the caller may see)',
    tags,
    params: z.object({ id: id.describe('The image.') }),
    response: z.null(),
  }),
  uploadQuota: defineRoute({
    method: 'GET',
    path: 'setting/top_view/upload_quota',
    summary: 'How much the image library may hold, per user and in total (administrator)',
    tags,
    query: z.object({ t: tParam }),
    response: uploadQuota,
  }),
  setUploadQuota: defineRoute({
    method: 'PUT',
    path: 'setting/top_view/upload_quota',
    summary: 'Change how much the image library may hold (administrator)',
    tags,
    body: uploadQuota.extend({ t: tParam }),
    response: uploadQuota,
  }),
  getRotation: defineRoute({
    method: 'GET',
    path: 'setting/top_view/vertical_view_polling_set',
    summary: 'The rotation (carousel) setting',
    tags,
    query: z.object({ t: tParam }),
    response: rotationSetting,
  }),
  setRotation: defineRoute({
    method: 'PUT',
    path: 'setting/top_view/vertical_view_polling_set',
    summary: 'Save the rotation (carousel) setting',
    tags,
    body: rotationInput,
    response: rotationSetting,
  }),
  stationItems: defineRoute({
    method: 'GET',
    path: 'setting/top_view/station_items',
    summary: 'Items of a device, optionally only those with the given point names',
    tags,
    query: stationItemsQuery,
    response: z.array(placedItem),
  }),
  gis: defineRoute({
    method: 'GET',
    path: 'gis',
    summary: 'Granted sites with their map position, devices and open alarms',
    tags,
    query: z.object({ t: tParam }),
    response: z.array(gisSite),
  }),
  setGis: defineRoute({
    method: 'PUT',
    path: 'gis',
    summary: 'Place sites on the map',
    tags,
    body: gisUpdate,
    response: z.array(gisSite),
  }),
  gisParams: defineRoute({
    method: 'GET',
    path: 'gis/params',
    summary: 'Map settings: centre, zoom and tile server',
    tags,
    query: z.object({ t: tParam }),
    response: gisParams,
  }),
  setGisParams: defineRoute({
    method: 'PUT',
    path: 'gis/params',
    summary: 'Change the map settings',
    tags,
    body: gisParams.extend({ t: tParam }),
    response: gisParams,
  }),
} as const;

/** Uploads are multipart (field `image`), outside the JSON contract: their paths and limits. */
export const topViewUploads = {
  backgroundPath: '/api/v1/setting/top_view/image_backgroup',
  iconPath: '/api/v1/setting/top_view/normal_icon',
  filePath: '/api/v1/setting/top_view/file/:name',
  /** 001 §5: site-map uploads png, jpg, jpeg, gif, svg; at most 1 MB. */
  maxBytes: 1024 * 1024,
  fileParams,
} as const;
