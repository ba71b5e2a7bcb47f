import type { EditorCore } from './editor-core.ts';
import { rotatedBounds, unionOf } from './geometry.ts';
import { type ComponentRecord, createComponent } from './records.ts';
import { byZ, rectOf } from './transforms.ts';
import { type LayerMove, layerTarget } from './z-order.ts';

/**
 * The stack of components: layer order, grouping and locking. The background Picture always lies
 * beneath and takes no part in the order. Each action is one undo step.
 */
export class LayerManager {
  readonly #core: EditorCore;

  constructor(core: EditorCore) {
    this.#core = core;
  }

  /** The record's siblings (top level, or its group's members), bottom first, without the background. */
  #stackOf(record: ComponentRecord): ComponentRecord[] {
    const { scene } = this.#core;
    const siblings = record.groupId === null ? scene.topLevel() : scene.members(record.groupId);
    return siblings.filter((r) => r.kind !== 'Picture');
  }

  /** Writes zIndex 1…n in the given order, touching only the records whose number changes. */
  #restack(ordered: readonly ComponentRecord[]): void {
    this.#core.store.put(ordered.map((r, i) => (r.zIndex === i + 1 ? r : { ...r, zIndex: i + 1 })));
  }

  /** Moves the one selected component a layer or to an end; at the end says 已经到顶了 / 已经到底了. */
  reorder(move: LayerMove): void {
    const record = this.#core.selectedRecords()[0];
    if (!record || record.kind === 'Picture') return;
    const stack = this.#stackOf(record);
    const index = stack.findIndex((r) => r.id === record.id);
    const target = layerTarget(move, index, stack.length);
    if (target === null) {
      this.#core.message(move === 'raise' || move === 'top' ? 'editor.messages.atTop' : 'editor.messages.atBottom');
      return;
    }
    stack.splice(index, 1);
    stack.splice(target, 0, record);
    this.#core.history.mark(move);
    this.#restack(stack);
  }

  /** Whether the selection may be grouped: two or more components, none locked. */
  get canGroup(): boolean {
    const chosen = this.#core.selectedRecords();
    return chosen.length >= 2 && !chosen.some((r) => r.locked || r.kind === 'Picture');
  }

  /** Whether the selection is one unlocked Group (001 §4: ungroup only then). */
  get canUngroup(): boolean {
    const chosen = this.#core.selectedRecords();
    return chosen.length === 1 && chosen[0]!.kind === 'Group' && !chosen[0]!.locked;
  }

  /**
   * Groups the selection into one Group around their bounds; groups in the selection dissolve into
   * the new one (one level of grouping, as the spec's source). Members keep their order.
   */
  group(): void {
    if (!this.canGroup) return;
    const { store, scene } = this.#core;
    const chosen = this.#core.selectedRecords().sort(byZ);
    const members = chosen.flatMap((r) => (r.kind === 'Group' ? scene.members(r.id) : [r]));
    const box = unionOf(members.map((r) => rotatedBounds(rectOf(r), r.rotate)))!;
    const id = this.#core.newId();
    const group = createComponent(id, 'Group', {
      ...box,
      // Not a device-type component (type 0 is); 1 as other non-device components.
      type: 1,
      zIndex: Math.max(...chosen.map((r) => r.zIndex)),
    });
    this.#core.history.mark('group');
    store.remove(chosen.filter((r) => r.kind === 'Group').map((r) => r.id));
    store.put([group, ...members.map((r, i) => ({ ...r, groupId: id, zIndex: i + 1 }))]);
    this.#core.select([id]);
  }

  /** Dissolves the selected Group; its members take its place in the stack and become the selection. */
  ungroup(): void {
    if (!this.canUngroup) return;
    const group = this.#core.selectedRecords()[0]!;
    const members = this.#core.scene.members(group.id).map((r) => ({ ...r, groupId: null }));
    const stack = this.#stackOf(group);
    const index = stack.findIndex((r) => r.id === group.id);
    stack.splice(index, 1, ...members);
    this.#core.history.mark('ungroup');
    this.#core.store.remove([group.id]);
    this.#core.store.put(members);
    this.#restack(stack);
    this.#core.select(members.map((r) => r.id));
  }

  lock(): void {
    const open = this.#core.selectedRecords().filter((r) => !r.locked);
    this.#core.commit(
      'lock',
      open.map((r) => ({ ...r, locked: true })),
    );
  }

  unlock(): void {
    const shut = this.#core.selectedRecords().filter((r) => r.locked);
    this.#core.commit(
      'unlock',
      shut.map((r) => ({ ...r, locked: false })),
    );
  }
}
