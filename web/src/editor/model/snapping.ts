import type { Rect } from './geometry.ts';

/** Snap distance of 001 §9, in canvas pixels. */
export const snapDistance = 3;

/** Grid spacing of 001 §9 ("about 7.24 px small and 36.18 px large"): five small cells make a large one. */
export const gridSpacing = { small: 7.236328125, large: 36.181640625 } as const;

/**
 * A guide line to draw while snapping: axis 'x' is a vertical line at x = position from y = from to
 * y = to; axis 'y' a horizontal line at y = position from x = from to x = to.
 */
export interface Guide {
  axis: 'x' | 'y';
  position: number;
  from: number;
  to: number;
}

export interface SnapResult {
  dx: number;
  dy: number;
  guides: Guide[];
}

const xStops = (r: Rect) => [r.left, r.left + r.width / 2, r.left + r.width];
const yStops = (r: Rect) => [r.top, r.top + r.height / 2, r.top + r.height];

/**
 * The smallest correction within `threshold` that lines one of `mine` up with a stop of one of
 * `others` along x or y. The stops are worked out in place, not as arrays per box: this runs on
 * every pointer move of a drag, over every other component (docs/site-map.md "Performance of the drag").
 */
const nearest = (mine: readonly number[], others: readonly Rect[], along: 'x' | 'y', threshold: number): number => {
  let best = Number.POSITIVE_INFINITY;
  // mine runs start, centre, end: a box wholly beyond that span and the threshold has no stop in reach.
  const low = mine[0]! - threshold;
  const high = mine[mine.length - 1]! + threshold;
  for (const r of others) {
    const start = along === 'x' ? r.left : r.top;
    const size = along === 'x' ? r.width : r.height;
    if (start + size < low || start > high) continue;
    for (const o of [start, start + size / 2, start + size])
      for (const m of mine) if (Math.abs(o - m) <= threshold && Math.abs(o - m) < Math.abs(best)) best = o - m;
  }
  return Number.isFinite(best) ? best : 0;
};

const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/**
 * Snaps `moving` to the edges and centres of `others` (left, centre, right × top, middle, bottom)
 * when one lies within `threshold`, and answers the correction and the guide lines to draw.
 * O(n) over the others: 2 000 rectangles take microseconds, so no spatial index.
 */
export const snapRect = (moving: Rect, others: readonly Rect[], threshold = snapDistance): SnapResult => {
  const dx = nearest(xStops(moving), others, 'x', threshold);
  const dy = nearest(yStops(moving), others, 'y', threshold);
  const moved = { ...moving, left: moving.left + dx, top: moving.top + dy };
  const lines = new Map<string, Guide>();
  const add = (axis: 'x' | 'y', position: number, from: number, to: number) => {
    const key = `${axis}:${position}`;
    const seen = lines.get(key);
    lines.set(
      key,
      seen ? { ...seen, from: Math.min(seen.from, from), to: Math.max(seen.to, to) } : { axis, position, from, to },
    );
  };
  // The moved box's stops once, not once per other box (this runs on every pointer move of a drag).
  const movedX = xStops(moved);
  const movedY = yStops(moved);
  for (const other of others) {
    // Lined up on neither axis (no stop of it within the moved box's span on either): no guide.
    const offX = other.left + other.width < moved.left - 1e-6 || other.left > moved.left + moved.width + 1e-6;
    const offY = other.top + other.height < moved.top - 1e-6 || other.top > moved.top + moved.height + 1e-6;
    if (offX && offY) continue;
    const top = Math.min(moved.top, other.top);
    const bottom = Math.max(moved.top + moved.height, other.top + other.height);
    const left = Math.min(moved.left, other.left);
    const right = Math.max(moved.left + moved.width, other.left + other.width);
    for (const o of xStops(other)) if (movedX.some((m) => close(m, o))) add('x', o, top, bottom);
    for (const o of yStops(other)) if (movedY.some((m) => close(m, o))) add('y', o, left, right);
  }
  return { dx, dy, guides: [...lines.values()] };
};

/** Positions of the grid lines across `length` pixels at `spacing` (0 included). */
export const gridLines = (length: number, spacing: number): number[] => {
  const lines: number[] = [];
  for (let i = 0; i * spacing <= length; i++) lines.push(i * spacing);
  return lines;
};
