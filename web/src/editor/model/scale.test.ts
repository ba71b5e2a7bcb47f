// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseScale, rescaleRecord } from './editor.ts';
import { createComponent } from './records.ts';
import { TestEditor } from './test-editor.ts';

describe('canvas scale', () => {
  it('rescales top, left, width, height, fontSize and borderWidth, nothing else', () => {
    const r = createComponent('t', 'VText', {
      left: 100,
      top: 40,
      width: 120,
      height: 30,
      rotate: 30,
      zIndex: 4,
      style: { fontSize: 14, borderWidth: 2, opacity: 0.5, letterSpacing: 1 },
    });
    expect(rescaleRecord(r, 0.5)).toEqual({
      ...r,
      left: 50,
      top: 20,
      width: 60,
      height: 15,
      style: { fontSize: 7, borderWidth: 1, opacity: 0.5, letterSpacing: 1 },
    });
  });

  it('a scale change rescales every component by new/old in one undo step', () => {
    const te = new TestEditor();
    te.load(
      ['Picture', { id: 'bg', width: 1366, height: 768 }],
      ['VText', { id: 't', left: 200, top: 100, style: { fontSize: 20 } }],
    );
    const before = te.snapshot();
    te.editor.setScale(50);
    expect(te.editor.canvas.scale).toBe(50);
    expect(te.get('bg')).toMatchObject({ width: 683, height: 384 });
    expect(te.get('t')).toMatchObject({ left: 100, top: 50, style: { fontSize: 10 } });
    te.editor.setScale(150);
    expect(te.get('t')).toMatchObject({ left: 300, top: 150, style: { fontSize: 30 } });
    expect(te.editor.canvasRect).toMatchObject({ width: 2049, height: 1152 });
    te.editor.setScale(100);
    expect(te.snapshot()).toEqual(before);
    te.press('ctrl+z');
    te.press('ctrl+z');
    expect(te.get('t').left).toBe(100);
    expect(te.editor.canvas.scale).toBe(50);
  });

  it('the typed scale: empty becomes 1, nonsense changes nothing', () => {
    expect(parseScale('')).toBe(1);
    expect(parseScale(' 80 ')).toBe(80);
    expect(parseScale('abc')).toBeNull();
    expect(parseScale('0')).toBeNull();
    expect(parseScale('-5')).toBeNull();
  });
});
