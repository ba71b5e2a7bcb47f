import { componentJson, imagePath } from '@sitewatch/contract/site-map';
import { z } from 'zod';
import { recordToInput } from '../../editor/model/placed.ts';
import type { CanvasSettings, ComponentRecord } from '../../editor/model/records.ts';

/**
 * Export and import of one picture as one JSON file with its images (issue 15 Build 9;
 * docs/site-map.md "Export and import"): the records, the canvas, and every image they name as a
 * data URL, so a picture can move between sites and installations.
 */
export const transferFormat = 'sitewatch-site-map';

const dataUrl = z
  .string()
  .max(1_500_000)
  .regex(/^data:image\/(png|jpeg|gif|svg\+xml);base64,[A-Za-z0-9+/=]+$/);

const exportedRecord = z.object({
  id: z.string().max(64),
  kind: componentJson.shape.component,
  type: z.number().int().min(0).max(99),
  label: z.string().max(200),
  top: z.number(),
  left: z.number(),
  width: z.number().min(0),
  height: z.number().min(0),
  rotate: z.number(),
  zIndex: z.number().int(),
  locked: z.boolean(),
  groupId: z.string().max(64).nullable(),
  device_id: z.number().int().nullable(),
  link: z.string().max(500),
  normal_img: imagePath,
  abnormal_img: imagePath,
  item_ids: z.array(z.number().int()).max(500),
  extend: componentJson,
});

export const transferFile = z.object({
  format: z.literal(transferFormat),
  version: z.literal(1),
  canvas: z.object({ width: z.number().min(100), height: z.number().min(100), scale: z.number().min(1) }),
  records: z.array(exportedRecord).max(5000),
  images: z.record(imagePath, z.object({ kind: z.enum(['background', 'icon']), data: dataUrl })),
});
export type TransferFile = z.infer<typeof transferFile>;

/** Every image a record names, with the library it belongs to. */
export const imagesOf = (records: readonly ComponentRecord[]): Map<string, 'background' | 'icon'> => {
  const out = new Map<string, 'background' | 'icon'>();
  for (const r of records) {
    const kind = r.kind === 'Picture' ? 'background' : 'icon';
    for (const url of [r.normal_img, r.abnormal_img, r.extend.iconUrl, r.info?.normal_img, r.info?.abnormal_img])
      if (url) out.set(url, out.get(url) ?? kind);
  }
  return out;
};

/** The file of a picture; `images` holds the data URL of each image address. */
export const buildTransfer = (
  records: readonly ComponentRecord[],
  canvas: CanvasSettings,
  images: ReadonlyMap<string, { kind: 'background' | 'icon'; data: string }>,
): TransferFile => ({
  format: transferFormat,
  version: 1,
  canvas: { ...canvas },
  records: records.map((r) => {
    const input = recordToInput(r);
    return {
      id: r.id,
      kind: r.kind,
      type: r.type,
      label: r.label,
      top: r.top,
      left: r.left,
      width: r.width,
      height: r.height,
      rotate: r.rotate,
      zIndex: r.zIndex,
      locked: r.locked,
      groupId: r.groupId,
      device_id: r.device_id,
      link: r.link,
      normal_img: r.normal_img,
      abnormal_img: r.abnormal_img,
      item_ids: r.item_ids,
      extend: input.extend,
    };
  }),
  images: Object.fromEntries(images),
});

const swapUrl = (url: string | undefined, urls: ReadonlyMap<string, string>) => (url ? (urls.get(url) ?? '') : url);

/**
 * The records of a file for this site: images at their new addresses (`urls`: old → new), new
 * records (no server id), and device bindings kept only for devices of this site (`devices`),
 * since ids of another installation mean other devices.
 */
export const recordsFromTransfer = (
  file: TransferFile,
  urls: ReadonlyMap<string, string>,
  at: { site: number; parent: number; devices: ReadonlySet<number> },
): ComponentRecord[] =>
  file.records.map((r) => {
    const json = r.extend;
    const { width: _w, height: _h, top: _t, left: _l, rotate: _r, zIndex: _z, ...style } = json.style ?? {};
    const keep = r.device_id !== null && at.devices.has(r.device_id);
    const info =
      keep && json.device
        ? {
            ...json.device,
            normal_img: swapUrl(json.device.normal_img, urls),
            abnormal_img: swapUrl(json.device.abnormal_img, urls),
          }
        : null;
    return {
      id: r.id,
      serverId: null,
      kind: r.kind,
      type: r.type,
      label: r.label,
      top: r.top,
      left: r.left,
      width: r.width,
      height: r.height,
      rotate: r.rotate,
      zIndex: r.zIndex,
      locked: r.locked,
      groupId: r.groupId,
      device_id: keep ? r.device_id : null,
      device_group_id: at.site,
      parent_id: at.parent,
      link: keep || !/deviceId=/.test(r.link) ? r.link : '',
      normal_img: swapUrl(r.normal_img, urls) ?? '',
      abnormal_img: swapUrl(r.abnormal_img, urls) ?? '',
      item_ids: keep ? r.item_ids : [],
      video_id: null,
      info: info && (Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) as typeof info),
      propValue: json.propValue ?? null,
      style,
      events: json.events ?? [],
      animations: json.animations ?? [],
      dialog: json.dialog ?? null,
      extend: {
        ...(json.groupStyle === undefined ? {} : { groupStyle: json.groupStyle }),
        ...(json.iconUrl ? { iconUrl: swapUrl(json.iconUrl, urls) } : {}),
      },
    };
  });
