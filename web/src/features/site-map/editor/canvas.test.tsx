import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type ComponentRecord, createComponent } from '../../../editor/model/records.ts';
import { Frames, handlesUpTo } from './canvas.tsx';

const recordsOf = (n: number): ComponentRecord[] =>
  Array.from({ length: n }, (_, i) =>
    createComponent(`c${i}`, 'Cdefault', { left: i * 30, top: 0, width: 20, height: 20, zIndex: i + 1 }),
  );

describe('Frames', () => {
  it('draws resize handles and the rotation knob for a small selection', () => {
    const { container } = render(<Frames records={recordsOf(1)} />);
    const frame = container.querySelector('[data-frame-id="c0"]')!;
    expect(frame.classList.contains('sm-plain')).toBe(false);
    expect(frame.querySelectorAll('[data-handle]')).toHaveLength(8);
    expect(frame.querySelectorAll('[data-rotate="c0"]')).toHaveLength(1);
    expect(frame.querySelectorAll('.sm-knobs')).toHaveLength(1);
  });

  it(`keeps the handles up to ${handlesUpTo} selected`, () => {
    const { container } = render(<Frames records={recordsOf(handlesUpTo)} />);
    expect(container.querySelectorAll('[data-handle]')).toHaveLength(8 * handlesUpTo);
  });

  it('draws a large selection as plain outlines, each still found by its id', () => {
    const { container } = render(<Frames records={recordsOf(handlesUpTo + 1)} />);
    const frames = container.querySelectorAll<HTMLElement>('[data-frame-id]');
    expect([...frames].map((f) => f.dataset.frameId)).toEqual(recordsOf(handlesUpTo + 1).map((r) => r.id));
    for (const f of frames) expect(f.className).toBe('sm-frame sm-plain');
    expect(container.querySelectorAll('[data-handle], [data-rotate], .sm-knobs')).toHaveLength(0);
    // Each frame is one element: nothing inside it.
    expect(container.querySelectorAll('.sm-frame *')).toHaveLength(0);
  });
});
