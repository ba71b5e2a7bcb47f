// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { TestEditor } from './test-editor.ts';
import {
  canvasToView,
  fitMargin,
  fitViewport,
  maxZoom,
  minZoom,
  panBy,
  restingViewport,
  screenToCanvas,
  viewToCanvas,
  wheelZoomFactor,
  zoomAround,
} from './viewport.ts';

describe('viewport', () => {
  it('maps view points to canvas points and back at any zoom and pan', () => {
    const view = { zoom: 2.5, x: -130, y: 40 };
    const p = { x: 321, y: 77 };
    const at = canvasToView(view, p);
    expect(at).toEqual({ x: -130 + 321 * 2.5, y: 40 + 77 * 2.5 });
    expect(viewToCanvas(view, at)).toEqual(p);
    expect(viewToCanvas(restingViewport, { x: 16, y: 16 })).toEqual({ x: 0, y: 0 });
  });

  it('zooming around the pointer keeps the canvas point under it', () => {
    let view = restingViewport;
    const at = { x: 400, y: 250 };
    const under = viewToCanvas(view, at);
    for (const deltaY of [-100, -100, -30, 100, -100, -3]) {
      view = zoomAround(view, at, wheelZoomFactor(deltaY));
      const now = viewToCanvas(view, at);
      expect(now.x).toBeCloseTo(under.x, 9);
      expect(now.y).toBeCloseTo(under.y, 9);
    }
    expect(view.zoom).toBeGreaterThan(1);
    // Wheel up zooms in, down zooms out, about 10 % a notch.
    expect(wheelZoomFactor(-100)).toBeCloseTo(1.105, 3);
    expect(wheelZoomFactor(100)).toBeCloseTo(0.905, 3);
  });

  it('holds the zoom between its limits, the point under the pointer still fixed', () => {
    const at = { x: 50, y: 60 };
    const big = zoomAround(restingViewport, at, 1000);
    expect(big.zoom).toBe(maxZoom);
    const small = zoomAround(restingViewport, at, 0.0001);
    expect(small.zoom).toBe(minZoom);
    expect(viewToCanvas(small, at).x).toBeCloseTo(viewToCanvas(restingViewport, at).x, 9);
  });

  it('pans by screen pixels', () => {
    const view = panBy({ zoom: 2, x: 0, y: 0 }, 30, -20);
    expect(view).toEqual({ zoom: 2, x: 30, y: -20 });
    expect(viewToCanvas(view, { x: 30, y: -20 })).toEqual({ x: 0, y: 0 });
  });

  it('a drag seen through a zoomed, panned view moves the component by canvas pixels, geometry otherwise untouched', () => {
    const te = new TestEditor();
    te.load(['Cdefault', { id: 'a', left: 100, top: 100, width: 50, height: 50 }]);
    const view = zoomAround(panBy(restingViewport, -40, 25), { x: 300, y: 200 }, 3);
    // The screen origin of the transformed canvas is where canvas (0, 0) lands.
    const origin = canvasToView(view, { x: 0, y: 0 });
    const screenOf = (x: number, y: number) => canvasToView(view, { x, y });
    const toCanvas = (s: { x: number; y: number }) => screenToCanvas(s, origin, view.zoom);
    const from = screenOf(120, 120);
    const to = { x: from.x + 90, y: from.y - 30 }; // 90, -30 screen pixels = 30, -10 canvas pixels at 3×
    const a = toCanvas(from);
    const b = toCanvas(to);
    te.drag([a.x, a.y], [b.x, b.y], { alt: true });
    expect(te.get('a').left).toBeCloseTo(130, 9);
    expect(te.get('a').top).toBeCloseTo(90, 9);
    expect(te.get('a').width).toBe(50);
    expect(te.editor.canvas.scale).toBe(100);
  });

  it('fits the whole canvas into the area between the panels, centred, with a margin', () => {
    // The editor at 1366 × 768: 886 × 640 px between the 180 px list and the 300 px panel.
    const area = { width: 886, height: 640 };
    const canvas = { width: 1366, height: 768 };
    const view = fitViewport(canvas, area);
    expect(view.zoom).toBeCloseTo((886 - 2 * fitMargin) / 1366, 10);
    const topLeft = canvasToView(view, { x: 0, y: 0 });
    const bottomRight = canvasToView(view, { x: canvas.width, y: canvas.height });
    // Width decides: the margins left and right are the margin; top and bottom equal and larger.
    expect(topLeft.x).toBeCloseTo(fitMargin, 10);
    expect(area.width - bottomRight.x).toBeCloseTo(fitMargin, 10);
    expect(topLeft.y).toBeCloseTo(area.height - bottomRight.y, 10);
    expect(topLeft.y).toBeGreaterThanOrEqual(fitMargin);
  });

  it('lets the height decide in a wide area, and zooms above 100 % in a large one', () => {
    const tall = fitViewport({ width: 1000, height: 1000 }, { width: 1600, height: 532 });
    expect(tall.zoom).toBeCloseTo(0.5, 10);
    expect(tall).toEqual({ zoom: 0.5, x: 550, y: 16 });
    const large = fitViewport({ width: 400, height: 300 }, { width: 1632, height: 1232 });
    expect(large.zoom).toBeCloseTo(4, 10);
    // Never beyond the zoom range, and no room (a view not laid out yet) is the resting view.
    expect(fitViewport({ width: 10, height: 10 }, { width: 5000, height: 5000 }).zoom).toBe(maxZoom);
    expect(fitViewport({ width: 100_000, height: 100 }, { width: 500, height: 500 }).zoom).toBe(minZoom);
    expect(fitViewport({ width: 1366, height: 768 }, { width: 0, height: 0 })).toEqual(restingViewport);
    expect(fitViewport({ width: 0, height: 768 }, { width: 800, height: 600 })).toEqual(restingViewport);
  });
});
