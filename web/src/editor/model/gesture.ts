import type { Gesture, Modifiers } from './editor-types.ts';
import {
  containsPoint,
  containsRect,
  type Point,
  type Rect,
  rectFromCorners,
  rotatedBounds,
  unionOf,
} from './geometry.ts';
import type { ComponentRecord } from './records.ts';
import { snapRect } from './snapping.ts';
import { angleAround, rectOf, resizedRecords, resizeRect, rotatedRecords } from './transforms.ts';

/** What the gesture functions read of the editor's scene. */
export interface Scene {
  get(id: string): ComponentRecord | undefined;
  all(): ComponentRecord[];
  /** Top-level components (not inside a group), bottom first. */
  topLevel(): ComponentRecord[];
  members(groupId: string): ComponentRecord[];
  canvasRect(): Rect;
}

/** The top-most component under `p`; the background picture is not hit (a drag on it selects by area). */
export const componentAt = (scene: Scene, p: Point): ComponentRecord | undefined =>
  scene
    .topLevel()
    .filter((r) => r.kind !== 'Picture')
    .reverse()
    .find((r) =>
      r.kind === 'Group'
        ? scene.members(r.id).some((m) => containsPoint(rectOf(m), m.rotate, p))
        : containsPoint(rectOf(r), r.rotate, p),
    );

/** Records with the members of the groups among them. */
export const withMembers = (scene: Scene, records: readonly ComponentRecord[]): ComponentRecord[] =>
  records.flatMap((r) => (r.kind === 'Group' ? [r, ...scene.members(r.id)] : [r]));

/** The unlocked records (and their members) moved by dx, dy. */
export const translatedRecords = (
  scene: Scene,
  records: readonly ComponentRecord[],
  dx: number,
  dy: number,
): ComponentRecord[] =>
  withMembers(
    scene,
    records.filter((r) => !r.locked),
  ).map((r) => ({ ...r, left: r.left + dx, top: r.top + dy }));

/** What the gesture in progress would write on release (null: nothing, e.g. a drag-selection). */
export const gestureRecords = (scene: Scene, g: Gesture | null): ComponentRecord[] | null => {
  if (!g) return null;
  switch (g.type) {
    case 'translate':
      return translatedRecords(
        scene,
        g.ids.map((id) => scene.get(id)).filter((r): r is ComponentRecord => r !== undefined),
        g.dx,
        g.dy,
      );
    case 'resize':
    case 'rotate': {
      const record = scene.get(g.id);
      if (!record || record.locked) return [];
      return g.type === 'resize'
        ? resizedRecords(record, scene.members(g.id), g.rect)
        : rotatedRecords(record, scene.members(g.id), g.delta);
    }
    case 'brush':
      return null;
  }
};

/** The union of the moved components' bounds, and the boxes they snap to: the other top-level ones and the canvas. */
const snapBaseOf = (scene: Scene, ids: readonly string[]): { box: Rect | null; others: Rect[] } => {
  const moving = ids.map((id) => scene.get(id)).filter((r): r is ComponentRecord => r !== undefined);
  const moved = new Set(ids);
  const others = scene
    .all()
    .filter((r) => r.groupId === null && r.kind !== 'Picture' && !moved.has(r.id))
    .map((r) => rotatedBounds(rectOf(r), r.rotate));
  return {
    box: unionOf(moving.map((r) => rotatedBounds(rectOf(r), r.rotate))),
    others: [...others, scene.canvasRect()],
  };
};

/** The gesture after the pointer moved to `p`. Alt held while dragging turns snapping off. */
export const movedGesture = (scene: Scene, g: Gesture, p: Point, mods: Modifiers): Gesture => {
  switch (g.type) {
    case 'translate': {
      // Whole canvas pixels: through a zoomed view (the editor opens fitted) a screen pixel is a
      // fraction of one, and a drag would store 200.8.
      const dx = Math.round(p.x - g.start.x);
      const dy = Math.round(p.y - g.start.y);
      // The bounds of the moved set and of the others, once per drag rather than once per move
      // (2 000 components made this most of a move's script).
      const snapBase = g.snapBase ?? snapBaseOf(scene, g.ids);
      const { box, others } = snapBase;
      if (!box || mods.alt) return { ...g, snapBase, dx, dy, guides: [] };
      const snap = snapRect({ ...box, left: box.left + dx, top: box.top + dy }, others);
      return { ...g, snapBase, dx: dx + snap.dx, dy: dy + snap.dy, guides: snap.guides };
    }
    case 'resize':
      return {
        ...g,
        rect: resizeRect(scene.get(g.id)!, g.handle, Math.round(p.x - g.start.x), Math.round(p.y - g.start.y)),
      };
    case 'rotate': {
      const delta = angleAround(g.centre, p) - g.startAngle;
      // Shift turns in steps of 15°.
      return { ...g, delta: mods.shift ? Math.round(delta / 15) * 15 : delta };
    }
    case 'brush': {
      const rect = rectFromCorners(g.start, p);
      const ids = scene
        .topLevel()
        .filter((r) => !r.locked && r.kind !== 'Picture' && containsRect(rect, rotatedBounds(rectOf(r), r.rotate)))
        .map((r) => r.id);
      return { ...g, rect, ids };
    }
  }
};
