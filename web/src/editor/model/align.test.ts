// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ComponentRecord } from './records.ts';
import { TestEditor } from './test-editor.ts';

// a at 10..50, b at 100..120 (y 40..100), c at 200..260 (y 5..35); the background beneath.
const scene = () => {
  const te = new TestEditor();
  te.load(
    ['Picture', { id: 'bg', zIndex: 0, left: 0, top: 0, width: 1000, height: 800 }],
    ['Cdefault', { id: 'a', left: 10, top: 20, width: 40, height: 40 }],
    ['Cdefault', { id: 'b', left: 100, top: 40, width: 20, height: 60 }],
    ['Cdefault', { id: 'c', left: 200, top: 5, width: 60, height: 30 }],
  );
  return te;
};

const box = (te: TestEditor, id: string) => {
  const r = te.get(id);
  return [r.left, r.top, r.width, r.height];
};

describe('align', () => {
  it('lines up each edge and centre of the selection bounds, one undo step each', () => {
    const edges = {
      alignLeft: (r: ComponentRecord) => r.left,
      alignRight: (r: ComponentRecord) => r.left + r.width,
      alignCentre: (r: ComponentRecord) => r.left + r.width / 2,
      alignTop: (r: ComponentRecord) => r.top,
      alignBottom: (r: ComponentRecord) => r.top + r.height,
      alignMiddle: (r: ComponentRecord) => r.top + r.height / 2,
    } as const;
    const want = { alignLeft: 10, alignRight: 260, alignCentre: 135, alignTop: 5, alignBottom: 100, alignMiddle: 52.5 };
    for (const [id, measure] of Object.entries(edges) as Array<[keyof typeof edges, (r: ComponentRecord) => number]>) {
      const te = scene();
      const before = te.snapshot();
      te.editor.select(['a', 'b', 'c']);
      expect(te.command(id)).toBe(true);
      expect(['a', 'b', 'c'].map((x) => measure(te.get(x)))).toEqual([want[id], want[id], want[id]]);
      // Sizes never change; one undo restores exactly.
      expect(['a', 'b', 'c'].map((x) => [te.get(x).width, te.get(x).height])).toEqual([
        [40, 40],
        [20, 60],
        [60, 30],
      ]);
      te.command('undo');
      expect(te.snapshot()).toEqual(before);
      expect(te.editor.history.canUndo).toBe(false);
    }
  });

  it('needs two components; the background picture never counts nor moves', () => {
    const te = scene();
    te.editor.select(['a']);
    expect(te.command('alignLeft')).toBe(false);
    te.editor.select(['a', 'bg']);
    expect(te.command('alignLeft')).toBe(false);
    te.editor.select(['a', 'b', 'bg']);
    expect(te.command('alignBottom')).toBe(true);
    expect(box(te, 'bg')).toEqual([0, 0, 1000, 800]);
    expect(te.get('a').top + 40).toBe(100);
  });

  it('leaves locked components where they are, as anchors, and moves the rest', () => {
    const te = scene();
    te.editor.select(['c']);
    te.command('lock');
    te.editor.select(['a', 'b', 'c']);
    expect(te.command('alignRight')).toBe(true);
    expect(box(te, 'c')).toEqual([200, 5, 60, 30]);
    expect(te.get('a').left + 40).toBe(260);
    expect(te.get('b').left + 20).toBe(260);
  });

  it('is refused when every selected component is locked', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.command('lock');
    const before = te.snapshot();
    expect(te.command('alignLeft')).toBe(false);
    expect(te.snapshot()).toEqual(before);
  });

  it('moves a group with its members', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.command('group');
    const group = te.editor.selection[0]!;
    te.editor.select([group, 'c']);
    te.command('alignTop');
    expect(te.get(group).top).toBe(5);
    expect(te.get('a').top).toBe(5);
    expect(te.get('b').top).toBe(25);
    te.command('undo');
    expect(te.get('a').top).toBe(20);
    expect(te.get('b').top).toBe(40);
  });

  it('aligns a turned component by its turned bounds', () => {
    const te = scene();
    te.editor.updateComponent('c', { rotate: 90 });
    // Turned 90°: 30 wide, 60 high around its centre (230, 20) → bounds left 215.
    te.editor.select(['a', 'c']);
    te.command('alignLeft');
    expect(te.get('c').left).toBe(10 - 15 + 0);
  });
});

describe('distribute', () => {
  it('spreads three or more with equal gaps, the outer ones staying, in one step', () => {
    const te = scene();
    te.editor.select(['c', 'a', 'b']);
    expect(te.command('distributeHorizontally')).toBe(true);
    // Span 10..260 = 250, sizes 40+20+60 = 120: gaps of 65.
    expect(te.get('a').left).toBe(10);
    expect(te.get('b').left).toBe(115);
    expect(te.get('c').left).toBe(200);
    expect(te.get('b').top).toBe(40);
    te.command('undo');
    expect(te.get('b').left).toBe(100);
    expect(te.editor.history.canUndo).toBe(false);
  });

  it('vertically by top edges', () => {
    const te = scene();
    te.editor.select(['a', 'b', 'c']);
    te.command('distributeVertically');
    // Order by top: c (5..35), a (20..60), b (40..100). Span 95, sizes 130: gaps of -17.5.
    expect(te.get('c').top).toBe(5);
    expect(te.get('a').top).toBe(17.5);
    expect(te.get('b').top).toBe(40);
    expect(te.get('a').left).toBe(10);
  });

  it('needs three; a locked one in the row keeps its place and the others spread around it', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    expect(te.command('distributeHorizontally')).toBe(false);
    te.editor.addComponent('Cdefault', { left: 300, top: 0, width: 10, height: 10 });
    const d = te.editor.selection[0]!;
    te.editor.select(['c']);
    te.command('lock');
    te.editor.select(['a', 'b', 'c', d]);
    expect(te.command('distributeHorizontally')).toBe(true);
    // Span 10..310 = 300, sizes 130: gaps of 170/3; c is locked and stays at 200.
    expect(te.get('a').left).toBe(10);
    expect(te.get('b').left).toBeCloseTo(10 + 40 + 170 / 3);
    expect(te.get('c').left).toBe(200);
    expect(te.get(d).left).toBe(300);
  });
});
