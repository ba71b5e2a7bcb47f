import type { AlignEdge, DistributeAxis } from './align.ts';
import { ClipboardManager } from './clipboard-manager.ts';
import type { EditorCore } from './editor-core.ts';
import type { EditorEvent, EditorOptions, Gesture, Modifiers, PointerTarget } from './editor-types.ts';
import type { Point, Rect } from './geometry.ts';
import { type Scene, withMembers } from './gesture.ts';
import { GestureManager } from './gesture-manager.ts';
import { History } from './history.ts';
import { LayerManager } from './layer-manager.ts';
import {
  type CanvasSettings,
  type ComponentKind,
  type ComponentRecord,
  createComponent,
  defaultCanvas,
} from './records.ts';
import type { Guide } from './snapping.ts';
import { Store } from './store.ts';
import { TransformManager } from './transform-manager.ts';
import { byZ, type Handle } from './transforms.ts';
import type { LayerMove } from './z-order.ts';

export { pasteOffset } from './clipboard.ts';
export * from './editor-types.ts';
export { type Handle, handles, parseScale, rescaleRecord, rotateHandleOffset } from './transforms.ts';

/**
 * The site-map editor's model: the records (store), their history, the selection and the mode, with
 * one manager per concern (tldraw's shape): `gestures` (pointer drags, resize, rotation,
 * drag-selection), `transforms` (move, align, distribute, resize and rotate by numbers, scale),
 * `layers` (order, grouping, locking) and `clipboard`. Pure TypeScript: the view feeds it pointer
 * and key events and renders what it answers. Every public method that changes records is one undo
 * step; the methods below that only delegate keep the command table and the view unaware of which
 * manager does what.
 */
export class Editor {
  readonly store = new Store();
  readonly history = new History(this.store);
  #selection: string[] = [];
  #mode: 'edit' | 'preview' = 'edit';
  #events = new Set<(event: EditorEvent) => void>();
  #subscribers = new Set<() => void>();
  #version = 0;
  #seq = 0;
  readonly #createId: () => string;
  readonly #scene: Scene = {
    get: (id) => this.store.get(id),
    all: () => this.store.all(),
    topLevel: () => this.topLevel(),
    members: (id) => this.members(id),
    canvasRect: () => this.canvasRect,
  };
  readonly #core: EditorCore = {
    store: this.store,
    history: this.history,
    scene: this.#scene,
    mode: () => this.#mode,
    version: () => this.#version,
    selection: () => this.#selection,
    select: (ids) => this.select(ids),
    selectedRecords: () => this.selectedRecords(),
    movable: () => this.selectedRecords().filter((r) => !r.locked),
    newId: () => this.#newId(),
    topZ: () => Math.max(0, ...this.topLevel().map((r) => r.zIndex)),
    message: (key) => this.#emit({ type: 'message', key }),
    changed: () => this.#changed(),
    commit: (name, records) => {
      if (records.length === 0) return;
      this.history.mark(name);
      this.store.put(records);
    },
  };
  readonly gestures = new GestureManager(this.#core);
  readonly transforms = new TransformManager(this.#core);
  readonly layers = new LayerManager(this.#core);
  readonly clipboard = new ClipboardManager(this.#core);

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
    return this.gestures.current;
  }

  get canvas(): CanvasSettings {
    return this.store.canvas;
  }

  get hasClipboard(): boolean {
    return this.clipboard.filled;
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
    this.gestures.drop();
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
    const zIndex = kind === 'Picture' ? 0 : this.#core.topZ() + 1;
    this.history.mark('add');
    this.store.put([createComponent(id, kind, { zIndex, ...fields })]);
    this.select([id]);
    return id;
  }

  /** Changes fields of one component (the attribute panel). */
  updateComponent(id: string, patch: Partial<Omit<ComponentRecord, 'id'>>): void {
    const record = this.store.get(id);
    if (record) this.#core.commit('update', [{ ...record, ...patch }]);
  }

  /** Deletes the selected components and the members of selected groups; locked ones stay. */
  deleteSelected(): void {
    const doomed = this.selectedRecords().filter((r) => !r.locked);
    if (doomed.length === 0) return;
    this.history.mark('delete');
    this.store.remove(withMembers(this.#scene, doomed).map((r) => r.id));
  }

  /** Asks the host to save; a canvas without a background picture answers 机房背景图不可缺少！ instead. */
  save(): void {
    if (!this.store.all().some((r) => r.kind === 'Picture')) {
      this.#core.message('editor.messages.backgroundRequired');
      return;
    }
    this.#emit({ type: 'save' });
  }

  preview(): void {
    this.gestures.drop();
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

  // ── delegated to the managers ──────────────────────────────────────────────────────────────────

  copy(): void {
    this.clipboard.copy();
  }
  cut(): void {
    this.clipboard.cut();
  }
  paste(at?: Point): void {
    this.clipboard.paste(at);
  }

  reorder(move: LayerMove): void {
    this.layers.reorder(move);
  }
  get canGroup(): boolean {
    return this.layers.canGroup;
  }
  get canUngroup(): boolean {
    return this.layers.canUngroup;
  }
  group(): void {
    this.layers.group();
  }
  ungroup(): void {
    this.layers.ungroup();
  }
  lock(): void {
    this.layers.lock();
  }
  unlock(): void {
    this.layers.unlock();
  }

  moveSelection(dx: number, dy: number, name = 'move'): void {
    this.transforms.moveSelection(dx, dy, name);
  }
  /** Arrow keys: 1 px, 10 px with Shift. */
  nudge(dx: number, dy: number): void {
    this.transforms.moveSelection(dx, dy, 'nudge');
  }
  canArrange(least: 2 | 3): boolean {
    return this.transforms.canArrange(least);
  }
  align(edge: AlignEdge): void {
    this.transforms.align(edge);
  }
  distribute(axis: DistributeAxis): void {
    this.transforms.distribute(axis);
  }
  resize(id: string, rect: Rect): void {
    this.transforms.resize(id, rect);
  }
  rotate(id: string, degrees: number): void {
    this.transforms.rotate(id, degrees);
  }
  setScale(scale: number): void {
    this.transforms.setScale(scale);
  }
  setCanvasSize(width: number, height: number): void {
    this.transforms.setCanvasSize(width, height);
  }

  previewRecords(): ReadonlyMap<string, ComponentRecord> {
    return this.gestures.previewRecords();
  }
  /** The record as the gesture in progress would leave it. */
  previewOf(id: string): ComponentRecord | undefined {
    return this.gestures.previewRecords().get(id) ?? this.store.get(id);
  }
  get guides(): Guide[] {
    return this.gestures.guides;
  }
  hitTest(p: Point): ComponentRecord | undefined {
    return this.gestures.hitTest(p);
  }
  handlePoint(id: string, handle: Handle | 'rotate'): Point {
    return this.gestures.handlePoint(id, handle);
  }
  pointerDown(p: Point, mods: Modifiers = {}, target?: PointerTarget): void {
    this.gestures.pointerDown(p, mods, target);
  }
  pointerMove(p: Point, mods: Modifiers = {}): void {
    this.gestures.pointerMove(p, mods);
  }
  pointerUp(p: Point, mods: Modifiers = {}): void {
    this.gestures.pointerUp(p, mods);
  }
  cancelGesture(): void {
    this.gestures.cancel();
  }
}
