import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ComponentRecord, createComponent } from '../../../editor/model/records.ts';
import { DragLayer, LiftAhead, liftOrder, SceneShift } from './drag-layer.ts';

/** A scene of components c0…c9 and a frames box holding frames f0…f9, as React left them. */
const sceneOf = () => {
  const scene = document.createElement('div');
  const box = document.createElement('div');
  for (let i = 0; i < 10; i++) {
    const c = document.createElement('div');
    c.dataset.id = `c${i}`;
    c.style.zIndex = String(i + 1);
    scene.append(c);
    const f = document.createElement('div');
    f.dataset.frameId = `c${i}`;
    box.append(f);
  }
  scene.append(box);
  const ids = (parent: Element) => [...parent.children].map((el) => (el as HTMLElement).dataset.id ?? 'box');
  const component = (i: number) => scene.querySelector<HTMLElement>(`[data-id="c${i}"]`)!;
  const frame = (i: number) => box.querySelector<HTMLElement>(`[data-frame-id="c${i}"]`)!;
  return { scene, box, ids, component, frame };
};

/** Records c0…c9 side by side 10 px apart (no two overlap), stacked in that order. */
const recordsOf = (): ComponentRecord[] =>
  Array.from({ length: 10 }, (_, i) =>
    createComponent(`c${i}`, 'Cdefault', { left: i * 30, top: 0, width: 20, height: 20, zIndex: i + 1 }),
  );

