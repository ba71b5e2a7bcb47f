import type { Editor } from './editor.ts';

/** A key as the view hands it over (KeyboardEvent's key and modifiers). */
export interface KeyInput {
  key: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  alt?: boolean;
}

export const commandIds = [
  'undo',
  'redo',
  'copy',
  'paste',
  'cut',
  'delete',
  'group',
  'ungroup',
  'save',
  'preview',
  'clear',
  'lock',
  'unlock',
  'raise',
  'lower',
  'bringToTop',
  'sendToBottom',
  'nudgeLeft',
  'nudgeRight',
  'nudgeUp',
  'nudgeDown',
  'alignLeft',
  'alignCentre',
  'alignRight',
  'alignTop',
  'alignMiddle',
  'alignBottom',
  'distributeHorizontally',
  'distributeVertically',
] as const;

export type CommandId = (typeof commandIds)[number];

/**
 * One editor command, used alike by the toolbar, the context menu and the keyboard.
 * `kbd` combos are lower-case: `mod` is Ctrl (or ⌘), e.g. `mod+c`, `delete`, `shift+arrowleft`.
 */
export interface Command {
  id: CommandId;
  labelKey: `editor.commands.${CommandId}`;
  kbd: readonly string[];
  /** Whether it works while the selection holds a locked component (001 §4). */
  whenLocked: boolean;
  enabled(editor: Editor): boolean;
  run(editor: Editor, key?: KeyInput): void;
}

type Row = Omit<Command, 'labelKey' | 'enabled'> & { can?: (editor: Editor) => boolean };

const hasSelection = (e: Editor) => e.selection.length > 0;
const oneLayer = (e: Editor) => e.selection.length === 1 && e.selectedRecords()[0]?.kind !== 'Picture';
const step = (key?: KeyInput) => (key?.shift ? 10 : 1);

const rows: Row[] = [
  // 001 §4, with Ctrl: C copy, V paste, X cut, Z undo, Y redo, G group, B ungroup, S save, P preview,
  // D or Delete delete, E clear, L lock, U unlock. On a locked selection only paste, undo, redo,
  // save, preview, clear and unlock work.
  { id: 'undo', kbd: ['mod+z'], whenLocked: true, can: (e) => e.history.canUndo, run: (e) => e.undo() },
  { id: 'redo', kbd: ['mod+y'], whenLocked: true, can: (e) => e.history.canRedo, run: (e) => e.redo() },
  // Copy, cut and paste stay enabled with nothing to act on, so that they can say 请选择组件.
  { id: 'copy', kbd: ['mod+c'], whenLocked: false, run: (e) => e.copy() },
  { id: 'paste', kbd: ['mod+v'], whenLocked: true, run: (e) => e.paste() },
  { id: 'cut', kbd: ['mod+x'], whenLocked: false, run: (e) => e.cut() },
  // Plain Delete too: 001 §4 "Delete removes the selected component".
  {
    id: 'delete',
    kbd: ['mod+d', 'mod+delete', 'delete'],
    whenLocked: false,
    can: hasSelection,
    run: (e) => e.deleteSelected(),
  },
  { id: 'group', kbd: ['mod+g'], whenLocked: false, can: (e) => e.canGroup, run: (e) => e.group() },
  { id: 'ungroup', kbd: ['mod+b'], whenLocked: false, can: (e) => e.canUngroup, run: (e) => e.ungroup() },
  { id: 'save', kbd: ['mod+s'], whenLocked: true, run: (e) => e.save() },
  { id: 'preview', kbd: ['mod+p'], whenLocked: true, run: (e) => e.preview() },
  { id: 'clear', kbd: ['mod+e'], whenLocked: true, run: (e) => e.clear() },
  {
    id: 'lock',
    kbd: ['mod+l'],
    whenLocked: false,
    can: (e) => e.selectedRecords().some((r) => !r.locked),
    run: (e) => e.lock(),
  },
  {
    id: 'unlock',
    kbd: ['mod+u'],
    whenLocked: true,
    can: (e) => e.selectedRecords().some((r) => r.locked),
    run: (e) => e.unlock(),
  },
  { id: 'raise', kbd: [], whenLocked: false, can: oneLayer, run: (e) => e.reorder('raise') },
  { id: 'lower', kbd: [], whenLocked: false, can: oneLayer, run: (e) => e.reorder('lower') },
  { id: 'bringToTop', kbd: [], whenLocked: false, can: oneLayer, run: (e) => e.reorder('top') },
  { id: 'sendToBottom', kbd: [], whenLocked: false, can: oneLayer, run: (e) => e.reorder('bottom') },
  // Arrow keys nudge 1 px, with Shift 10 px.
  {
    id: 'nudgeLeft',
    kbd: ['arrowleft', 'shift+arrowleft'],
    whenLocked: false,
    can: hasSelection,
    run: (e, k) => e.nudge(-step(k), 0),
  },
  {
    id: 'nudgeRight',
    kbd: ['arrowright', 'shift+arrowright'],
    whenLocked: false,
    can: hasSelection,
    run: (e, k) => e.nudge(step(k), 0),
  },
  {
    id: 'nudgeUp',
    kbd: ['arrowup', 'shift+arrowup'],
    whenLocked: false,
    can: hasSelection,
    run: (e, k) => e.nudge(0, -step(k)),
  },
  {
    id: 'nudgeDown',
    kbd: ['arrowdown', 'shift+arrowdown'],
    whenLocked: false,
    can: hasSelection,
    run: (e, k) => e.nudge(0, step(k)),
  },
  // Beyond the spec: align (2+) and distribute (3+). Locked components stay put but may be in the
  // selection (they are the anchors), so these run on a locked selection and move only the rest.
  ...(
    [
      ['alignLeft', 'left'],
      ['alignCentre', 'centre'],
      ['alignRight', 'right'],
      ['alignTop', 'top'],
      ['alignMiddle', 'middle'],
      ['alignBottom', 'bottom'],
    ] as const
  ).map(
    ([id, edge]): Row => ({ id, kbd: [], whenLocked: true, can: (e) => e.canArrange(2), run: (e) => e.align(edge) }),
  ),
  ...(
    [
      ['distributeHorizontally', 'horizontal'],
      ['distributeVertically', 'vertical'],
    ] as const
  ).map(
    ([id, axis]): Row => ({
      id,
      kbd: [],
      whenLocked: true,
      can: (e) => e.canArrange(3),
      run: (e) => e.distribute(axis),
    }),
  ),
];

