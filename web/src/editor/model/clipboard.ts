import type { Point } from './geometry.ts';
import { unionOf } from './geometry.ts';
import type { ComponentRecord } from './records.ts';
import { rectOf } from './transforms.ts';

/** Repeated pastes step on by this many px each, as the spec's source does (001 §4). */
export const pasteOffset = 10;

/** What was copied or cut: deep copies, never the live records. */
export interface Clip {
  records: ComponentRecord[];
  cut: boolean;
}

/**
 * One paste of `clip`: the clip's records moved 10 px right and down (or with their top-left corner
 * at `at`, for the context menu's paste here) under new ids, new to the server, stacked above `topZ`;
 * and the clipboard that remains (a cut pastes once; a copy keeps stepping on from the last paste).
 */
export const pasteClip = (
  clip: Clip,
  at: Point | undefined,
  newId: () => string,
  topZ: number,
): { pasted: ComponentRecord[]; next: Clip | null } => {
  const box = unionOf(clip.records.filter((r) => r.groupId === null).map(rectOf))!;
  const dx = at ? at.x - box.left : pasteOffset;
  const dy = at ? at.y - box.top : pasteOffset;
  const shifted = clip.records.map((r) => ({ ...r, left: r.left + dx, top: r.top + dy }));
  const ids = new Map(shifted.map((r) => [r.id, newId()]));
  let z = topZ;
  const pasted = shifted.map((r) => ({
    ...structuredClone(r),
    id: ids.get(r.id)!,
    serverId: null,
    groupId: r.groupId === null ? null : (ids.get(r.groupId) ?? null),
    zIndex: r.groupId === null ? ++z : r.zIndex,
  }));
  return { pasted, next: clip.cut ? null : { records: shifted, cut: false } };
};
