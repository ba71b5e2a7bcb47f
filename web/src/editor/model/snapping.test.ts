// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Rect } from './geometry.ts';
import { gridLines, gridSpacing, snapDistance, snapRect } from './snapping.ts';
import { TestEditor } from './test-editor.ts';

const other = { left: 200, top: 200, width: 100, height: 50 };

describe('snapRect', () => {
  it('is 3 px as 001 §9 says', () => {
    expect(snapDistance).toBe(3);
  });

  it.each([
    ['left edge to left edge, 3 px away', { left: 203, top: 400, width: 40, height: 40 }, -3, 200],
    ['left edge to right edge', { left: 298, top: 400, width: 40, height: 40 }, 2, 300],
    ['right edge to left edge', { left: 158.5, top: 400, width: 40, height: 40 }, 1.5, 200],
    ['centre to centre', { left: 231, top: 400, width: 40, height: 40 }, -1, 250],
  ])('x: %s', (_name, moving, dx, guideAt) => {
    const result = snapRect(moving, [other]);
    expect(result.dx).toBeCloseTo(dx);
    expect(result.dy).toBe(0);
    expect(result.guides).toEqual([{ axis: 'x', position: guideAt, from: 200, to: 440 }]);
  });

  it('does not snap from 4 px away', () => {
    expect(snapRect({ left: 204, top: 400, width: 40, height: 40 }, [other])).toEqual({ dx: 0, dy: 0, guides: [] });
  });

  it('snaps both axes to the nearest stop and answers a line for each', () => {
    const result = snapRect({ left: 501, top: 248, width: 40, height: 40 }, [
      other,
      { left: 500, top: 0, width: 10, height: 10 },
    ]);
    expect(result.dx).toBe(-1);
    expect(result.dy).toBe(2);
    expect(result.guides).toEqual([
      { axis: 'y', position: 250, from: 200, to: 540 },
      { axis: 'x', position: 500, from: 0, to: 290 },
    ]);
  });

  it('skipping the boxes out of reach answers what a check of every stop of every box answers', () => {
    // The plain definition: every stop of every box against every stop of the moved one.
    const stops = (r: Rect, axis: 'x' | 'y') =>
      axis === 'x' ? [r.left, r.left + r.width / 2, r.left + r.width] : [r.top, r.top + r.height / 2, r.top + r.height];
    const plain = (moving: Rect, others: Rect[], axis: 'x' | 'y') => {
      let best = Number.POSITIVE_INFINITY;
      for (const o of others.flatMap((r) => stops(r, axis)))
        for (const m of stops(moving, axis)) if (Math.abs(o - m) <= 3 && Math.abs(o - m) < Math.abs(best)) best = o - m;
      return Number.isFinite(best) ? best : 0;
    };
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return Math.round((seed / 2147483647) * n * 2) / 2;
    };
    for (let round = 0; round < 100; round++) {
      const others = Array.from({ length: 30 }, () => ({
        left: random(600),
        top: random(600),
        width: random(80),
        height: random(80),
      }));
      const moving = { left: random(600), top: random(600), width: random(120), height: random(120) };
      const result = snapRect(moving, others);
      expect([result.dx, result.dy]).toEqual([plain(moving, others, 'x'), plain(moving, others, 'y')]);
      const moved = { ...moving, left: moving.left + result.dx, top: moving.top + result.dy };
      for (const guide of result.guides)
        expect(stops(moved, guide.axis).some((m) => Math.abs(m - guide.position) < 1e-6)).toBe(true);
      // Every box lined up with the moved one has its guide.
      for (const other of others)
        for (const axis of ['x', 'y'] as const)
          for (const o of stops(other, axis))
            if (stops(moved, axis).some((m) => Math.abs(m - o) < 1e-6))
              expect(result.guides.some((g) => g.axis === axis && g.position === o)).toBe(true);
    }
  });

  it('the grid: 7.24 px small and 36.18 px large, five small to a large', () => {
    expect(gridSpacing.small).toBeCloseTo(7.24, 2);
    expect(gridSpacing.large).toBeCloseTo(36.18, 2);
    expect(gridSpacing.large / gridSpacing.small).toBe(5);
    const lines = gridLines(1366, gridSpacing.large);
    expect(lines).toHaveLength(38);
    expect(lines.at(-1)).toBeCloseTo(1338.72, 2);
  });
});

describe('snapping while dragging', () => {
  const scene = () => {
    const te = new TestEditor();
    te.load(
      ['Cdefault', { id: 'a', left: 100, top: 100, width: 100, height: 100 }],
      ['Cdefault', { id: 'b', left: 400, top: 400, width: 100, height: 100 }],
    );
    return te;
  };

  it('pulls the dragged component onto a neighbour edge within 3 px and shows the guide during the drag', () => {
    const te = scene();
    te.pointerDown(450, 450).pointerMove(150 + 2, 452);
    // b's left would be 102: snapped to a's left 100; being as wide, its centre and right line up too.
    expect(te.editor.previewOf('b')).toMatchObject({ left: 100, top: 402 });
    expect(te.get('b').left).toBe(400);
    expect(te.editor.guides).toEqual([100, 150, 200].map((position) => ({ axis: 'x', position, from: 100, to: 502 })));
    te.pointerUp();
    expect(te.get('b').left).toBe(100);
    expect(te.editor.guides).toEqual([]);
  });

  it('snaps to the canvas edges too', () => {
    const te = scene();
    te.drag([450, 450], [1314, 450]);
    expect(te.get('b').left).toBe(1266);
  });

  it('Alt turns snapping off', () => {
    const te = scene();
    te.drag([450, 450], [152, 452], { alt: true });
    expect(te.get('b')).toMatchObject({ left: 102, top: 402 });
  });
});