/** The command table. */
export const commands: readonly Command[] = rows.map(({ can, ...row }) => ({
  ...row,
  labelKey: `editor.commands.${row.id}` as const,
  enabled: (e: Editor) => e.mode === 'edit' && (row.whenLocked || !e.selectionLocked) && (can?.(e) ?? true),
}));

export const commandById = (id: CommandId): Command => commands.find((c) => c.id === id)!;

/** Toolbar order of 001 §2. */
export const toolbarCommands: readonly CommandId[] = [
  'undo',
  'redo',
  'preview',
  'save',
  'clear',
  'group',
  'ungroup',
  'lock',
  'unlock',
];

/** The arrange group of the toolbar and the context menu. */
export const arrangeCommands: readonly CommandId[] = [
  'alignLeft',
  'alignCentre',
  'alignRight',
  'alignTop',
  'alignMiddle',
  'alignBottom',
  'distributeHorizontally',
  'distributeVertically',
];

/** The context menu of a component. */
export const contextMenuCommands: readonly CommandId[] = [
  'copy',
  'paste',
  'cut',
  'delete',
  'lock',
  'unlock',
  'bringToTop',
  'sendToBottom',
  'raise',
  'lower',
  ...arrangeCommands,
];

/** `mod+shift+c`-style name of a key press. */
export const comboOf = (key: KeyInput): string =>
  [key.ctrl || key.meta ? 'mod' : '', key.alt ? 'alt' : '', key.shift ? 'shift' : '', key.key.toLowerCase()]
    .filter(Boolean)
    .join('+');

/** The command a key press names, if any. */
export const commandForKey = (key: KeyInput): Command | undefined => {
  const combo = comboOf(key);
  return commands.find((c) => c.kbd.includes(combo));
};

/**
 * Runs the command a key names when it is enabled. Answers whether the key belongs to the editor
 * (the view then stops the browser's own Ctrl+S, Ctrl+P …), enabled or not. In preview only Escape
 * works: it returns to editing; in editing Escape drops the gesture in progress.
 */
export const handleKey = (editor: Editor, key: KeyInput): boolean => {
  if (key.key === 'Escape') {
    if (editor.mode === 'preview') editor.closePreview();
    else editor.cancelGesture();
    return true;
  }
  if (editor.mode !== 'edit') return false;
  const command = commandForKey(key);
  if (!command) return false;
  if (command.enabled(editor)) command.run(editor, key);
  return true;
};

/** Runs a command from a button or menu entry when it is enabled. */
export const runCommand = (editor: Editor, id: CommandId): boolean => {
  const command = commandById(id);
  if (!command.enabled(editor)) return false;
  command.run(editor);
  return true;
};
