import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { checkSelection, initialSelection, type Selection } from './history-selection.tsx';

const now = Date.UTC(2026, 10, 24, 12, 0, 0);
const chosen: Selection = { ...initialSelection, site: 1, item_ids: [5, 6] };

describe('checkSelection: the history report checks a selection as the server would', () => {
  it('names every missing field at once, each with its message', () => {
    expect(checkSelection({ ...initialSelection, range: 'custom' }, now)).toEqual([
      { name: 'site', key: 'monitoring.validation.site' },
      { name: 'item_ids', key: 'monitoring.validation.items' },
      { name: 'custom', key: 'monitoring.validation.range' },
    ]);
  });

  it('runs the last 24 hours in minutes when the granularity is automatic', () => {
    expect(checkSelection(chosen, now)).toEqual({
      item_ids: [5, 6],
      t1: now / 1000 - 86_400,
      t2: now / 1000,
      interval: 'minute',
    });
  });

  it('puts the contract’s refusal of a range on the field that chose it', () => {
    // Raw samples over seven days: too long, said on the granularity picked by hand.
    expect(checkSelection({ ...chosen, range: 'last7d', interval: 'raw' }, now)).toEqual([
      { name: 'interval', key: 'monitoring.validation.rawRange' },
    ]);
    // A custom range that ends before it starts: said on the range.
    const custom: [dayjs.Dayjs, dayjs.Dayjs] = [dayjs.unix(now / 1000), dayjs.unix(now / 1000 - 3600)];
    expect(checkSelection({ ...chosen, range: 'custom', custom, interval: 'hour' }, now)).toEqual([
      { name: 'custom', key: 'monitoring.validation.endBeforeStart' },
    ]);
  });
});
