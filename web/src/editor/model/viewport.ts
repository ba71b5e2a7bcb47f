import type { Point } from './geometry.ts';

/**
 * How the editor's canvas is looked at (beyond the spec, issue 15 item 9): a zoom factor and a pan
 * offset in screen pixels, applied as one CSS transform `translate(pan) scale(zoom)` with origin
 * 0 0. It is the view only: nothing here is stored, and the canvas "scale %" of 001 §4 (which
 * rewrites geometry) is a different thing.
 */
export interface Viewport {
  zoom: number;
  x: number;
  y: number;
}

export const minZoom = 0.1;
export const maxZoom = 8;

/** Where the canvas sits at rest: unzoomed, a small margin from the view's corner. */
export const restingViewport: Viewport = { zoom: 1, x: 16, y: 16 };

const clampZoom = (zoom: number) => Math.min(maxZoom, Math.max(minZoom, zoom));

/**
 * The canvas point under a screen point, given where the canvas's (transformed) top-left corner
 * lies on the screen: the mapping every pointer event goes through.
 */
export const screenToCanvas = (screen: Point, canvasOrigin: Point, zoom: number): Point => ({
  x: (screen.x - canvasOrigin.x) / zoom,
  y: (screen.y - canvasOrigin.y) / zoom,
});

/** The screen point of a canvas point, `at` being relative to the view (the inverse of the above). */
export const canvasToView = (view: Viewport, p: Point): Point => ({
  x: view.x + p.x * view.zoom,
  y: view.y + p.y * view.zoom,
});

/** The canvas point under `at`, a point relative to the view's top-left corner. */
export const viewToCanvas = (view: Viewport, at: Point): Point =>
  screenToCanvas(at, { x: view.x, y: view.y }, view.zoom);

/** Zooms by `factor` keeping the canvas point under `at` (relative to the view) where it is. */
export const zoomAround = (view: Viewport, at: Point, factor: number): Viewport => {
  const zoom = clampZoom(view.zoom * factor);
  const k = zoom / view.zoom;
  return { zoom, x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k };
};

/** A wheel step's zoom factor: smooth for trackpads (small deltas), ~10 % per mouse notch. */
export const wheelZoomFactor = (deltaY: number): number => Math.exp(-Math.max(-100, Math.min(100, deltaY)) / 1000);

export const panBy = (view: Viewport, dx: number, dy: number): Viewport => ({
  ...view,
  x: view.x + dx,
  y: view.y + dy,
});

/** Room left between a fitted canvas and the view's edges, px. */
export const fitMargin = 16;

/**
 * The view that shows the whole canvas inside a view of `area` (the visible area between the
 * panels), as large as it fits with `margin` px around it, centred. The zoom may exceed 100 % on a
 * view larger than the canvas; it is clamped to the zoom range, and an area with no room left (a
 * view not laid out yet) answers the resting view.
 *
 * @example fitViewport({ width: 1366, height: 768 }, { width: 886, height: 640 }) // zoom ≈ 0.625
 */
export const fitViewport = (
  canvas: { width: number; height: number },
  area: { width: number; height: number },
  margin = fitMargin,
): Viewport => {
  const roomW = area.width - 2 * margin;
  const roomH = area.height - 2 * margin;
  if (!(roomW > 0 && roomH > 0 && canvas.width > 0 && canvas.height > 0)) return restingViewport;
  const zoom = clampZoom(Math.min(roomW / canvas.width, roomH / canvas.height));
  return { zoom, x: (area.width - canvas.width * zoom) / 2, y: (area.height - canvas.height * zoom) / 2 };
};
