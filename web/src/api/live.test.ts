import { describe, expect, it } from 'vitest';
import { type LiveChanges, patchItemRows } from './live.ts';

const changes = (items: LiveChanges['items']): LiveChanges => ({ items, devices: new Map() });

describe('live values in the query cache', () => {
  const rows = [
    { id: 1, name: '温度', value: 20, state: 1, last_check: 100, info: '' },
    { id: 2, name: '湿度', value: 40, state: 1, last_check: 100, info: '' },
  ];
  const stationRows = [{ id: 3, name: '电流', value: 5, state: 1, last_check: 100, info: '', alarm: false }];
  it('replaces the value, state, time and reason of the changed items only', () => {
    const next = patchItemRows(
      rows,
      changes(new Map([[2, { id: 2, value: 91, state: 2, last_check: 105, info: '', alarm: true }]])),
    );
    expect(next[0]).toBe(rows[0]);
    expect(next[1]).toEqual({ id: 2, name: '湿度', value: 91, state: 2, last_check: 105, info: '' });
  });
  it('replaces the alarm flag of rows that carry one (a point fault while the item is unknown)', () => {
    const fault = { id: 3, value: null, state: 4, last_check: 106, info: 'value is not a number (NaN)', alarm: true };
    expect(patchItemRows(stationRows, changes(new Map([[3, fault]])))).toEqual([{ name: '电流', ...fault }]);
  });
  it('keeps the same array when nothing of it changed, so React renders nothing', () => {
    expect(
      patchItemRows(
        rows,
        changes(new Map([[9, { id: 9, value: 1, state: 1, last_check: 1, info: '', alarm: false }]])),
      ),
    ).toBe(rows);
  });
});
