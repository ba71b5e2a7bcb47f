// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { TestEditor } from './test-editor.ts';

const scene = () => {
  const te = new TestEditor();
  te.load(
    ['Picture', { id: 'bg', zIndex: 0 }],
    ['Cdefault', { id: 'a', zIndex: 1 }],
    ['Cdefault', { id: 'b', zIndex: 2 }],
    ['Cdefault', { id: 'c', zIndex: 3 }],
  );
  return te;
};

const order = (te: TestEditor) =>
  te.editor
    .topLevel()
    .filter((r) => r.kind !== 'Picture')
    .map((r) => r.id);

describe('raise, lower, top, bottom', () => {
  it('moves one place or to either end', () => {
    const te = scene();
    te.editor.select(['a']);
    te.command('raise');
    expect(order(te)).toEqual(['b', 'a', 'c']);
    te.command('bringToTop');
    expect(order(te)).toEqual(['b', 'c', 'a']);
    te.command('lower');
    expect(order(te)).toEqual(['b', 'a', 'c']);
    te.command('sendToBottom');
    expect(order(te)).toEqual(['a', 'b', 'c']);
  });

  it('says 已经到顶了 at the top and 已经到底了 at the bottom, changing nothing', () => {
    const te = scene();
    te.editor.select(['c']);
    te.command('raise');
    te.command('bringToTop');
    te.editor.select(['a']);
    te.command('lower');
    te.command('sendToBottom');
    expect(te.messages).toEqual([
      'editor.messages.atTop',
      'editor.messages.atTop',
      'editor.messages.atBottom',
      'editor.messages.atBottom',
    ]);
    expect(order(te)).toEqual(['a', 'b', 'c']);
    expect(te.editor.history.canUndo).toBe(false);
  });

  it('the background picture stays beneath: nothing goes under it, it takes no layer command', () => {
    const te = scene();
    te.editor.select(['a']);
    te.command('lower');
    expect(te.messages).toEqual(['editor.messages.atBottom']);
    te.editor.select(['bg']);
    expect(te.command('bringToTop')).toBe(false);
    expect(te.get('bg').zIndex).toBe(0);
  });

  it('stacks equal zIndex values (as loaded data may have) into a definite order', () => {
    const te = new TestEditor();
    te.load(['Dot', { id: 'x', zIndex: 0 }], ['Dot', { id: 'y', zIndex: 0 }], ['Dot', { id: 'z', zIndex: 0 }]);
    te.editor.select(['x']);
    te.command('raise');
    expect(order(te)).toEqual(['y', 'x', 'z']);
    expect(te.editor.topLevel().map((r) => r.zIndex)).toEqual([1, 2, 3]);
  });

  it('a group moves as one layer; its members keep their order inside it', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const group = te.editor.selection[0]!;
    expect(te.editor.members(group).map((r) => r.id)).toEqual(['a', 'b']);
    te.editor.select([group]);
    te.command('bringToTop');
    expect(order(te)).toEqual(['c', group]);
  });
});
