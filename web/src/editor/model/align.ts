import { type Rect, rotatedBounds, unionOf } from './geometry.ts';
import type { ComponentRecord } from './records.ts';
import { rectOf } from './transforms.ts';

/** Align the selection's edges or centres (beyond the spec, issue 15 item 9). */
export type AlignEdge = 'left' | 'centre' | 'right' | 'top' | 'middle' | 'bottom';
export type DistributeAxis = 'horizontal' | 'vertical';

/** A shift to apply to one top-level component (and its group's members). */
export interface Shift {
  id: string;
  dx: number;
  dy: number;
}

// What the eye sees: a turned component aligns by its turned bounds, as the snap guides do.
const boundsOf = (r: ComponentRecord): Rect => rotatedBounds(rectOf(r), r.rotate);

/**
 * Shifts that line the records up on one edge or centre of their common bounds. Locked records are
 * part of the bounds (they stay where they are, so they act as anchors) but are never shifted.
 * Shifts of zero are left out.
 */
export const alignShifts = (records: readonly ComponentRecord[], edge: AlignEdge): Shift[] => {
  const box = unionOf(records.map(boundsOf));
  if (!box || records.length < 2) return [];
  const shifts: Shift[] = [];
  for (const r of records) {
    if (r.locked) continue;
    const b = boundsOf(r);
    const dx =
      edge === 'left'
        ? box.left - b.left
        : edge === 'right'
          ? box.left + box.width - (b.left + b.width)
          : edge === 'centre'
            ? box.left + box.width / 2 - (b.left + b.width / 2)
            : 0;
    const dy =
      edge === 'top'
        ? box.top - b.top
        : edge === 'bottom'
          ? box.top + box.height - (b.top + b.height)
          : edge === 'middle'
            ? box.top + box.height / 2 - (b.top + b.height / 2)
            : 0;
    if (dx !== 0 || dy !== 0) shifts.push({ id: r.id, dx, dy });
  }
  return shifts;
};

/**
 * Shifts that leave equal gaps between the records along an axis: the first and last (by their
 * leading edge) stay, the ones between are spread so that every gap is the same (gaps may be
 * negative when they overlap). Locked records keep their place and still count as one of the row.
 */
export const distributeShifts = (records: readonly ComponentRecord[], axis: DistributeAxis): Shift[] => {
  if (records.length < 3) return [];
  const start = (b: Rect) => (axis === 'horizontal' ? b.left : b.top);
  const size = (b: Rect) => (axis === 'horizontal' ? b.width : b.height);
  const row = records
    .map((r) => ({ r, b: boundsOf(r) }))
    .sort((a, b) => start(a.b) - start(b.b) || (a.r.id < b.r.id ? -1 : 1));
  const first = row[0]!;
  const last = row[row.length - 1]!;
  const span = start(last.b) + size(last.b) - start(first.b);
  const gap = (span - row.reduce((sum, x) => sum + size(x.b), 0)) / (row.length - 1);
  const shifts: Shift[] = [];
  let at = start(first.b);
  for (const { r, b } of row) {
    const d = at - start(b);
    at += size(b) + gap;
    if (r.locked || d === 0) continue;
    shifts.push(axis === 'horizontal' ? { id: r.id, dx: d, dy: 0 } : { id: r.id, dx: 0, dy: d });
  }
  return shifts;
};
