// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { commands } from './commands.ts';
import { TestEditor } from './test-editor.ts';

/** `a` locked and selected, `b` free. */
const scene = () => {
  const te = new TestEditor();
  te.load(
    ['Picture', { id: 'bg', width: 1366, height: 768, zIndex: 0 }],
    ['Cdefault', { id: 'a', left: 100, top: 100, width: 100, height: 100 }],
    ['Cdefault', { id: 'b', left: 300, top: 100, width: 100, height: 100 }],
  );
  te.editor.select(['a']);
  te.press('ctrl+l');
  return te;
};

describe('lock rules (001 §4)', () => {
  it('lock is disabled when already locked, unlock only when locked', () => {
    const te = scene();
    expect(te.get('a').locked).toBe(true);
    expect(te.command('lock')).toBe(false);
    te.editor.select(['b']);
    expect(te.command('unlock')).toBe(false);
    te.editor.select(['a']);
    expect(te.command('unlock')).toBe(true);
    expect(te.get('a').locked).toBe(false);
  });

  it('a locked component is not moved, by drag or arrows', () => {
    const te = scene();
    const before = te.snapshot();
    te.drag([150, 150], [250, 300]);
    te.press('ArrowLeft');
    te.press('shift+ArrowDown');
    te.editor.moveSelection(5, 5);
    expect(te.snapshot()).toEqual(before);
    expect(te.editor.selection).toEqual(['a']);
  });

  it('a locked component is not resized or rotated', () => {
    const te = scene();
    const before = te.snapshot();
    te.dragHandle('a', 'se', 50, 50);
    te.dragRotate('a', 300, 150);
    te.editor.resize('a', { left: 0, top: 0, width: 10, height: 10 });
    te.editor.rotate('a', 90);
    expect(te.snapshot()).toEqual(before);
  });

  it('a locked component is not deleted, by key, menu or method', () => {
    const te = scene();
    te.press('ctrl+d');
    te.press('ctrl+Delete');
    te.press('Delete');
    te.command('delete');
    te.editor.deleteSelected();
    expect(te.editor.get('a')).toBeDefined();
  });

  it('drag-selection ignores locked components', () => {
    const te = scene();
    te.drag([50, 50], [450, 250]);
    expect(te.editor.selection).toEqual(['b']);
  });

  it('with Ctrl on a locked selection only paste, undo, redo, save, preview, clear and unlock work', () => {
    const te = scene();
    const allowed = commands.filter((c) => c.kbd.some((k) => k.startsWith('mod+')) && c.whenLocked).map((c) => c.id);
    expect(allowed.sort()).toEqual(['clear', 'paste', 'preview', 'redo', 'save', 'undo', 'unlock']);
    // Everything else is refused while `a` is selected.
    const before = te.snapshot();
    for (const key of ['ctrl+c', 'ctrl+x', 'ctrl+g', 'ctrl+b', 'ctrl+d', 'ctrl+l']) te.press(key);
    expect(te.snapshot()).toEqual(before);
    expect(te.editor.hasClipboard).toBe(false);
    expect(te.messages).toEqual([]);
    // And the allowed ones act.
    te.editor.select(['b']);
    te.press('ctrl+c');
    te.editor.select(['a']);
    te.press('ctrl+v');
    expect(te.editor.topLevel()).toHaveLength(4);
    te.press('ctrl+z');
    expect(te.editor.topLevel()).toHaveLength(3);
    te.press('ctrl+y');
    te.press('ctrl+s');
    te.press('ctrl+e');
    expect(te.events.map((e) => e.type)).toEqual(['save', 'clear']);
    te.editor.select(['a']);
    te.press('ctrl+u');
    expect(te.get('a').locked).toBe(false);
    te.press('ctrl+p');
    expect(te.editor.mode).toBe('preview');
  });

  it('a selection holding any locked component counts as locked', () => {
    const te = scene();
    te.editor.select(['a', 'b']);
    te.press('ctrl+x');
    expect(te.editor.get('b')).toBeDefined();
    te.press('ArrowRight');
    expect(te.get('b').left).toBe(300);
  });

  it('a click on a locked component selects it, so that it can be unlocked', () => {
    const te = scene();
    te.editor.selectNone();
    te.click(150, 150);
    expect(te.editor.selection).toEqual(['a']);
  });
});
