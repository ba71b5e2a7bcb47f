import { type Diff, emptyDiff, invertDiff, isEmptyDiff, type Store, squashDiffs } from './store.ts';

interface Step {
  id: string;
  name: string;
  diff: Diff;
}

/**
 * Undo and redo by diffs between marks (tldraw's HistoryManager shape). `mark(name)` starts a step;
 * every change the user makes through the store until the next mark folds into it, so one command
 * is one undo step. Undo applies the inverse diff, redo the diff itself: redo restores exactly what
 * undo took away (the spec's source empties the canvas on redo; we do not copy that).
 * A step that changed nothing is no undo step, and only a recorded change drops the redo branch.
 */
export class History {
  #undos: Step[] = [];
  #redos: Step[] = [];
  #open: Step | null = null;
  #ignoring = 0;
  #seq = 0;
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
    store.listen((diff, source) => {
      if (source === 'user' && this.#ignoring === 0) this.#record(diff);
    });
  }

  /** Starts a new undo step named `name`; returns its id for `bailToMark`. */
  mark(name: string): string {
    this.#dropEmptyTop();
    const step: Step = { id: `${name}#${++this.#seq}`, name, diff: emptyDiff() };
    this.#undos.push(step);
    this.#open = step;
    return step.id;
  }

  #record(diff: Diff): void {
    if (!this.#open) this.mark('change');
    const open = this.#open!;
    open.diff = squashDiffs(open.diff, diff);
    this.#redos = [];
  }

  #dropEmptyTop(): void {
    while (this.#undos.length > 0 && isEmptyDiff(this.#undos.at(-1)!.diff)) this.#undos.pop();
  }

  get canUndo(): boolean {
    return this.#undos.some((s) => !isEmptyDiff(s.diff));
  }

  get canRedo(): boolean {
    return this.#redos.length > 0;
  }

  /** Names of the undo steps, oldest first (for tests and a history panel). */
  get undoNames(): string[] {
    return this.#undos.filter((s) => !isEmptyDiff(s.diff)).map((s) => s.name);
  }

  get redoNames(): string[] {
    return this.#redos.map((s) => s.name).reverse();
  }

  /** Reverts the latest step; false when there is none. */
  undo(): boolean {
    this.#dropEmptyTop();
    const step = this.#undos.pop();
    this.#open = null;
    if (!step) return false;
    this.#store.applyDiff(invertDiff(step.diff), 'history');
    this.#redos.push(step);
    return true;
  }

  /** Re-applies the latest undone step exactly; false when there is none. */
  redo(): boolean {
    const step = this.#redos.pop();
    this.#open = null;
    if (!step) return false;
    this.#store.applyDiff(step.diff, 'history');
    this.#undos.push(step);
    return true;
  }

  /** Reverts everything since the mark `id` (included) and forgets it, keeping no redo (a cancelled gesture). */
  bailToMark(id: string): void {
    const index = this.#undos.findIndex((s) => s.id === id);
    if (index < 0) return;
    for (const step of this.#undos.splice(index).reverse()) this.#store.applyDiff(invertDiff(step.diff), 'history');
    this.#open = null;
  }

  /** Runs `fn` without recording its changes (loading a scene). */
  ignore<T>(fn: () => T): T {
    this.#ignoring++;
    try {
      return fn();
    } finally {
      this.#ignoring--;
    }
  }

  clear(): void {
    this.#undos = [];
    this.#redos = [];
    this.#open = null;
  }
}
