import { centreOf, normaliseDegrees, type Point, type Rect, rotatedBounds, rotatePoint, unionOf } from './geometry.ts';
import type { ComponentRecord } from './records.ts';

/**
 * Pure transforms of component records (no editor state): what a move, resize, rotation or rescale
 * writes. The editor applies them to the store as one undo step each.
 */

/** Resize handles: the four sides and four corners. */
export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const handles: readonly Handle[] = ['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'];

/** Distance of the rotation handle above a component's top edge, in canvas pixels. */
export const rotateHandleOffset = 20;

export const byZ = (a: ComponentRecord, b: ComponentRecord) =>
  a.zIndex - b.zIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const rectOf = (r: ComponentRecord): Rect => ({ left: r.left, top: r.top, width: r.width, height: r.height });

/** Pointer angle around `centre` in degrees, 0 straight up, clockwise. */
export const angleAround = (centre: Point, p: Point) =>
  (Math.atan2(p.y - centre.y, p.x - centre.x) * 180) / Math.PI + 90;

/** Rescales the geometry, font size and border width of `r` by `factor` (001 §4 "Scale"). */
export const rescaleRecord = (r: ComponentRecord, factor: number): ComponentRecord => ({
  ...r,
  top: r.top * factor,
  left: r.left * factor,
  width: r.width * factor,
  height: r.height * factor,
  style: {
    ...r.style,
    ...(r.style.fontSize === undefined ? {} : { fontSize: r.style.fontSize * factor }),
    ...(r.style.borderWidth === undefined ? {} : { borderWidth: r.style.borderWidth * factor }),
  },
});

/**
 * The scale typed in the toolbar, in percent; empty becomes 1 (001 §4), anything that is not a
 * positive number answers null and changes nothing.
 */
export const parseScale = (text: string): number | null => {
  const trimmed = text.trim();
  if (trimmed === '') return 1;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : null;
};

export const sameRect = (a: Rect, b: Rect) =>
  a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height;

/** A component given a new rectangle; a group's members scale with it. */
export const resizedRecords = (
  record: ComponentRecord,
  members: readonly ComponentRecord[],
  rect: Rect,
): ComponentRecord[] => {
  const out: ComponentRecord[] = [{ ...record, ...rect }];
  if (record.kind === 'Group') {
    const sx = record.width === 0 ? 1 : rect.width / record.width;
    const sy = record.height === 0 ? 1 : rect.height / record.height;
    for (const m of members)
      out.push({
        ...m,
        left: rect.left + (m.left - record.left) * sx,
        top: rect.top + (m.top - record.top) * sy,
        width: m.width * sx,
        height: m.height * sy,
      });
  }
  return out;
};

/** A component turned by `delta` degrees; a group stays upright and its members turn around its centre. */
export const rotatedRecords = (
  record: ComponentRecord,
  members: readonly ComponentRecord[],
  delta: number,
): ComponentRecord[] => {
  if (record.kind !== 'Group') return [{ ...record, rotate: normaliseDegrees(record.rotate + delta) }];
  const centre = centreOf(rectOf(record));
  const turned = members.map((m) => {
    const c = rotatePoint(centreOf(rectOf(m)), centre, delta);
    return { ...m, left: c.x - m.width / 2, top: c.y - m.height / 2, rotate: normaliseDegrees(m.rotate + delta) };
  });
  const box = unionOf(turned.map((m) => rotatedBounds(rectOf(m), m.rotate))) ?? rectOf(record);
  return [{ ...record, ...box }, ...turned];
};

/**
 * The rectangle a handle drag by (dx, dy) gives: the pointer's motion taken in the component's own
 * turned frame, the opposite side or corner held where it was on the canvas. At least 1 px.
 */
export const resizeRect = (r: ComponentRecord, handle: Handle, dx: number, dy: number): Rect => {
  const local = rotatePoint({ x: dx, y: dy }, { x: 0, y: 0 }, -r.rotate);
  const sx = handle.includes('e') ? 1 : handle.includes('w') ? -1 : 0;
  const sy = handle.includes('s') ? 1 : handle.includes('n') ? -1 : 0;
  const width = Math.max(1, r.width + sx * local.x);
  const height = Math.max(1, r.height + sy * local.y);
  // Anchor: the opposite side's point, as an offset from the centre in the component's frame.
  const c = centreOf(rectOf(r));
  const anchor = rotatePoint({ x: c.x - (sx * r.width) / 2, y: c.y - (sy * r.height) / 2 }, c, r.rotate);
  const offset = rotatePoint({ x: (-sx * width) / 2, y: (-sy * height) / 2 }, { x: 0, y: 0 }, r.rotate);
  const centre = { x: anchor.x - offset.x, y: anchor.y - offset.y };
  return { left: centre.x - width / 2, top: centre.y - height / 2, width, height };
};

/** Where a handle of a component lies on the canvas (its rotation applied). */
export const handlePointOf = (r: ComponentRecord, handle: Handle | 'rotate'): Point => {
  const c = centreOf(rectOf(r));
  const x = handle === 'rotate' ? 0 : handle.includes('w') ? -0.5 : handle.includes('e') ? 0.5 : 0;
  const y = handle === 'rotate' ? -0.5 : handle.includes('n') ? -0.5 : handle.includes('s') ? 0.5 : 0;
  const local = { x: c.x + x * r.width, y: c.y + y * r.height - (handle === 'rotate' ? rotateHandleOffset : 0) };
  return rotatePoint(local, c, r.rotate);
};
