// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { TestEditor } from './test-editor.ts';

const scene = () => {
  const te = new TestEditor();
  te.load(
    ['Picture', { id: 'bg', width: 1366, height: 768, zIndex: 0 }],
    ['Cdefault', { id: 'a', left: 100, top: 100, width: 100, height: 100 }],
    ['Cdefault', { id: 'b', left: 300, top: 100, width: 100, height: 100 }],
    ['VText', { id: 't', left: 600, top: 500, width: 120, height: 30 }],
  );
  return te;
};

describe('selection by pointer', () => {
  it('a click selects the top-most component, Shift adds or removes, a click on the background clears', () => {
    const te = scene();
    te.click(150, 150);
    expect(te.editor.selection).toEqual(['a']);
    te.click(350, 150, { shift: true });
    expect(te.editor.selection).toEqual(['a', 'b']);
    te.click(150, 150, { shift: true });
    expect(te.editor.selection).toEqual(['b']);
    te.click(900, 700);
    expect(te.editor.selection).toEqual([]);
  });

  it('hits a turned component on its turned shape only', () => {
    const te = scene();
    te.editor.updateComponent('t', { rotate: 90 });
    // Turned 90° around (660, 515): it now spans x 645–675, y 455–575.
    te.click(605, 515);
    expect(te.editor.selection).toEqual([]);
    te.click(660, 570);
    expect(te.editor.selection).toEqual(['t']);
  });

  it('a drag on the background selects the components wholly inside the rectangle', () => {
    const te = scene();
    te.pointerDown(50, 50).pointerMove(450, 250);
    expect(te.editor.gesture).toMatchObject({ type: 'brush', ids: ['a', 'b'] });
    te.pointerUp();
    expect(te.editor.selection).toEqual(['a', 'b']);
    te.drag([50, 50], [250, 250]);
    expect(te.editor.selection).toEqual(['a']);
    te.drag([550, 450], [800, 600], { shift: true });
    expect(te.editor.selection).toEqual(['a', 't']);
  });
});

describe('drag, resize, rotate', () => {
  it('during a drag the store does not change (the view draws the preview); release is one undo step', () => {
    const te = scene();
    const before = te.snapshot();
    let storeChanges = 0;
    te.editor.store.listen(() => storeChanges++);
    te.pointerDown(150, 150);
    for (let x = 151; x <= 190; x++) te.pointerMove(x, 150 + (x - 150) * 2);
    expect(te.snapshot()).toEqual(before);
    expect(storeChanges).toBe(0);
    expect(te.editor.previewOf('a')).toMatchObject({ left: 140, top: 180 });
    te.pointerUp();
    expect(storeChanges).toBe(1);
    expect(te.get('a')).toMatchObject({ left: 140, top: 180 });
    expect(te.editor.history.undoNames).toEqual(['move']);
  });

  it('drags the whole selection together', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.drag([350, 150], [360, 170], { alt: true });
    expect([te.get('a').left, te.get('a').top, te.get('b').left, te.get('b').top]).toEqual([110, 120, 310, 120]);
  });

  it('a click without a move changes nothing; Escape drops a drag', () => {
    const te = scene();
    te.click(150, 150);
    te.pointerDown(150, 150).pointerMove(300, 300);
    te.press('Escape');
    te.pointerUp(300, 300);
    expect(te.get('a')).toMatchObject({ left: 100, top: 100 });
    expect(te.editor.history.canUndo).toBe(false);
  });

  it('arrow keys nudge 1 px, with Shift 10 px', () => {
    const te = scene();
    te.editor.select(['a']);
    te.press('ArrowRight');
    te.press('ArrowDown');
    te.press('shift+ArrowLeft');
    te.press('shift+ArrowUp');
    expect(te.get('a')).toMatchObject({ left: 91, top: 91 });
    expect(te.editor.history.undoNames).toHaveLength(4);
  });

  it.each([
    ['se', 20, 10, { left: 100, top: 100, width: 120, height: 110 }],
    ['nw', 20, 10, { left: 120, top: 110, width: 80, height: 90 }],
    ['e', 20, 10, { left: 100, top: 100, width: 120, height: 100 }],
    ['n', 20, -30, { left: 100, top: 70, width: 100, height: 130 }],
  ] as const)('the %s handle resizes and holds the opposite side', (handle, dx, dy, rect) => {
    const te = scene();
    te.editor.select(['a']);
    te.dragHandle('a', handle, dx, dy);
    expect(te.get('a')).toMatchObject(rect);
  });

  it('resizing a turned component keeps the opposite corner where it was on the canvas', () => {
    const te = scene();
    te.editor.updateComponent('a', { rotate: 90 });
    const anchor = te.editor.handlePoint('a', 'nw');
    const corner = te.editor.handlePoint('a', 'se');
    // Turned 90°, the component's own x axis points down the canvas.
    te.dragHandle('a', 'se', 0, 40);
    expect(te.get('a').width).toBeCloseTo(140);
    expect(te.get('a').height).toBeCloseTo(100);
    expect(te.editor.handlePoint('a', 'nw').x).toBeCloseTo(anchor.x);
    expect(te.editor.handlePoint('a', 'nw').y).toBeCloseTo(anchor.y);
    expect(te.editor.handlePoint('a', 'se').y).toBeCloseTo(corner.y + 40);
  });

  it('never resizes below 1 px', () => {
    const te = scene();
    te.dragHandle('a', 'se', -500, -500);
    expect(te.get('a')).toMatchObject({ left: 100, top: 100, width: 1, height: 1 });
  });

  it('the rotation handle turns around the centre; Shift turns in 15° steps', () => {
    const te = scene();
    // Centre (150, 150): a pointer straight right of it is 90°.
    te.dragRotate('a', 300, 150);
    expect(te.get('a').rotate).toBeCloseTo(90);
    te.dragRotate('a', 150, 300);
    expect(te.get('a').rotate).toBeCloseTo(180);
    te.dragRotate('b', 350 + 100, 150 - 90, { shift: true });
    expect(te.get('b').rotate).toBe(45);
    expect(te.editor.history.undoNames).toEqual(['rotate', 'rotate', 'rotate']);
  });
});
