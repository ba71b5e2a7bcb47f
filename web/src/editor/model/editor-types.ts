import type { Point, Rect } from './geometry.ts';
import type { MessageKey } from './messages.ts';
import type { Guide } from './snapping.ts';
import type { Handle } from './transforms.ts';

/** The editor's event, gesture and option types (editor.ts). */

/** Something the host (the page) must act on: a message to show, or an action it owns. */
export type EditorEvent =
  | { type: 'message'; key: MessageKey }
  | { type: 'save' }
  | { type: 'preview' }
  | { type: 'clear' };

export interface Modifiers {
  shift?: boolean;
  ctrl?: boolean;
  alt?: boolean;
  meta?: boolean;
}

/**
 * What a pointer went down on. The view knows (it owns the handle elements) and passes it; without
 * it the model hit-tests the components.
 */
export type PointerTarget =
  | { type: 'canvas' }
  | { type: 'component'; id: string }
  | { type: 'resize'; id: string; handle: Handle }
  | { type: 'rotate'; id: string };

/** The gesture in progress; `result` is what release will write, so preview and commit never differ. */
export type Gesture =
  | {
      type: 'translate';
      start: Point;
      ids: string[];
      dx: number;
      dy: number;
      guides: Guide[];
      /** What snapping measures against, worked out at the first move (the store holds still during a drag). */
      snapBase?: { box: Rect | null; others: Rect[] };
    }
  | { type: 'resize'; start: Point; id: string; handle: Handle; rect: Rect }
  | { type: 'rotate'; id: string; centre: Point; startAngle: number; delta: number }
  | { type: 'brush'; start: Point; rect: Rect; base: string[]; ids: string[] };

export interface EditorOptions {
  /** Makes the local id of a new component (the spec's localId); a counter by default. */
  createId?: () => string;
}
