// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { TestEditor } from './test-editor.ts';

const scene = () => {
  const te = new TestEditor();
  te.load(
    ['Picture', { id: 'bg', width: 1366, height: 768, zIndex: 0 }],
    ['Cdefault', { id: 'a', left: 100, top: 100, device_id: 7, item_ids: [1, 2] }],
    ['VText', { id: 't', left: 400, top: 300, style: { fontSize: 14 } }],
  );
  return te;
};

describe('copy, cut and paste', () => {
  it('pastes a copy 10 px right and down under a new id, new to the server, on top and selected', () => {
    const te = scene();
    te.click(120, 120);
    te.press('ctrl+c');
    te.press('ctrl+v');
    const pasted = te.editor.selectedRecords();
    expect(pasted).toHaveLength(1);
    const copy = pasted[0]!;
    expect(copy.id).not.toBe('a');
    expect(copy).toMatchObject({ left: 110, top: 110, serverId: null, device_id: 7, item_ids: [1, 2] });
    expect(copy.zIndex).toBeGreaterThan(te.get('t').zIndex);
    expect(te.get('a')).toMatchObject({ left: 100, top: 100 });
  });

  it('each further paste steps on by another 10 px; the clipboard is a copy, not the live record', () => {
    const te = scene();
    te.editor.select(['a']);
    te.press('ctrl+c');
    te.editor.updateComponent('a', { left: 0 });
    te.press('ctrl+v');
    te.press('ctrl+v');
    const lefts = te.editor
      .topLevel()
      .filter((r) => r.kind === 'Cdefault')
      .map((r) => r.left);
    expect(lefts).toEqual([0, 110, 120]);
  });

  it('cut removes in one step; the paste after a cut empties the clipboard', () => {
    const te = scene();
    te.editor.select(['a']);
    te.press('ctrl+x');
    expect(te.editor.get('a')).toBeUndefined();
    te.press('ctrl+v');
    expect(te.editor.selectedRecords()[0]).toMatchObject({ kind: 'Cdefault', left: 110, top: 110 });
    expect(te.editor.hasClipboard).toBe(false);
    te.press('ctrl+v');
    expect(te.messages).toEqual(['editor.messages.selectComponent']);
    expect(te.editor.topLevel().filter((r) => r.kind === 'Cdefault')).toHaveLength(1);
  });

  it('copy, cut and paste with nothing to act on say 请选择组件 and change nothing', () => {
    const te = scene();
    const before = te.snapshot();
    te.press('ctrl+c');
    te.press('ctrl+x');
    te.press('ctrl+v');
    te.command('paste');
    expect(te.messages).toEqual(Array(4).fill('editor.messages.selectComponent'));
    expect(te.snapshot()).toEqual(before);
    expect(te.editor.history.canUndo).toBe(false);
  });

  it('a copied group pastes as a new group with new members', () => {
    const te = scene();
    te.editor.select(['a', 't']);
    te.press('ctrl+g');
    const group = te.editor.selection[0]!;
    te.press('ctrl+c');
    te.press('ctrl+v');
    const pasted = te.editor.selectedRecords()[0]!;
    expect(pasted.kind).toBe('Group');
    expect(pasted.id).not.toBe(group);
    const members = te.editor.members(pasted.id);
    expect(members.map((m) => [m.kind, m.left, m.top])).toEqual([
      ['Cdefault', 110, 110],
      ['VText', 410, 310],
    ]);
    expect(te.editor.members(group).map((m) => m.id)).toEqual(['a', 't']);
  });

  it('paste here puts the top-left corner of the copy at the point', () => {
    const te = scene();
    te.editor.select(['a', 't']);
    te.press('ctrl+c');
    te.editor.paste({ x: 600, y: 500 });
    expect(te.editor.selectedRecords().map((r) => [r.left, r.top])).toEqual([
      [600, 500],
      [900, 700],
    ]);
  });
});
