import { type Clip, pasteClip } from './clipboard.ts';
import type { EditorCore } from './editor-core.ts';
import type { Point } from './geometry.ts';
import { withMembers } from './gesture.ts';

/** Copy, cut and paste of the selection (with the members of selected groups), kept in the editor, not the system clipboard. */
export class ClipboardManager {
  readonly #core: EditorCore;
  #clip: Clip | null = null;

  constructor(core: EditorCore) {
    this.#core = core;
  }

  get filled(): boolean {
    return this.#clip !== null;
  }

  /** Copies the selection; nothing selected answers 请选择组件. */
  copy(): void {
    const chosen = this.#core.selectedRecords();
    if (chosen.length === 0) {
      this.#core.message('editor.messages.selectComponent');
      return;
    }
    this.#clip = { records: structuredClone(withMembers(this.#core.scene, chosen)), cut: false };
    this.#core.changed();
  }

  /** Copies the selection and removes it in one step; the paste after a cut empties the clipboard. */
  cut(): void {
    const chosen = this.#core.selectedRecords().filter((r) => !r.locked);
    if (chosen.length === 0) {
      this.#core.message('editor.messages.selectComponent');
      return;
    }
    const all = withMembers(this.#core.scene, chosen);
    this.#clip = { records: structuredClone(all), cut: true };
    this.#core.history.mark('cut');
    this.#core.store.remove(all.map((r) => r.id));
  }

  /**
   * Pastes the clipboard 10 px right of and below the last paste (or with its top-left corner at
   * `at`, for the context menu's paste here), under new ids, above everything, selected.
   */
  paste(at?: Point): void {
    const clip = this.#clip;
    if (!clip) {
      this.#core.message('editor.messages.selectComponent');
      return;
    }
    const { pasted, next } = pasteClip(clip, at, () => this.#core.newId(), this.#core.topZ());
    this.#clip = next;
    this.#core.history.mark('paste');
    this.#core.store.put(pasted);
    this.#core.select(pasted.filter((r) => r.groupId === null).map((r) => r.id));
  }
}
