import { type AlignEdge, alignShifts, type DistributeAxis, distributeShifts, type Shift } from './align.ts';
import { type Clip, pasteClip } from './clipboard.ts';
import type { EditorEvent, EditorOptions, Gesture, Modifiers, PointerTarget } from './editor-types.ts';
import { centreOf, type Point, type Rect, rectFromCorners, rotatedBounds, unionOf } from './geometry.ts';
import { componentAt, gestureRecords, movedGesture, type Scene, translatedRecords, withMembers } from './gesture.ts';
import { History } from './history.ts';
import type { MessageKey } from './messages.ts';
import {
  type CanvasSettings,
  type ComponentKind,
  type ComponentRecord,
  createComponent,
  defaultCanvas,
} from './records.ts';
import type { Guide } from './snapping.ts';
import { Store } from './store.ts';
import {
  angleAround,
  byZ,
  type Handle,
  handlePointOf,
  rectOf,
  rescaleRecord,
  resizedRecords,
  rotatedRecords,
  sameRect,
} from './transforms.ts';
import { type LayerMove, layerTarget } from './z-order.ts';

export { pasteOffset } from './clipboard.ts';
export * from './editor-types.ts';
export { type Handle, handles, parseScale, rescaleRecord, rotateHandleOffset } from './transforms.ts';

/**
 * The site-map editor's model: the records (store), their history, the selection, the clipboard,
 * the gesture in progress and the mode. Pure TypeScript: the view feeds it pointer and key events
 * and renders what it answers. Every public method that changes records is one undo step.
 */
