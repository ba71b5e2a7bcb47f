// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { TestEditor } from './test-editor.ts';

const scene = () => {
  const te = new TestEditor();
  te.load(
    ['Picture', { id: 'bg', width: 1366, height: 768, zIndex: 0 }],
    ['Cdefault', { id: 'a', left: 100, top: 100, width: 100, height: 100 }],
    ['Cdefault', { id: 'b', left: 300, top: 200, width: 100, height: 100 }],
    ['VText', { id: 't', left: 600, top: 500, width: 120, height: 30 }],
  );
  return te;
};

describe('group and ungroup', () => {
  it('groups the selection into a Group around their bounds, selected', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const group = te.editor.selectedRecords()[0]!;
    expect(group).toMatchObject({ kind: 'Group', left: 100, top: 100, width: 300, height: 200, groupId: null });
    expect([te.get('a').groupId, te.get('b').groupId]).toEqual([group.id, group.id]);
    expect(te.editor.topLevel().map((r) => r.id)).toEqual(['bg', group.id, 't']);
  });

  it('group needs two or more unlocked components', () => {
    const te = scene();
    te.editor.select(['a']);
    expect(te.press('ctrl+g')).toBe(true);
    expect(te.get('a').groupId).toBeNull();
    te.editor.select(['a', 'b']);
    te.editor.lock();
    expect(te.command('group')).toBe(false);
  });

  it('clicking a member picks the whole group; dragging moves the members with it', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const group = te.editor.selection[0]!;
    te.editor.selectNone();
    te.drag([350, 250], [360, 280]);
    expect(te.editor.selection).toEqual([group]);
    expect([te.get('a').left, te.get('a').top, te.get('b').left, te.get('b').top]).toEqual([110, 130, 310, 230]);
    expect(te.get(group)).toMatchObject({ left: 110, top: 130 });
  });

  it('resizing a group scales its members inside it', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const group = te.editor.selection[0]!;
    te.dragHandle(group, 'se', 300, 200);
    expect(te.get(group)).toMatchObject({ left: 100, top: 100, width: 600, height: 400 });
    expect(te.get('b')).toMatchObject({ left: 500, top: 300, width: 200, height: 200 });
  });

  it('rotating a group turns its members around its centre and re-fits the group', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const group = te.editor.selection[0]!;
    te.editor.rotate(group, 180);
    // Centre (250, 200): a's centre (150, 150) goes to (350, 250).
    expect(te.get('a').left).toBeCloseTo(300);
    expect(te.get('a').top).toBeCloseTo(200);
    expect(te.get('a').rotate).toBe(180);
    expect(te.get(group).rotate).toBe(0);
  });

  it('ungroup dissolves an unlocked Group where it stood and selects its members', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const group = te.editor.selection[0]!;
    te.press('ctrl+b');
    expect(te.editor.get(group)).toBeUndefined();
    expect(te.editor.selection).toEqual(['a', 'b']);
    expect(te.editor.topLevel().map((r) => r.id)).toEqual(['bg', 'a', 'b', 't']);
    expect(te.get('a').groupId).toBeNull();
  });

  it('undoing an ungroup leaves the group selected, never its members', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const group = te.editor.selection[0]!;
    te.press('ctrl+b');
    te.press('ctrl+z');
    expect(te.editor.selection).toEqual([group]);
  });

  it('ungroup is enabled only for one unlocked Group', () => {
    const te = scene();
    te.editor.select(['a']);
    expect(te.command('ungroup')).toBe(false);
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    te.press('ctrl+l');
    expect(te.command('ungroup')).toBe(false);
    expect(te.press('ctrl+b')).toBe(true);
    expect(te.editor.selectedRecords()[0]!.kind).toBe('Group');
  });

  it('grouping a group with another component makes one flat group', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    const first = te.editor.selection[0]!;
    te.editor.select([first, 't']);
    te.press('ctrl+g');
    const second = te.editor.selection[0]!;
    expect(te.editor.get(first)).toBeUndefined();
    expect(te.editor.members(second).map((r) => r.id)).toEqual(['a', 'b', 't']);
    te.press('ctrl+z');
    expect(te.editor.members(first).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('deleting a group deletes its members', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+g');
    te.press('Delete');
    expect(te.editor.store.all().map((r) => r.id)).toEqual(['bg', 't']);
  });
});
