import type { EditorCore } from './editor-core.ts';
import type { Gesture, Modifiers, PointerTarget } from './editor-types.ts';
import { centreOf, type Point, rectFromCorners } from './geometry.ts';
import { componentAt, gestureRecords, movedGesture } from './gesture.ts';
import type { ComponentRecord } from './records.ts';
import type { Guide } from './snapping.ts';
import { angleAround, type Handle, handlePointOf, rectOf, sameRect } from './transforms.ts';

/**
 * The pointer gestures: a drag that moves the selection (with snapping), a resize, a rotation and a
 * drag-selection. The gesture in progress is a preview (the records it would write are worked out,
 * not stored); its release writes them as one undo step.
 */
export class GestureManager {
  readonly #core: EditorCore;
  #gesture: Gesture | null = null;
  #preview: { version: number; records: Map<string, ComponentRecord> } | null = null;

  constructor(core: EditorCore) {
    this.#core = core;
  }

  get current(): Gesture | null {
    return this.#gesture;
  }

  /** Forgets the gesture in progress without telling the view (the caller does). */
  drop(): void {
    this.#gesture = null;
  }

  /**
   * The records the gesture in progress would write, by id (what the view draws during a drag);
   * worked out once per change, however many components ask.
   */
  previewRecords(): ReadonlyMap<string, ComponentRecord> {
    const version = this.#core.version();
    if (this.#preview?.version !== version)
      this.#preview = {
        version,
        records: new Map((gestureRecords(this.#core.scene, this.#gesture) ?? []).map((r) => [r.id, r])),
      };
    return this.#preview.records;
  }

  /** Guide lines to draw for the drag in progress. */
  get guides(): Guide[] {
    return this.#gesture?.type === 'translate' ? this.#gesture.guides : [];
  }

  /** The top-most component under `p`; the background picture is not hit (a drag on it selects by area). */
  hitTest(p: Point): ComponentRecord | undefined {
    return componentAt(this.#core.scene, p);
  }

  /** Where a handle of a component lies on the canvas (its rotation applied). */
  handlePoint(id: string, handle: Handle | 'rotate'): Point {
    return handlePointOf(this.#core.store.get(id)!, handle);
  }

  pointerDown(p: Point, mods: Modifiers = {}, target?: PointerTarget): void {
    if (this.#core.mode() !== 'edit') return;
    const under = target ? undefined : this.hitTest(p);
    const hit: PointerTarget = target ?? (under ? { type: 'component', id: under.id } : { type: 'canvas' });
    if (hit.type === 'resize' || hit.type === 'rotate') this.#grabHandle(p, hit);
    else if (hit.type === 'canvas') {
      const base = mods.shift ? [...this.#core.selection()] : [];
      this.#gesture = { type: 'brush', start: p, rect: rectFromCorners(p, p), base, ids: [] };
      this.#core.changed();
    } else this.#grabComponent(p, hit.id, mods);
  }

  /** A resize or rotation handle of an unlocked component. */
  #grabHandle(p: Point, hit: Extract<PointerTarget, { type: 'resize' | 'rotate' }>): void {
    const record = this.#core.store.get(hit.id);
    if (!record || record.locked) return;
    if (hit.type === 'resize') {
      this.#gesture = { type: 'resize', start: p, id: hit.id, handle: hit.handle, rect: rectOf(record) };
    } else {
      const centre = centreOf(rectOf(record));
      this.#gesture = { type: 'rotate', id: hit.id, centre, startAngle: angleAround(centre, p), delta: 0 };
    }
    this.#core.changed();
  }

  /** A component: selects it (Shift toggles it), and a drag of the selection starts when it is selected. */
  #grabComponent(p: Point, hitId: string, mods: Modifiers): void {
    const core = this.#core;
    const record = core.store.get(hitId);
    if (!record) return;
    const id = record.groupId ?? record.id;
    const selection = core.selection();
    if (mods.shift) {
      core.select(selection.includes(id) ? selection.filter((s) => s !== id) : [...selection, id]);
    } else if (!selection.includes(id)) core.select([id]);
    const ids = core.movable().map((r) => r.id);
    if (ids.length > 0 && core.selection().includes(id))
      this.#gesture = { type: 'translate', start: p, ids, dx: 0, dy: 0, guides: [] };
  }

  /** Alt held while dragging turns snapping off. */
  pointerMove(p: Point, mods: Modifiers = {}): void {
    if (!this.#gesture) return;
    this.#gesture = movedGesture(this.#core.scene, this.#gesture, p, mods);
    this.#core.changed();
  }

  /** Ends the gesture: a drag, resize or rotation becomes one undo step; a drag-selection selects. */
  pointerUp(p: Point, mods: Modifiers = {}): void {
    if (!this.#gesture) return;
    this.pointerMove(p, mods);
    const core = this.#core;
    const g = this.#gesture;
    const result = gestureRecords(core.scene, this.#gesture);
    this.#gesture = null;
    if (g.type === 'brush') {
      core.select([...g.base, ...g.ids.filter((id) => !g.base.includes(id))]);
      return;
    }
    const unchanged =
      (g.type === 'translate' && g.dx === 0 && g.dy === 0) ||
      (g.type === 'rotate' && g.delta === 0) ||
      (g.type === 'resize' && result?.[0] !== undefined && sameRect(result[0], core.store.get(g.id)!));
    if (!unchanged && result) core.commit(g.type === 'translate' ? 'move' : g.type, result);
    core.changed();
  }

  /** Drops the gesture in progress (Escape), changing nothing. */
  cancel(): void {
    this.#gesture = null;
    this.#core.changed();
  }
}
