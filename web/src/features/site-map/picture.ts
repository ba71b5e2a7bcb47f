import type { PictureSave, PlacedComponent, picture } from '@sitewatch/contract/site-map';
import type { z } from 'zod';
import { recordFromPlaced, recordToInput } from '../../editor/model/placed.ts';
import {
  type CanvasSettings,
  type ComponentRecord,
  createComponent,
  defaultCanvas,
} from '../../editor/model/records.ts';
import type { LiveState } from './render/component-view.tsx';

type Picture = z.infer<typeof picture>;

/** The editor id of the background picture: one per picture, saved as the background record. */
export const backgroundId = 'background';

export interface Scene {
  records: ComponentRecord[];
  canvas: CanvasSettings;
  live: Map<string, LiveState>;
}

// Records and live states are kept per answer object, so a live patch (which replaces only the
// items of the components it touches) redraws only those components.
const recordCache = new WeakMap<PlacedComponent['extend'], ComponentRecord>();
const liveCache = new WeakMap<PlacedComponent['items'], LiveState>();
const recordOf = (c: PlacedComponent): ComponentRecord => {
  let r = recordCache.get(c.extend);
  if (!r) {
    r = recordFromPlaced(c);
    recordCache.set(c.extend, r);
  }
  return r;
};
const liveOf = (c: PlacedComponent): LiveState => {
  let l = liveCache.get(c.items);
  if (!l || l.alarm !== c.alarm) {
    l = { alarm: c.alarm, device: c.device, items: c.items };
    liveCache.set(c.items, l);
  }
  return l;
};

/**
 * A picture as the server answers it, as the renderers and the editor hold it: the background
 * record becomes a Picture component beneath the others (001 §4 "a background picture component"),
 * its style gives the canvas size and scale.
 */
export const sceneFromPicture = (pic: Picture): Scene => {
  const records = pic.components.map(recordOf);
  const live = new Map(pic.components.map((c, i) => [records[i]!.id, liveOf(c)]));
  const bg = pic.background;
  const canvas: CanvasSettings = bg
    ? { width: bg.extend.canvasWidth, height: bg.extend.canvasHeight, scale: bg.extend.canvasScale }
    : { ...defaultCanvas };
  if (bg) {
    const e = bg.extend;
    records.unshift(
      createComponent(backgroundId, 'Picture', {
        serverId: bg.id,
        normal_img: bg.background,
        left: e.left ?? 0,
        top: e.top ?? 0,
        width: e.width ?? canvas.width,
        height: e.height ?? canvas.height,
        rotate: e.rotate ?? 0,
        zIndex: 0,
        style: e.opacity === undefined ? {} : { opacity: e.opacity },
      }),
    );
  }
  return { records, canvas, live };
};

/**
 * The save of one picture (001 §4): the background picture as the background record, every other
 * component as a component input. No Picture: a null background, which the server refuses with
 * 机房背景图不可缺少！ (the model says it first).
 */
export const pictureToSave = (
  records: readonly ComponentRecord[],
  canvas: CanvasSettings,
  at: { site: number; type: number; parent: number },
): PictureSave => {
  const picture = records.find((r) => r.kind === 'Picture' && r.normal_img !== '');
  return {
    device_group_id: at.site,
    type: at.type,
    parent_id: at.parent,
    background: picture
      ? {
          background: picture.normal_img,
          extend: {
            canvasWidth: Math.round(canvas.width),
            canvasHeight: Math.round(canvas.height),
            canvasScale: canvas.scale,
            width: picture.width,
            height: picture.height,
            left: picture.left,
            top: picture.top,
            rotate: picture.rotate,
            ...(picture.style.opacity === undefined ? {} : { opacity: picture.style.opacity }),
          },
        }
      : null,
    components: records.filter((r) => r.kind !== 'Picture').map(recordToInput),
  };
};

/**
 * Live item values applied to a cached picture (push `live`): only the components whose items
 * changed get a new object, and their `extend` is kept, so their records stay the same.
 */
export const patchPicture = (
  pic: Picture,
  items: ReadonlyMap<number, { value: number | null; info: string }>,
): Picture => {
  if (!pic.components.some((c) => c.items.some((i) => items.has(i.item_id)))) return pic;
  return {
    ...pic,
    components: pic.components.map((c) =>
      c.items.some((i) => items.has(i.item_id))
        ? {
            ...c,
            items: c.items.map((i) => {
              const u = items.get(i.item_id);
              return u ? { ...i, value: u.value, info: u.info } : i;
            }),
          }
        : c,
    ),
  };
};
