import { describe, expect, it } from 'vitest';
import { type LiveChanges, patchItemRows } from './live.ts';

const changes = (items: LiveChanges['items']): LiveChanges => ({ items, devices: new Map() });

describe('live values in the query cache', () => {
  const rows = [
    { id: 1, name: '温度', value: 20, state: 1, last_check: 100, info: '' },
    { id: 2, name: '湿度', value: 40, state: 1, last_check: 100, info: '' },
  ];
  it('replaces the value, state, time and reason of the changed items only', () => {
    const next = patchItemRows(
      rows,
      changes(new Map([[2, { id: 2, value: 91, state: 2, last_check: 105, info: '' }]])),
    );
    expect(next[0]).toBe(rows[0]);
    expect(next[1]).toEqual({ id: 2, name: '湿度', value: 91, state: 2, last_check: 105, info: '' });
  });
  it('keeps the same array when nothing of it changed, so React renders nothing', () => {
    expect(patchItemRows(rows, changes(new Map([[9, { id: 9, value: 1, state: 1, last_check: 1, info: '' }]])))).toBe(
      rows,
    );
  });
});
