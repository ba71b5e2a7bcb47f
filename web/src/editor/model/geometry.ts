/** Plane geometry of the canvas: axis-aligned rectangles, rotation, hit tests. Canvas pixels, y down. */

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** `p` turned by `degrees` clockwise (on screen, y down) around `centre`. */
export const rotatePoint = (p: Point, centre: Point, degrees: number): Point => {
  const a = radians(degrees);
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const dx = p.x - centre.x;
  const dy = p.y - centre.y;
  return { x: centre.x + dx * cos - dy * sin, y: centre.y + dx * sin + dy * cos };
};

export const centreOf = (r: Rect): Point => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** The axis-aligned box around `r` turned by `degrees` around its centre. */
export const rotatedBounds = (r: Rect, degrees: number): Rect => {
  if (degrees % 360 === 0) return { left: r.left, top: r.top, width: r.width, height: r.height };
  const c = centreOf(r);
  const corners = [
    { x: r.left, y: r.top },
    { x: r.left + r.width, y: r.top },
    { x: r.left, y: r.top + r.height },
    { x: r.left + r.width, y: r.top + r.height },
  ].map((p) => rotatePoint(p, c, degrees));
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
};

/** Whether `p` lies on `r` turned by `degrees` around its centre. */
export const containsPoint = (r: Rect, degrees: number, p: Point): boolean => {
  const local = rotatePoint(p, centreOf(r), -degrees);
  return local.x >= r.left && local.x <= r.left + r.width && local.y >= r.top && local.y <= r.top + r.height;
};

/** Whether `inner` lies wholly inside `outer`. */
export const containsRect = (outer: Rect, inner: Rect): boolean =>
  inner.left >= outer.left &&
  inner.top >= outer.top &&
  inner.left + inner.width <= outer.left + outer.width &&
  inner.top + inner.height <= outer.top + outer.height;

/** The smallest rectangle holding all of `rects`, null for none. */
export const unionOf = (rects: readonly Rect[]): Rect | null => {
  if (rects.length === 0) return null;
  const left = Math.min(...rects.map((r) => r.left));
  const top = Math.min(...rects.map((r) => r.top));
  const right = Math.max(...rects.map((r) => r.left + r.width));
  const bottom = Math.max(...rects.map((r) => r.top + r.height));
  return { left, top, width: right - left, height: bottom - top };
};

/** The rectangle spanned by two corners, in any order (a drag-selection). */
export const rectFromCorners = (a: Point, b: Point): Rect => ({
  left: Math.min(a.x, b.x),
  top: Math.min(a.y, b.y),
  width: Math.abs(a.x - b.x),
  height: Math.abs(a.y - b.y),
});

/** Degrees folded into [0, 360). */
export const normaliseDegrees = (degrees: number): number => ((degrees % 360) + 360) % 360;
