import { monitorState } from '@sitewatch/contract/monitoring';
import { describe, expect, it } from 'vitest';
import { LiveSlots } from './live-slots.ts';

const published = (item_id: number, state: number) => ({ item_id, state, info: '', alarm: false }) as never;

describe('live slots: which live states are not in their rows yet', () => {
  it('an item is unsaved from its first check until its row is written with the state it shows', () => {
    const slots = new LiveSlots();
    slots.slotFor(7);
    expect([...slots.unsaved]).toEqual([7]);
    slots.takeState(published(7, monitorState.normal));
    slots.wroteState(7, monitorState.normal);
    expect(slots.unsaved.size).toBe(0);
    // The engine changes its state: unsaved until written, and saved again if it comes back first.
    slots.takeState(published(7, monitorState.abnormal));
    expect([...slots.unsaved]).toEqual([7]);
    slots.takeState(published(7, monitorState.normal));
    expect(slots.unsaved.size).toBe(0);
    // A row written with a state the engine has since left stays unsaved.
    slots.takeState(published(7, monitorState.abnormal));
    slots.wroteState(7, monitorState.normal);
    expect([...slots.unsaved]).toEqual([7]);
    slots.wroteState(7, monitorState.abnormal);
    expect(slots.unsaved.size).toBe(0);
    // Items not collected here are not tracked.
    slots.wroteState(8, monitorState.normal);
    expect(slots.unsaved.has(8)).toBe(false);
  });
});
