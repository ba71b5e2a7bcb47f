import { type CanvasSettings, type ComponentRecord, defaultCanvas } from './records.ts';

/**
 * What one change did: records added, updated (before, after) and removed, and the canvas settings
 * (before, after). A diff is bytes, not a copy of the canvas, and it inverts exactly.
 */
export interface Diff {
  added: Record<string, ComponentRecord>;
  updated: Record<string, [ComponentRecord, ComponentRecord]>;
  removed: Record<string, ComponentRecord>;
  canvas: [CanvasSettings, CanvasSettings] | null;
}

/** Who made a change: the user through the model, the history undoing or redoing, or a (re)load. */
export type ChangeSource = 'user' | 'history' | 'load';

export const emptyDiff = (): Diff => ({ added: {}, updated: {}, removed: {}, canvas: null });

export const isEmptyDiff = (d: Diff): boolean =>
  d.canvas === null &&
  Object.keys(d.added).length === 0 &&
  Object.keys(d.updated).length === 0 &&
  Object.keys(d.removed).length === 0;

/** The diff that undoes `d`. */
export const invertDiff = (d: Diff): Diff => ({
  added: { ...d.removed },
  removed: { ...d.added },
  updated: Object.fromEntries(Object.entries(d.updated).map(([id, [before, after]]) => [id, [after, before]])),
  canvas: d.canvas ? [d.canvas[1], d.canvas[0]] : null,
});

/** One diff doing what `a` then `b` do; a record added then removed leaves no trace. */
export const squashDiffs = (a: Diff, b: Diff): Diff => {
  const out: Diff = {
    added: { ...a.added },
    updated: { ...a.updated },
    removed: { ...a.removed },
    canvas: a.canvas,
  };
  for (const [id, record] of Object.entries(b.added)) {
    const gone = out.removed[id];
    if (gone) {
      delete out.removed[id];
      out.updated[id] = [gone, record];
    } else out.added[id] = record;
  }
  for (const [id, [before, after]] of Object.entries(b.updated)) {
    const added = out.added[id];
    const updated = out.updated[id];
    if (added) out.added[id] = after;
    else if (updated) out.updated[id] = [updated[0], after];
    else out.updated[id] = [before, after];
  }
  for (const [id, record] of Object.entries(b.removed)) {
    const updated = out.updated[id];
    if (out.added[id]) delete out.added[id];
    else if (updated) {
      delete out.updated[id];
      out.removed[id] = updated[0];
    } else out.removed[id] = record;
  }
  if (b.canvas) out.canvas = out.canvas ? [out.canvas[0], b.canvas[1]] : b.canvas;
  return out;
};

export type StoreListener = (diff: Diff, source: ChangeSource) => void;

/** The records on the canvas and the canvas settings; every change goes out to listeners as a diff. */
export class Store {
  #records = new Map<string, ComponentRecord>();
  #canvas: CanvasSettings = defaultCanvas;
  #listeners = new Set<StoreListener>();

  get canvas(): CanvasSettings {
    return this.#canvas;
  }

  get(id: string): ComponentRecord | undefined {
    return this.#records.get(id);
  }

  has(id: string): boolean {
    return this.#records.has(id);
  }

  /** Every record, in no particular order. */
  all(): ComponentRecord[] {
    return [...this.#records.values()];
  }

  get size(): number {
    return this.#records.size;
  }

  /** Adds or replaces records. */
  put(records: readonly ComponentRecord[], source: ChangeSource = 'user'): void {
    const diff = emptyDiff();
    for (const record of records) {
      const before = this.#records.get(record.id);
      if (before === record) continue;
      if (before) diff.updated[record.id] = [before, record];
      else diff.added[record.id] = record;
    }
    this.applyDiff(diff, source);
  }

  remove(ids: readonly string[], source: ChangeSource = 'user'): void {
    const diff = emptyDiff();
    for (const id of ids) {
      const record = this.#records.get(id);
      if (record) diff.removed[id] = record;
    }
    this.applyDiff(diff, source);
  }

  setCanvas(canvas: CanvasSettings, source: ChangeSource = 'user'): void {
    const before = this.#canvas;
    if (before.width === canvas.width && before.height === canvas.height && before.scale === canvas.scale) return;
    this.applyDiff({ ...emptyDiff(), canvas: [before, canvas] }, source);
  }

  /** Applies a diff as it is (undo and redo use this); an empty diff tells nobody. */
  applyDiff(diff: Diff, source: ChangeSource = 'user'): void {
    if (isEmptyDiff(diff)) return;
    for (const id of Object.keys(diff.removed)) this.#records.delete(id);
    for (const [id, record] of Object.entries(diff.added)) this.#records.set(id, record);
    for (const [id, [, after]] of Object.entries(diff.updated)) this.#records.set(id, after);
    if (diff.canvas) this.#canvas = diff.canvas[1];
    for (const listener of this.#listeners) listener(diff, source);
  }

  listen(listener: StoreListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The whole content as plain data, sorted by id: what tests compare. */
  snapshot(): { canvas: CanvasSettings; records: ComponentRecord[] } {
    return { canvas: this.#canvas, records: this.all().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
  }
}
