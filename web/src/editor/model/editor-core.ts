import type { Scene } from './gesture.ts';
import type { History } from './history.ts';
import type { MessageKey } from './messages.ts';
import type { ComponentRecord } from './records.ts';
import type { Store } from './store.ts';

/**
 * What the editor's managers share of it (tldraw's managers hold their editor the same way): the
 * records, their history, the selection and the editor's signals. Each manager owns one concern
 * (gestures, transforms, layers, clipboard) and writes records only through the store, with one
 * history mark per user action.
 */
export interface EditorCore {
  readonly store: Store;
  readonly history: History;
  /** What the pure gesture and transform functions read of the records. */
  readonly scene: Scene;
  mode(): 'edit' | 'preview';
  /** Grows on every change of records or state. */
  version(): number;
  selection(): readonly string[];
  /** Selects components; a group member stands for its group. */
  select(ids: readonly string[]): void;
  selectedRecords(): ComponentRecord[];
  /** The selected components that are not locked: what a move or a drag acts on. */
  movable(): ComponentRecord[];
  /** A local id no record has yet. */
  newId(): string;
  /** The highest layer of the top-level components (0 when there are none). */
  topZ(): number;
  message(key: MessageKey): void;
  /** Tells the view that state other than records changed. */
  changed(): void;
  /** One undo step named `name` writing `records`; nothing (and no step) when there are none. */
  commit(name: string, records: readonly ComponentRecord[]): void;
}
