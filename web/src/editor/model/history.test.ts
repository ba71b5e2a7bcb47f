// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { History } from './history.ts';
import { createComponent } from './records.ts';
import { emptyDiff, invertDiff, Store, squashDiffs } from './store.ts';

/** A bare store of three records and its history (tldraw's HistoryManager.test shape). */
const setup = () => {
  const store = new Store();
  const history = new History(store);
  history.ignore(() => store.put(['a', 'b', 'c'].map((id, i) => createComponent(id, 'Cdefault', { left: i * 100 }))));
  const move = (id: string, left: number) => store.put([{ ...store.get(id)!, left }]);
  return { store, history, move };
};

describe('history of diffs with marks', () => {
  it('undoes everything since the last mark as one step, then the step before', () => {
    const { store, history, move } = setup();
    const start = store.snapshot();
    history.mark('first');
    move('a', 10);
    const afterFirst = store.snapshot();
    history.mark('second');
    move('b', 20);
    move('b', 30);
    store.remove(['c']);
    expect(history.undoNames).toEqual(['first', 'second']);
    history.undo();
    expect(store.snapshot()).toEqual(afterFirst);
    history.undo();
    expect(store.snapshot()).toEqual(start);
    expect(history.undo()).toBe(false);
  });

  it('redo after undo restores exactly, records and canvas, and never empties the canvas', () => {
    const { store, history, move } = setup();
    history.mark('edit');
    move('a', 11);
    store.remove(['b']);
    store.put([createComponent('d', 'VText', { top: 5 })]);
    store.setCanvas({ width: 1920, height: 1080, scale: 100 });
    const after = store.snapshot();
    history.undo();
    expect(store.size).toBe(3);
    history.redo();
    expect(store.snapshot()).toEqual(after);
    expect(store.size).toBe(3);
    history.undo();
    history.redo();
    expect(store.snapshot()).toEqual(after);
  });

  it('a new change after undo drops the redo branch; a mark alone does not', () => {
    const { store, history, move } = setup();
    history.mark('one');
    move('a', 1);
    history.undo();
    history.mark('nothing yet');
    expect(history.canRedo).toBe(true);
    move('b', 2);
    expect(history.canRedo).toBe(false);
    expect(history.redo()).toBe(false);
    expect(store.get('a')!.left).toBe(0);
  });

  it('a step that changed nothing is not an undo step', () => {
    const { store, history, move } = setup();
    history.mark('real');
    move('a', 5);
    history.mark('empty');
    history.mark('empty too');
    expect(history.undoNames).toEqual(['real']);
    history.undo();
    expect(store.get('a')!.left).toBe(0);
  });

  it('changes after undo without a new mark make a step of their own', () => {
    const { store, history, move } = setup();
    history.mark('one');
    move('a', 5);
    history.mark('two');
    move('b', 6);
    history.undo();
    move('c', 7);
    history.undo();
    expect([store.get('a')!.left, store.get('c')!.left]).toEqual([5, 200]);
  });

  it('bailToMark reverts a step and keeps no redo', () => {
    const { store, history, move } = setup();
    const start = store.snapshot();
    const id = history.mark('gesture');
    move('a', 50);
    move('b', 60);
    history.bailToMark(id);
    expect(store.snapshot()).toEqual(start);
    expect(history.canRedo).toBe(false);
    expect(history.canUndo).toBe(false);
  });

  it('ignored changes (a load) are not undone', () => {
    const { store, history } = setup();
    history.ignore(() => store.remove(['a']));
    expect(history.canUndo).toBe(false);
    history.undo();
    expect(store.has('a')).toBe(false);
  });
});

describe('diffs', () => {
  const r = (id: string, left: number) => createComponent(id, 'Dot', { left });

  it('squash: added then updated is added, added then removed is nothing, removed then added is updated', () => {
    const a = { ...emptyDiff(), added: { x: r('x', 1) }, removed: { y: r('y', 2) } };
    const b = {
      ...emptyDiff(),
      updated: { x: [r('x', 1), r('x', 3)] as [ReturnType<typeof r>, ReturnType<typeof r>] },
      added: { y: r('y', 4) },
    };
    const both = squashDiffs(a, b);
    expect(both.added).toEqual({ x: r('x', 3) });
    expect(both.updated).toEqual({ y: [r('y', 2), r('y', 4)] });
    expect(both.removed).toEqual({});
    const gone = squashDiffs(both, { ...emptyDiff(), removed: { x: r('x', 3) } });
    expect(gone.added).toEqual({});
  });

  it('inverting twice gives the diff back', () => {
    const d = {
      added: { x: r('x', 1) },
      removed: { y: r('y', 2) },
      updated: { z: [r('z', 1), r('z', 2)] as [ReturnType<typeof r>, ReturnType<typeof r>] },
      canvas: null,
    };
    expect(invertDiff(invertDiff(d))).toEqual(d);
    expect(invertDiff(d).added).toEqual({ y: r('y', 2) });
  });
});
