import { describe, expect, it } from 'vitest';
import { DragLayer } from './drag-layer.ts';

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

describe('DragLayer', () => {
  it('moves the dragged elements into one translated layer at their top layer, and puts them back in order', () => {
    const { scene, box, ids, component, frame } = sceneOf();
    const before = ids(scene);
    // Given out of order and interleaved with components that stay, as a selection may be.
    const dragged = [7, 2, 3, 9, 0].map(component);
    const layer = new DragLayer(scene, dragged, { box, moving: [7, 2, 3, 9, 0].map(frame), all: false });
    layer.move(12, -5);
    const [componentLayer] = scene.querySelectorAll<HTMLElement>(':scope > .sm-drag-layer');
    expect(ids(componentLayer!)).toEqual(['c0', 'c2', 'c3', 'c7', 'c9']);
    expect(componentLayer!.style.zIndex).toBe('10');
    expect(componentLayer!.style.transform).toBe('translate(12px, -5px)');
    const frameLayer = box.querySelector<HTMLElement>(':scope > .sm-drag-layer')!;
    expect(frameLayer.children).toHaveLength(5);
    expect(frameLayer.style.transform).toBe('translate(12px, -5px)');
    expect(ids(scene).filter((id) => id !== 'box')).toEqual(['c1', 'c4', 'c5', 'c6', 'c8']);

    layer.drop();
    expect(ids(scene)).toEqual(before);
    expect([...box.children].map((f) => (f as HTMLElement).dataset.frameId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c${i}`),
    );
    expect(scene.querySelector('.sm-drag-layer')).toBeNull();
    // The same nodes, not copies: React still owns what it finds.
    expect(component(7)).toBe(dragged[0]);
  });

  it('translates the frames box itself when every frame moves', () => {
    const { scene, box, ids, component, frame } = sceneOf();
    const all = Array.from({ length: 10 }, (_, i) => i);
    const layer = new DragLayer(scene, all.map(component), { box, moving: all.map(frame), all: true });
    layer.move(3, 4);
    expect(box.style.transform).toBe('translate(3px, 4px)');
    expect(box.querySelector('.sm-drag-layer')).toBeNull();
    layer.drop();
    expect(box.style.transform).toBe('');
    expect(box.classList.contains('sm-dragging')).toBe(false);
    expect(ids(scene)).toEqual([...all.map((i) => `c${i}`), 'box']);
  });
});
