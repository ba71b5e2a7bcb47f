import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { alarmColumns, alarmTableWidth } from './alarm-columns.tsx';

const options = (withEnd: boolean) => ({
  t: i18n.t,
  withEnd,
  canConfirm: true,
  canDisable: true,
  canOrders: true,
  canAddOrder: true,
  orderOf: new Map(),
  onAction: () => undefined,
  onToOrder: () => undefined,
});

describe('the /alarm columns (issue 38)', () => {
  it('fit the 1064 px beside the menu at 1366 × 768, the actions fixed on the right', () => {
    expect(alarmTableWidth(false)).toBeLessThanOrEqual(1064);
    const columns = alarmColumns(options(false));
    // Every column but the reason has its width; the reason takes what is left.
    expect(columns.filter((c) => c.width === undefined).map((c) => ('dataIndex' in c ? c.dataIndex : c.key))).toEqual([
      'info',
    ]);
    expect(columns.at(-1)).toMatchObject({ key: 'actions', fixed: 'right' });
  });

  it('has a recovery-time column only when recovered alarms are listed, and then scrolls inside', () => {
    const ends = (withEnd: boolean) =>
      alarmColumns(options(withEnd)).filter((c) => 'dataIndex' in c && c.dataIndex === 'end_time');
    expect(ends(false)).toHaveLength(0);
    expect(ends(true)).toHaveLength(1);
    expect(alarmTableWidth(true)).toBeGreaterThan(alarmTableWidth(false));
  });
});
