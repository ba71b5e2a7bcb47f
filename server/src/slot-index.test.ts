import { describe, expect, it } from 'vitest';
import { SlotIndex } from './slot-index.ts';

describe('SlotIndex', () => {
  it('maps ids to slots like a Map while ids are dense', () => {
    const index = new SlotIndex();
    const map = new Map<number, number>();
    // Slots handed out in a shuffled id order, as polls give them.
    const ids = Array.from({ length: 5_000 }, (_, i) => i + 1).sort(
      (a, b) => ((a * 7919) % 5003) - ((b * 7919) % 5003),
    );
    ids.forEach((id, slot) => {
      index.set(id, slot);
      map.set(id, slot);
    });
    for (const id of [17, 400, 4_999]) {
      expect(index.delete(id)).toBe(true);
      map.delete(id);
    }
    expect(index.delete(17)).toBe(false);
    index.set(400, 9);
    map.set(400, 9);
    expect(index.size).toBe(map.size);
    for (let id = 0; id <= 5_001; id++) {
      expect(index.get(id)).toBe(map.get(id));
      expect(index.has(id)).toBe(map.has(id));
    }
    expect([...index.keys()].sort((a, b) => a - b)).toEqual([...map.keys()].sort((a, b) => a - b));
    expect(index.get(-1)).toBeUndefined();
    expect(index.get(1.5)).toBeUndefined();
  });

  it('keeps every entry when ids far apart turn it into a Map', () => {
    const index = new SlotIndex();
    index.set(3, 0);
    index.set(70_000, 1);
    index.set(5_000_000, 2);
    index.set(-4, 3);
    index.set(2.5, 4);
    expect(index.size).toBe(5);
    expect([3, 70_000, 5_000_000, -4, 2.5].map((id) => index.get(id))).toEqual([0, 1, 2, 3, 4]);
    expect(index.delete(70_000)).toBe(true);
    expect(index.has(70_000)).toBe(false);
    expect([...index.keys()].sort((a, b) => a - b)).toEqual([-4, 2.5, 3, 5_000_000]);
  });
});