export class Editor {
  readonly store = new Store();
  readonly history = new History(this.store);
  #selection: string[] = [];
  #clipboard: Clip | null = null;
  #gesture: Gesture | null = null;
  #mode: 'edit' | 'preview' = 'edit';
  #events = new Set<(event: EditorEvent) => void>();
  #subscribers = new Set<() => void>();
  #version = 0;
  #preview: { version: number; records: Map<string, ComponentRecord> } | null = null;
  #seq = 0;
  readonly #createId: () => string;
  /** What the pure gesture and transform functions read of the scene. */
  readonly #scene: Scene = {
    get: (id) => this.store.get(id),
    all: () => this.store.all(),
    topLevel: () => this.topLevel(),
    members: (id) => this.members(id),
    canvasRect: () => this.canvasRect,
  };

  constructor(options: EditorOptions = {}) {
    this.#createId = options.createId ?? (() => `n${++this.#seq}`);
    this.store.listen(() => {
      // Undo may remove what was selected, or put it back into a group: the selection keeps only
      // existing top-level components (a member stands for its group).
      const kept = this.#topLevelIds(this.#selection);
      if (kept.length !== this.#selection.length || kept.some((id, i) => id !== this.#selection[i]))
        this.#selection = kept;
      this.#changed();
    });
  }

  // ── state ──────────────────────────────────────────────────────────────────────────────────────

  get selection(): readonly string[] {
    return this.#selection;
  }

  get mode(): 'edit' | 'preview' {
    return this.#mode;
  }

  get gesture(): Gesture | null {
    return this.#gesture;
  }

  get canvas(): CanvasSettings {
    return this.store.canvas;
  }

  get hasClipboard(): boolean {
    return this.#clipboard !== null;
  }

  /** Grows on every change of records or state (for useSyncExternalStore). */
  get version(): number {
    return this.#version;
  }

  /** Listens to messages and host actions. */
  on(listener: (event: EditorEvent) => void): () => void {
    this.#events.add(listener);
    return () => this.#events.delete(listener);
  }

  /** Listens to any change of records or state. */
  subscribe(listener: () => void): () => void {
    this.#subscribers.add(listener);
    return () => this.#subscribers.delete(listener);
  }

  #emit(event: EditorEvent): void {
    for (const listener of this.#events) listener(event);
  }

  #message(key: MessageKey): void {
    this.#emit({ type: 'message', key });
  }

  #changed(): void {
    this.#version++;
    for (const listener of this.#subscribers) listener();
  }

  get(id: string): ComponentRecord | undefined {
    return this.store.get(id);
  }

  /** Top-level components (not inside a group), bottom first. */
  topLevel(): ComponentRecord[] {
    return this.store
      .all()
      .filter((r) => r.groupId === null)
      .sort(byZ);
  }

  /** Members of a group, bottom first. */
  members(groupId: string): ComponentRecord[] {
    return this.store
      .all()
      .filter((r) => r.groupId === groupId)
      .sort(byZ);
  }

  selectedRecords(): ComponentRecord[] {
    return this.#selection.map((id) => this.store.get(id)).filter((r): r is ComponentRecord => r !== undefined);
  }

  /** Whether any selected component is locked: then only the commands that allow it work. */
  get selectionLocked(): boolean {
    return this.selectedRecords().some((r) => r.locked);
  }

  /**
   * The records the gesture in progress would write, by id (what the view draws during a drag);
   * worked out once per change, however many components ask.
   */
  previewRecords(): ReadonlyMap<string, ComponentRecord> {
    if (this.#preview?.version !== this.#version)
      this.#preview = {
        version: this.#version,
        records: new Map((gestureRecords(this.#scene, this.#gesture) ?? []).map((r) => [r.id, r])),
      };
    return this.#preview.records;
  }

  /** The record as the gesture in progress would leave it. */
  previewOf(id: string): ComponentRecord | undefined {
    return this.previewRecords().get(id) ?? this.store.get(id);
  }

  /** Guide lines to draw for the drag in progress. */
  get guides(): Guide[] {
    return this.#gesture?.type === 'translate' ? this.#gesture.guides : [];
  }

  /** The canvas as drawn: its size at the current scale. */
  get canvasRect(): Rect {
    const { width, height, scale } = this.store.canvas;
    return { left: 0, top: 0, width: (width * scale) / 100, height: (height * scale) / 100 };
  }

  // ── loading ────────────────────────────────────────────────────────────────────────────────────

  /** Replaces the whole scene (a load or a reload after save): not undoable, history starts afresh. */
  load(records: readonly ComponentRecord[], canvas: CanvasSettings = defaultCanvas): void {
    this.history.ignore(() => {
      this.store.remove(
        this.store.all().map((r) => r.id),
        'load',
      );
      this.store.put(records, 'load');
      this.store.setCanvas(canvas, 'load');
    });
    this.history.clear();
    this.#selection = [];
    this.#gesture = null;
    this.#changed();
  }

  #newId(): string {
    let id = this.#createId();
    while (this.store.has(id)) id = this.#createId();
    return id;
  }

  // ── selection ──────────────────────────────────────────────────────────────────────────────────

  /** Selects components; a group member stands for its group. */
  select(ids: readonly string[]): void {
    this.#selection = this.#topLevelIds(ids);
    this.#changed();
  }

  #topLevelIds(ids: readonly string[]): string[] {
    const resolved: string[] = [];
    for (const id of ids) {
      const record = this.store.get(id);
      if (!record) continue;
      const top = record.groupId ?? record.id;
      if (this.store.has(top) && !resolved.includes(top)) resolved.push(top);
    }
    return resolved;
  }

  selectNone(): void {
    this.select([]);
  }

  // ── commands: each public method below that changes records is one undo step ──────────────────

  undo(): void {
    this.history.undo();
  }

  redo(): void {
    this.history.redo();
  }

  /** Drops a new component on the canvas (the spec's isNew: no server id yet), above the others. */
  addComponent(kind: ComponentKind, fields: Partial<Omit<ComponentRecord, 'id' | 'kind'>> = {}): string {
    const id = this.#newId();
    const zIndex = kind === 'Picture' ? 0 : this.#topZ() + 1;
    this.history.mark('add');
    this.store.put([createComponent(id, kind, { zIndex, ...fields })]);
    this.select([id]);
    return id;
  }

  /** Changes fields of one component (the attribute panel). */
  updateComponent(id: string, patch: Partial<Omit<ComponentRecord, 'id'>>): void {
    const record = this.store.get(id);
    if (!record) return;
    this.history.mark('update');
    this.store.put([{ ...record, ...patch }]);
  }

  /** Deletes the selected components and the members of selected groups; locked ones stay. */
  deleteSelected(): void {
    const doomed = this.selectedRecords().filter((r) => !r.locked);
    if (doomed.length === 0) return;
    this.history.mark('delete');
    this.store.remove(withMembers(this.#scene, doomed).map((r) => r.id));
  }

  /** Copies the selection; nothing selected answers 请选择组件. */
  copy(): void {
    const chosen = this.selectedRecords();
    if (chosen.length === 0) {
      this.#message('editor.messages.selectComponent');
      return;
    }
    this.#clipboard = { records: structuredClone(withMembers(this.#scene, chosen)), cut: false };
    this.#changed();
  }

  /** Copies the selection and removes it in one step; the paste after a cut empties the clipboard. */
  cut(): void {
    const chosen = this.selectedRecords().filter((r) => !r.locked);
    if (chosen.length === 0) {
      this.#message('editor.messages.selectComponent');
      return;
    }
    const all = withMembers(this.#scene, chosen);
    this.#clipboard = { records: structuredClone(all), cut: true };
    this.history.mark('cut');
    this.store.remove(all.map((r) => r.id));
  }

  /**
   * Pastes the clipboard 10 px right of and below the last paste (or with its top-left corner at
   * `at`, for the context menu's paste here), under new ids, above everything, selected.
   */
  paste(at?: Point): void {
    const clip = this.#clipboard;
    if (!clip) {
      this.#message('editor.messages.selectComponent');
      return;
    }
    const { pasted, next } = pasteClip(clip, at, () => this.#newId(), this.#topZ());
    this.#clipboard = next;
    this.history.mark('paste');
    this.store.put(pasted);
    this.select(pasted.filter((r) => r.groupId === null).map((r) => r.id));
  }

  // z-order: the background Picture always lies beneath and takes no part.

  #stackOf(record: ComponentRecord): ComponentRecord[] {
    const siblings = record.groupId === null ? this.topLevel() : this.members(record.groupId);
    return siblings.filter((r) => r.kind !== 'Picture');
  }

  #topZ(): number {
    return Math.max(0, ...this.topLevel().map((r) => r.zIndex));
  }

  /** Writes zIndex 1…n in the given order, touching only the records whose number changes. */
  #restack(ordered: readonly ComponentRecord[]): void {
    this.store.put(ordered.map((r, i) => (r.zIndex === i + 1 ? r : { ...r, zIndex: i + 1 })));
  }

  /** Moves the one selected component a layer or to an end; at the end says 已经到顶了 / 已经到底了. */
  reorder(move: LayerMove): void {
    const record = this.selectedRecords()[0];
    if (!record || record.kind === 'Picture') return;
    const stack = this.#stackOf(record);
    const index = stack.findIndex((r) => r.id === record.id);
    const target = layerTarget(move, index, stack.length);
    if (target === null) {
      this.#message(move === 'raise' || move === 'top' ? 'editor.messages.atTop' : 'editor.messages.atBottom');
      return;
    }
    stack.splice(index, 1);
    stack.splice(target, 0, record);
    this.history.mark(move);
    this.#restack(stack);
  }

  /** Whether the selection may be grouped: two or more components, none locked. */
  get canGroup(): boolean {
    const chosen = this.selectedRecords();
    return chosen.length >= 2 && !chosen.some((r) => r.locked || r.kind === 'Picture');
  }

  /** Whether the selection is one unlocked Group (001 §4: ungroup only then). */
  get canUngroup(): boolean {
    const chosen = this.selectedRecords();
    return chosen.length === 1 && chosen[0]!.kind === 'Group' && !chosen[0]!.locked;
  }

  /**
   * Groups the selection into one Group around their bounds; groups in the selection dissolve into
   * the new one (one level of grouping, as the spec's source). Members keep their order.
   */
  group(): void {
    if (!this.canGroup) return;
    const chosen = this.selectedRecords().sort(byZ);
    const members = chosen.flatMap((r) => (r.kind === 'Group' ? this.members(r.id) : [r]));
    const box = unionOf(members.map((r) => rotatedBounds(rectOf(r), r.rotate)))!;
    const id = this.#newId();
    const group = createComponent(id, 'Group', {
      ...box,
      // Not a device-type component (type 0 is); 1 as other non-device components.
      type: 1,
      zIndex: Math.max(...chosen.map((r) => r.zIndex)),
    });
    this.history.mark('group');
    this.store.remove(chosen.filter((r) => r.kind === 'Group').map((r) => r.id));
    this.store.put([group, ...members.map((r, i) => ({ ...r, groupId: id, zIndex: i + 1 }))]);
    this.select([id]);
  }

  /** Dissolves the selected Group; its members take its place in the stack and become the selection. */
  ungroup(): void {
    if (!this.canUngroup) return;
    const group = this.selectedRecords()[0]!;
    const members = this.members(group.id).map((r) => ({ ...r, groupId: null }));
    const stack = this.#stackOf(group);
    const index = stack.findIndex((r) => r.id === group.id);
    stack.splice(index, 1, ...members);
    this.history.mark('ungroup');
    this.store.remove([group.id]);
    this.store.put(members);
    this.#restack(stack);
    this.select(members.map((r) => r.id));
  }

  lock(): void {
    const open = this.selectedRecords().filter((r) => !r.locked);
    if (open.length === 0) return;
    this.history.mark('lock');
    this.store.put(open.map((r) => ({ ...r, locked: true })));
  }

  unlock(): void {
    const shut = this.selectedRecords().filter((r) => r.locked);
    if (shut.length === 0) return;
    this.history.mark('unlock');
    this.store.put(shut.map((r) => ({ ...r, locked: false })));
  }

  /** Moves the unlocked selected components (and their members) by dx, dy. */
  moveSelection(dx: number, dy: number, name = 'move'): void {
    const result = translatedRecords(this.#scene, this.#movable(), dx, dy);
    if (result.length === 0 || (dx === 0 && dy === 0)) return;
    this.history.mark(name);
    this.store.put(result);
  }

  /** The selected components that align and distribute act on (never the background picture). */
  #arrangeable(): ComponentRecord[] {
    return this.selectedRecords().filter((r) => r.kind !== 'Picture');
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
    const result = shifts.flatMap((s) => {
      const record = this.store.get(s.id);
      return record ? translatedRecords(this.#scene, [record], s.dx, s.dy) : [];
    });
    if (result.length === 0) return;
    this.history.mark(name);
    this.store.put(result);
  }

  /** Arrow keys: 1 px, 10 px with Shift. */
  nudge(dx: number, dy: number): void {
    this.moveSelection(dx, dy, 'nudge');
  }

  /** Gives a component a new rectangle; a group's members scale with it. Locked: nothing. */
  resize(id: string, rect: Rect): void {
    const record = this.store.get(id);
    const result = !record || record.locked ? [] : resizedRecords(record, this.members(id), rect);
    if (result.length === 0) return;
    this.history.mark('resize');
    this.store.put(result);
  }

  /** Turns a component to `degrees`; a group turns its members around its centre. Locked: nothing. */
  rotate(id: string, degrees: number): void {
    const record = this.store.get(id);
    if (!record) return;
    const result = record.locked ? [] : rotatedRecords(record, this.members(id), degrees - record.rotate);
    if (result.length === 0) return;
    this.history.mark('rotate');
    this.store.put(result);
  }

  /**
   * Changes the canvas scale (percent) and rescales top, left, width, height, fontSize and
   * borderWidth of every component by new/old, in one step. The 1 s debounce belongs to the view.
   */
  setScale(scale: number): void {
    const before = this.store.canvas.scale;
    if (!(scale > 0) || scale === before) return;
    const factor = scale / before;
    this.history.mark('scale');
    this.store.put(this.store.all().map((r) => rescaleRecord(r, factor)));
    this.store.setCanvas({ ...this.store.canvas, scale });
  }

  setCanvasSize(width: number, height: number): void {
    if (!(width > 0 && height > 0)) return;
    this.history.mark('canvas');
    this.store.setCanvas({ ...this.store.canvas, width, height });
  }

  /** Asks the host to save; a canvas without a background picture answers 机房背景图不可缺少！ instead. */
  save(): void {
    if (!this.store.all().some((r) => r.kind === 'Picture')) {
      this.#message('editor.messages.backgroundRequired');
      return;
    }
    this.#emit({ type: 'save' });
  }

  preview(): void {
    this.#gesture = null;
    this.#mode = 'preview';
    this.#emit({ type: 'preview' });
    this.#changed();
  }

  closePreview(): void {
    this.#mode = 'edit';
    this.#changed();
  }

  /** Asks the host to clear the site (it confirms, deletes on the server, then loads the empty scene). */
  clear(): void {
    this.#emit({ type: 'clear' });
  }

  // ── geometry of changes (pure: answer the records to write) ────────────────────────────────────

  #movable(): ComponentRecord[] {
    return this.selectedRecords().filter((r) => !r.locked);
  }

  // ── pointer ────────────────────────────────────────────────────────────────────────────────────

  /** The top-most component under `p`; the background picture is not hit (a drag on it selects by area). */
  hitTest(p: Point): ComponentRecord | undefined {
    return componentAt(this.#scene, p);
  }

  /** Where a handle of a component lies on the canvas (its rotation applied). */
  handlePoint(id: string, handle: Handle | 'rotate'): Point {
    return handlePointOf(this.store.get(id)!, handle);
  }

  pointerDown(p: Point, mods: Modifiers = {}, target?: PointerTarget): void {
    if (this.#mode !== 'edit') return;
    const under = target ? undefined : this.hitTest(p);
    const hit: PointerTarget = target ?? (under ? { type: 'component', id: under.id } : { type: 'canvas' });
    if (hit.type === 'resize' || hit.type === 'rotate') {
      const record = this.store.get(hit.id);
      if (!record || record.locked) return;
      this.#gesture =
        hit.type === 'resize'
          ? { type: 'resize', start: p, id: hit.id, handle: hit.handle, rect: rectOf(record) }
          : (() => {
              const centre = centreOf(rectOf(record));
              return { type: 'rotate', id: hit.id, centre, startAngle: angleAround(centre, p), delta: 0 };
            })();
      this.#changed();
      return;
    }
    if (hit.type === 'canvas') {
      const base = mods.shift ? [...this.#selection] : [];
      this.#gesture = { type: 'brush', start: p, rect: rectFromCorners(p, p), base, ids: [] };
      this.#changed();
      return;
    }
    const record = this.store.get(hit.id);
    if (!record) return;
    const id = record.groupId ?? record.id;
    if (mods.shift) {
      this.select(this.#selection.includes(id) ? this.#selection.filter((s) => s !== id) : [...this.#selection, id]);
    } else if (!this.#selection.includes(id)) this.select([id]);
    const ids = this.#movable().map((r) => r.id);
    if (ids.length > 0 && this.#selection.includes(id))
      this.#gesture = { type: 'translate', start: p, ids, dx: 0, dy: 0, guides: [] };
  }

  /** Alt held while dragging turns snapping off. */
  pointerMove(p: Point, mods: Modifiers = {}): void {
    if (!this.#gesture) return;
    this.#gesture = movedGesture(this.#scene, this.#gesture, p, mods);
    this.#changed();
  }

  /** Ends the gesture: a drag, resize or rotation becomes one undo step; a drag-selection selects. */
  pointerUp(p: Point, mods: Modifiers = {}): void {
    if (!this.#gesture) return;
    this.pointerMove(p, mods);
    const g = this.#gesture;
    const result = gestureRecords(this.#scene, this.#gesture);
    this.#gesture = null;
    if (g.type === 'brush') {
      this.select([...g.base, ...g.ids.filter((id) => !g.base.includes(id))]);
      return;
    }
    const unchanged =
      (g.type === 'translate' && g.dx === 0 && g.dy === 0) ||
      (g.type === 'rotate' && g.delta === 0) ||
      (g.type === 'resize' && result?.[0] !== undefined && sameRect(result[0], this.store.get(g.id)!));
    if (!unchanged && result && result.length > 0) {
      this.history.mark(g.type === 'translate' ? 'move' : g.type);
      this.store.put(result);
    }
    this.#changed();
  }

  /** Drops the gesture in progress (Escape), changing nothing. */
  cancelGesture(): void {
    this.#gesture = null;
    this.#changed();
  }
}
