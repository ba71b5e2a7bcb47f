// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Editor } from './editor.ts';
import { componentKinds, createComponent, defaultCanvas } from './records.ts';
import { TestEditor } from './test-editor.ts';

describe('records', () => {
  it('lists every component kind of 001 §3 and Group', () => {
    expect([...componentKinds].sort()).toEqual(
      [
        'Picture',
        'Cdefault',
        'component2',
        'component3',
        'component4',
        'component5',
        'ElectricSafe',
        'VText',
        'VButton',
        'Duanluqi',
        ...[1, 2, 3, 4, 5, 6].map((n) => `IconElec${n}`),
        'Items',
        'SiteButton',
        'Line_x',
        'Line_y',
        'LineBroken',
        'Dot',
        'Donghuan',
        'KaiGuan1',
        'KaiGuan2',
        'SiteName',
        'Line_link',
        'Dev_link',
        'Leak_cord',
        'Group',
      ].sort(),
    );
  });

  it('canvas defaults are 1366 × 768 at 100 %', () => {
    expect(defaultCanvas).toEqual({ width: 1366, height: 768, scale: 100 });
    expect(new Editor().canvas).toEqual(defaultCanvas);
  });

  it('a new component is new to the server, unlocked, top-level, with its kind defaults', () => {
    expect(createComponent('x', 'Cdefault')).toMatchObject({
      serverId: null,
      type: 0,
      width: 88,
      height: 88,
      locked: false,
      groupId: null,
      parent_id: 0,
      item_ids: [],
    });
    expect(createComponent('y', 'Picture')).toMatchObject({ width: 1366, height: 768 });
    expect(createComponent('z', 'VText').style.fontSize).toBe(14);
  });

  it('a dropped component gets a local id not already used, and lands on top, selected', () => {
    const ids = ['n1', 'n1', 'n2'];
    const editor = new Editor({ createId: () => ids.shift()! });
    editor.load([createComponent('n1', 'Dot', { zIndex: 5 })]);
    const id = editor.addComponent('Cdefault', { left: 40, top: 50 });
    expect(id).toBe('n2');
    expect(editor.get(id)).toMatchObject({ zIndex: 6, left: 40, top: 50, serverId: null });
    expect(editor.selection).toEqual(['n2']);
  });

  it('the selection never keeps a component that undo took away; subscribers hear every change', () => {
    const te = new TestEditor();
    te.load(['Cdefault', { id: 'a' }]);
    let heard = 0;
    te.editor.subscribe(() => heard++);
    te.editor.select(['a']);
    te.press('ctrl+c');
    te.press('ctrl+v');
    const pasted = te.editor.selection[0]!;
    te.press('ctrl+z');
    expect(te.editor.get(pasted)).toBeUndefined();
    expect(te.editor.selection).toEqual([]);
    expect(heard).toBeGreaterThanOrEqual(4);
  });
});
