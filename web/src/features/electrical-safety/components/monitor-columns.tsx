import type { MonitorRow } from '@sitewatch/contract/electrical-safety';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { CSSProperties, ReactNode, TdHTMLAttributes } from 'react';
import { fmt } from './labels.ts';

/** A reading for a narrow numeric cell: right-aligned figures of equal width. */
const num: CSSProperties = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };

/** A reading column's key, also on its cells (`data-col`) so a journey finds a reading by its column. */
const col = (key: string) => ({ key, onCell: () => ({ 'data-col': key }) as TdHTMLAttributes<HTMLTableCellElement> });

/** Sub-column titles of the three phases. */
const phaseNames = ['A', 'B', 'C'] as const;

/**
 * Widths (px) that fit the whole table in the content area at 1366 px (1366 − 220 menu − margins ≈
 * 1 100): docs/electrical-safety.md "Pages". Below that the table scrolls, site and device fixed.
 */
export const w = {
  site: 92,
  device: 100,
  phase: 52,
  p: 60,
  pf: 58,
  unbalance: 62,
  thd: 62,
  f: 64,
  issues: 124,
  actions: 92,
};
/** Six phase columns and two unbalance columns: the table's whole width. */
export const tableWidth = Object.values(w).reduce((a, b) => a + b, 0) + 5 * w.phase + w.unbalance;

/**
 * The monitor's reading columns under grouped headers (docs/electrical-safety.md "Pages"): phase
 * voltages and currents A B C, power (P, PF), unbalance (voltage, current), quality (THDu, frequency).
 * `flagged` shows a figure beyond its limit in red.
 */
export const readingColumns = (
  t: TFunction,
  flagged: (row: MonitorRow, issue: MonitorRow['issues'][number], text: string) => ReactNode,
): ColumnsType<MonitorRow> => [
  {
    title: `${t('electricalUi.phaseVoltages')} (V)`,
    align: 'center',
    children: (['ua', 'ub', 'uc'] as const).map((k, i) => ({
      title: phaseNames[i],
      ...col(k),
      width: w.phase,
      align: 'right' as const,
      render: (_: unknown, r: MonitorRow) => <span style={num}>{fmt(r.readings[k], 1)}</span>,
    })),
  },
  {
    title: `${t('electricalUi.phaseCurrents')} (A)`,
    align: 'center',
    children: (['ia', 'ib', 'ic'] as const).map((k, i) => ({
      title: phaseNames[i],
      ...col(k),
      width: w.phase,
      align: 'right' as const,
      render: (_: unknown, r: MonitorRow) => <span style={num}>{fmt(r.readings[k], 1)}</span>,
    })),
  },
  {
    title: t('electricalUi.monitor.power'),
    align: 'center',
    children: [
      {
        title: 'P (kW)',
        ...col('p'),
        width: w.p,
        align: 'right',
        render: (_, r) => <span style={num}>{fmt(r.readings.p, 1)}</span>,
      },
      {
        title: 'PF',
        ...col('pf'),
        width: w.pf,
        align: 'right',
        render: (_, r) => <span style={num}>{flagged(r, 'pf', fmt(r.figures.pf, 3))}</span>,
      },
    ],
  },
  {
    title: t('electricalUi.monitor.unbalance'),
    align: 'center',
    children: [
      {
        title: t('electricalUi.monitor.voltage'),
        ...col('vu'),
        width: w.unbalance,
        align: 'right',
        render: (_, r) => (
          <span style={num}>{flagged(r, 'voltage_unbalance', fmt(r.figures.vuf ?? r.figures.voltage_unbalance))}</span>
        ),
      },
      {
        title: t('electricalUi.monitor.current'),
        ...col('iu'),
        width: w.unbalance,
        align: 'right',
        render: (_, r) => <span style={num}>{flagged(r, 'current_unbalance', fmt(r.figures.current_unbalance))}</span>,
      },
    ],
  },
  {
    title: t('electricalUi.monitor.quality'),
    align: 'center',
    children: [
      {
        title: 'THDu (%)',
        ...col('thd'),
        width: w.thd,
        align: 'right',
        render: (_, r) => <span style={num}>{flagged(r, 'thd_u', fmt(r.figures.thd_u))}</span>,
      },
      {
        title: t('electricalUi.monitor.frequency'),
        ...col('f'),
        width: w.f,
        align: 'right',
        render: (_, r) => <span style={num}>{flagged(r, 'frequency', fmt(r.figures.frequency))}</span>,
      },
    ],
  },
];