describe('DragLayer', () => {
  it('lifts the dragged elements into one translated layer, in slices from the top, and puts them back in order', () => {
    const { scene, box, ids, component, frame } = sceneOf();
    const before = ids(scene);
    const layer = new DragLayer(scene, 10);
    // Topmost first, each slice bottom first, as LiftAhead lifts a selection interleaved with components that stay.
    layer.lift([7, 9].map(component));
    layer.lift([0, 2, 3].map(component));
    expect(layer.size).toBe(5);
    layer.begin({ box, moving: [7, 2, 3, 9, 0].map(frame), all: false });
    layer.move(12, -5);
    const [componentLayer] = scene.querySelectorAll<HTMLElement>(':scope > .sm-drag-layer');
    expect(ids(componentLayer!)).toEqual(['c0', 'c2', 'c3', 'c7', 'c9']);
    expect(componentLayer!.style.zIndex).toBe('10');
    expect(componentLayer!.style.transform).toBe('translate(12px, -5px)');
    const frameLayer = box.querySelector<HTMLElement>(':scope > .sm-drag-layer')!;
    expect(frameLayer.children).toHaveLength(5);
    expect(frameLayer.style.transform).toBe('translate(12px, -5px)');
    expect(ids(scene).filter((id) => id !== 'box')).toEqual(['c1', 'c4', 'c5', 'c6', 'c8']);

    // The end of a drag: the frames go back, the components stay lifted and unmoved.
    layer.end();
    expect(componentLayer!.style.transform).toBe('');
    expect([...box.children].map((f) => (f as HTMLElement).dataset.frameId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c${i}`),
    );
    expect(componentLayer!.children).toHaveLength(5);

    // Lowering the last slice leaves the topmost lifted.
    layer.lower(3);
    expect(ids(componentLayer!)).toEqual(['c7', 'c9']);
    layer.drop();
    expect(ids(scene)).toEqual(before);
    expect(scene.querySelector('.sm-drag-layer')).toBeNull();
    // The same nodes, not copies: React still owns what it finds.
    expect(component(7).parentElement).toBe(scene);
  });

  it('translates the frames box itself when every frame moves', () => {
    const { scene, box, ids, component, frame } = sceneOf();
    const all = Array.from({ length: 10 }, (_, i) => i);
    const layer = new DragLayer(scene, 10);
    layer.lift(all.map(component));
    layer.begin({ box, moving: all.map(frame), all: true });
    layer.move(3, 4);
    expect(box.style.transform).toBe('translate(3px, 4px)');
    expect(box.querySelector('.sm-drag-layer')).toBeNull();
    layer.drop();
    expect(box.style.transform).toBe('');
    expect(box.classList.contains('sm-dragging')).toBe(false);
    expect(ids(scene)).toEqual([...all.map((i) => `c${i}`), 'box']);
  });
});

describe('liftOrder', () => {
  it('orders the dragged from the top and finds them safe to lift when nothing between overlaps them', () => {
    const plan = liftOrder(recordsOf(), new Set(['c2', 'c7', 'c4']));
    expect(plan.ids).toEqual(['c7', 'c4', 'c2']);
    expect(plan.top).toBe(8001);
    expect(plan.safe).toBe(true);
  });

  it('is not safe when a component that stays lies above a dragged one, beneath the top, and overlaps it', () => {
    const records = recordsOf();
    // c3 over c2 (within the 4 px of bleed), c7 dragged above both.
    records[3] = { ...records[3]!, left: 45 };
    expect(liftOrder(records, new Set(['c2', 'c7'])).safe).toBe(false);
    // Above the top dragged one, or beneath the lowest, it stays where it draws.
    expect(liftOrder(records, new Set(['c2'])).safe).toBe(true);
    expect(liftOrder(records, new Set(['c3', 'c7'])).safe).toBe(true);
    // A group member draws at its group's layer.
    const grouped = [...recordsOf(), createComponent('g', 'Group', { zIndex: 5, left: 0, width: 300, height: 20 })].map(
      (r) => (r.id === 'c5' ? { ...r, groupId: 'g', zIndex: 1, left: 60 } : r),
    );
    expect(liftOrder(grouped, new Set(['c2', 'c7'])).safe).toBe(false);
  });
});

/** Frames of a drag in which some selected component is locked (so the whole scene does not move). */
const framesOf = () => ({ box: document.createElement('div'), moving: [], all: false });

describe('LiftAhead', () => {
  afterEach(() => vi.useRealTimers());

  const ahead = () => {
    const { scene, ids, component } = sceneOf();
    return { scene, ids, component, lift: new LiftAhead(() => scene) };
  };

  it('lifts a selection ahead in frame slices, then gives it whole to the drag', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame', 'requestIdleCallback'] });
    const { scene, component, lift } = ahead();
    const records = recordsOf();
    // All but the top one (which stays above them, so the whole scene cannot move instead).
    const dragged = new Set(records.map((r) => r.id).filter((id) => id !== 'c9'));
    lift.prepare(records, dragged);
    expect(component(8).parentElement).toBe(scene);
    vi.advanceTimersByTime(1000);
    const layer = scene.querySelector(':scope > .sm-drag-layer')!;
    expect(layer.children).toHaveLength(9);
    expect(component(9).parentElement).toBe(scene);
    const taken = lift.take(records, dragged, framesOf());
    expect((taken as DragLayer).size).toBe(9);
    // A new selection lowers them again.
    lift.prepare(records, new Set());
    vi.advanceTimersByTime(1000);
    expect(scene.querySelector('.sm-drag-layer')).toBeNull();
  });

  it('does not lift ahead a set whose lifting would change the picture; the drag lifts it', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame', 'requestIdleCallback'] });
    const { scene, lift } = ahead();
    const records = recordsOf();
    records[3] = { ...records[3]!, left: 45 };
    lift.prepare(records, new Set(['c2', 'c7']));
    vi.advanceTimersByTime(1000);
    expect(scene.querySelector('.sm-drag-layer')).toBeNull();
    expect((lift.take(records, new Set(['c2', 'c7']), framesOf()) as DragLayer).size).toBe(2);
  });

  it('puts everything back before React draws a change that moves the scene’s children or the stacking', () => {
    const { scene, ids, lift } = ahead();
    const before = ids(scene);
    const records = recordsOf();
    const dragged = new Set(['c1', 'c3']);
    lift.take(records, dragged, framesOf()).end();
    const layer = () => scene.querySelector('.sm-drag-layer');
    // A release that moved them clear of the others: they stay lifted for the next drag.
    const moved = records.map((r) => (dragged.has(r.id) ? { ...r, top: 40 } : r));
    lift.storeChanged(moved);
    expect(layer()?.children).toHaveLength(2);
    // Dropped onto c2, which lies between them: lifted, c1 would draw above it.
    lift.storeChanged(moved.map((r) => (r.id === 'c1' ? { ...r, left: 60, top: 0 } : r)));
    expect(layer()).toBeNull();
    expect(ids(scene)).toEqual(before);
    // A component removed: React takes nodes out of the scene, so they all go back first.
    lift.take(moved, dragged, framesOf()).end();
    lift.storeChanged(moved.filter((r) => r.id !== 'c8'));
    expect(layer()).toBeNull();
    expect(ids(scene)).toEqual(before);
  });
});

describe('SceneShift', () => {
  it('moves the whole scene when all but what lies beneath them move, the rest translated back', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame', 'requestIdleCallback'] });
    const { scene, ids } = sceneOf();
    const canvas = document.createElement('div');
    canvas.append(scene);
    const before = ids(scene);
    const records = recordsOf();
    const lift = new LiftAhead(() => scene);
    const dragged = new Set(records.slice(1).map((r) => r.id));
    // What stays is lifted ahead for it, not the 9 that move.
    lift.prepare(records, dragged);
    vi.advanceTimersByTime(1000);
    expect(ids(scene.querySelector(':scope > .sm-drag-layer')!)).toEqual(['c0']);
    const picture = lift.take(records, dragged, { box: document.createElement('div'), moving: [], all: true });
    expect(picture).toBeInstanceOf(SceneShift);
    picture.move(5, -2);
    expect(scene.style.transform).toBe('translate(5px, -2px)');
    const back = scene.querySelector<HTMLElement>(':scope > .sm-drag-layer')!;
    expect(ids(back)).toEqual(['c0']);
    expect(back.style.transform).toBe('translate(-5px, 2px)');
    expect(canvas.classList.contains('sm-shifting')).toBe(true);
    picture.end();
    expect(scene.style.transform).toBe('');
    expect(back.style.transform).toBe('');
    expect(canvas.classList.contains('sm-shifting')).toBe(false);
    lift.drop();
    expect(ids(scene)).toEqual(before);
    // A component that stays above a dragged one: the layer instead.
    const above = new Set(records.filter((r) => r.id !== 'c5').map((r) => r.id));
    const layer = lift.take(records, above, { box: document.createElement('div'), moving: [], all: true });
    expect(layer).toBeInstanceOf(DragLayer);
  });
});
