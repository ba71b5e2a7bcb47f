import { type CommandId, handleKey, type KeyInput, runCommand } from './commands.ts';
import {
  Editor,
  type EditorEvent,
  type EditorOptions,
  type Handle,
  type Modifiers,
  type PointerTarget,
} from './editor.ts';
import type { MessageKey } from './messages.ts';
import { type ComponentKind, type ComponentRecord, createComponent } from './records.ts';

/**
 * Drives an Editor headlessly as the canvas component will: pointer down/move/up at canvas
 * coordinates with modifiers, key presses (`ctrl+c`, `Delete`, `shift+ArrowLeft`), toolbar clicks;
 * records what the editor tells the host. tldraw's TestEditor, in small.
 */
export class TestEditor {
  readonly editor: Editor;
  readonly events: EditorEvent[] = [];
  #pointer = { x: 0, y: 0 };

  constructor(options: EditorOptions = {}) {
    this.editor = new Editor(options);
    this.editor.on((event) => this.events.push(event));
  }

  /** Messages raised so far, oldest first. */
  get messages(): MessageKey[] {
    return this.events.flatMap((e) => (e.type === 'message' ? [e.key] : []));
  }

  /** Loads a scene (not undoable): each entry a kind and the fields to set; ids s1, s2 … unless given. */
  load(...parts: Array<[ComponentKind, Partial<ComponentRecord>?]>): string[] {
    const records = parts.map(([kind, fields], i) =>
      createComponent(fields?.id ?? `s${i + 1}`, kind, { zIndex: i + 1, serverId: i + 1, ...fields }),
    );
    this.editor.load(records);
    return records.map((r) => r.id);
  }

  get(id: string): ComponentRecord {
    const record = this.editor.get(id);
    if (!record) throw new Error(`no component ${id}`);
    return record;
  }

  snapshot() {
    return this.editor.store.snapshot();
  }

  pointerDown(x: number, y: number, mods: Modifiers = {}, target?: PointerTarget): this {
    this.#pointer = { x, y };
    this.editor.pointerDown({ x, y }, mods, target);
    return this;
  }

  pointerMove(x: number, y: number, mods: Modifiers = {}): this {
    this.#pointer = { x, y };
    this.editor.pointerMove({ x, y }, mods);
    return this;
  }

  pointerUp(x = this.#pointer.x, y = this.#pointer.y, mods: Modifiers = {}): this {
    this.editor.pointerUp({ x, y }, mods);
    return this;
  }

  click(x: number, y: number, mods: Modifiers = {}): this {
    return this.pointerDown(x, y, mods).pointerUp(x, y, mods);
  }

  /** Down at `from`, through four intermediate points, up at `to`. */
  drag(from: [number, number], to: [number, number], mods: Modifiers = {}, target?: PointerTarget): this {
    this.pointerDown(from[0], from[1], mods, target);
    for (let i = 1; i <= 4; i++)
      this.pointerMove(from[0] + ((to[0] - from[0]) * i) / 4, from[1] + ((to[1] - from[1]) * i) / 4, mods);
    return this.pointerUp(to[0], to[1], mods);
  }

  /** Drags a resize handle of `id` by (dx, dy). */
  dragHandle(id: string, handle: Handle, dx: number, dy: number, mods: Modifiers = {}): this {
    const p = this.editor.handlePoint(id, handle);
    return this.drag([p.x, p.y], [p.x + dx, p.y + dy], mods, { type: 'resize', id, handle });
  }

  /** Drags the rotation handle of `id` to (x, y). */
  dragRotate(id: string, x: number, y: number, mods: Modifiers = {}): this {
    const p = this.editor.handlePoint(id, 'rotate');
    return this.drag([p.x, p.y], [x, y], mods, { type: 'rotate', id });
  }

  /** A key press: `ctrl+c`, `ctrl+Delete`, `Delete`, `shift+ArrowLeft`, `Escape`. Answers whether the editor took it. */
  press(combo: string): boolean {
    const parts = combo.split('+');
    const key = parts.pop()!;
    const mods = new Set(parts.map((p) => p.toLowerCase()));
    const input: KeyInput = {
      key,
      ctrl: mods.has('ctrl'),
      meta: mods.has('meta'),
      shift: mods.has('shift'),
      alt: mods.has('alt'),
    };
    return handleKey(this.editor, input);
  }

  /** A toolbar or context-menu click. Answers whether the command was enabled. */
  command(id: CommandId): boolean {
    return runCommand(this.editor, id);
  }
}
