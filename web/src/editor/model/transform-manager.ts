import { type AlignEdge, alignShifts, type DistributeAxis, distributeShifts, type Shift } from './align.ts';
import type { EditorCore } from './editor-core.ts';
import type { Rect } from './geometry.ts';
import { translatedRecords } from './gesture.ts';
import type { ComponentRecord } from './records.ts';
import { rescaleRecord, resizedRecords, rotatedRecords } from './transforms.ts';

/**
 * The transforms given by command or panel rather than by the pointer: move and nudge, align and
 * distribute, resize and rotate by numbers, the canvas scale and size. Each is one undo step; locked
 * components stay where they are.
 */
export class TransformManager {
  readonly #core: EditorCore;

  constructor(core: EditorCore) {
    this.#core = core;
  }

  /** Moves the unlocked selected components (and their members) by dx, dy. */
  moveSelection(dx: number, dy: number, name = 'move'): void {
    if (dx === 0 && dy === 0) return;
    this.#core.commit(name, translatedRecords(this.#core.scene, this.#core.movable(), dx, dy));
  }

  /** The selected components that align and distribute act on (never the background picture). */
  #arrangeable(): ComponentRecord[] {
    return this.#core.selectedRecords().filter((r) => r.kind !== 'Picture');
  }

  /** Align needs two components, distribute three; locked ones count but at least one must move. */
  canArrange(least: 2 | 3): boolean {
    const chosen = this.#arrangeable();
    return chosen.length >= least && chosen.some((r) => !r.locked);
  }

  /** Lines the selection up on an edge or centre of its bounds, in one step; locked ones stay. */
  align(edge: AlignEdge): void {
    if (this.canArrange(2)) this.#shift(alignShifts(this.#arrangeable(), edge), 'align');
  }

  /** Spreads three or more selected components with equal gaps, in one step; locked ones stay. */
  distribute(axis: DistributeAxis): void {
    if (this.canArrange(3)) this.#shift(distributeShifts(this.#arrangeable(), axis), 'distribute');
  }

  #shift(shifts: readonly Shift[], name: string): void {
    const { store, scene } = this.#core;
    const result = shifts.flatMap((s) => {
      const record = store.get(s.id);
      return record ? translatedRecords(scene, [record], s.dx, s.dy) : [];
    });
    this.#core.commit(name, result);
  }

  /** Gives a component a new rectangle; a group's members scale with it. Locked: nothing. */
  resize(id: string, rect: Rect): void {
    const record = this.#core.store.get(id);
    if (!record || record.locked) return;
    this.#core.commit('resize', resizedRecords(record, this.#core.scene.members(id), rect));
  }

  /** Turns a component to `degrees`; a group turns its members around its centre. Locked: nothing. */
  rotate(id: string, degrees: number): void {
    const record = this.#core.store.get(id);
    if (!record || record.locked) return;
    this.#core.commit('rotate', rotatedRecords(record, this.#core.scene.members(id), degrees - record.rotate));
  }

  /**
   * Changes the canvas scale (percent) and rescales top, left, width, height, fontSize and
   * borderWidth of every component by new/old, in one step. The 1 s debounce belongs to the view.
   */
  setScale(scale: number): void {
    const { store, history } = this.#core;
    const before = store.canvas.scale;
    if (!(scale > 0) || scale === before) return;
    const factor = scale / before;
    history.mark('scale');
    store.put(store.all().map((r) => rescaleRecord(r, factor)));
    store.setCanvas({ ...store.canvas, scale });
  }

  setCanvasSize(width: number, height: number): void {
    if (!(width > 0 && height > 0)) return;
    this.#core.history.mark('canvas');
    this.#core.store.setCanvas({ ...this.#core.store.canvas, width, height });
  }
}
