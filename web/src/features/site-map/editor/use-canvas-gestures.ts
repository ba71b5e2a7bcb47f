import { type RefObject, useEffect, useRef } from 'react';
import type { Editor, Handle } from '../../../editor/model/editor.ts';
import type { ComponentRecord } from '../../../editor/model/records.ts';
import type { Guide } from '../../../editor/model/snapping.ts';
import { restingViewport, screenToCanvas, type Viewport } from '../../../editor/model/viewport.ts';
import { type DragPicture, LiftAhead } from './drag-layer.ts';

/**
 * Writes a record's geometry straight to an element (drag frames), bypassing React. A selection
 * frame is a grid item placed by its margins (see Frames), anything else is positioned.
 */
const place = (el: HTMLElement, r: ComponentRecord) => {
  const frame = el.classList.contains('sm-frame');
  el.style[frame ? 'marginLeft' : 'left'] = `${r.left}px`;
  el.style[frame ? 'marginTop' : 'top'] = `${r.top}px`;
  el.style.width = `${r.width}px`;
  el.style.height = `${r.height}px`;
  el.style.transform = r.rotate ? `rotate(${r.rotate}deg)` : '';
};

/**
 * Where the gesture would leave an element: a pure move is a translation of the element as drawn
 * (no layout of the others); a resize or turn rewrites its box.
 */
const preview = (el: HTMLElement, r: ComponentRecord, stored: ComponentRecord | undefined) => {
  if (!stored || stored.width !== r.width || stored.height !== r.height || stored.rotate !== r.rotate)
    return place(el, r);
  el.style.transform = `translate(${r.left - stored.left}px, ${r.top - stored.top}px)${r.rotate ? ` rotate(${r.rotate}deg)` : ''}`;
};

/**
 * Draws the guide lines, only when they change. Each line is a layer of its own drawn by its
 * transform (a unit box scaled to the line), so a line that moves with the dragged box repaints
 * nothing: a new line element on each move made Chromium repaint and re-layerise the page's 4 000
 * paint chunks every frame of a drag of all 2 000 (docs/site-map.md "Performance of the drag").
 */
const drawGuides = (box: HTMLElement, lines: readonly Guide[]) => {
  const key = lines.map((l) => `${l.axis}${l.position},${l.from},${l.to}`).join(' ');
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  while (box.childElementCount < lines.length) {
    const line = document.createElement('div');
    line.className = 'sm-guide';
    box.append(line);
  }
  [...box.children].forEach((el, i) => {
    const line = el as HTMLElement;
    const guide = lines[i];
    line.style.display = guide ? '' : 'none';
    if (!guide) return;
    const length = guide.to - guide.from;
    line.style.transform =
      guide.axis === 'x'
        ? `translate(${guide.position}px, ${guide.from}px) scale(1, ${length})`
        : `translate(${guide.from}px, ${guide.position}px) scale(${length}, 1)`;
  });
};

const modifiers = (e: React.PointerEvent | PointerEvent) => ({
  shift: e.shiftKey,
  ctrl: e.ctrlKey,
  alt: e.altKey,
  meta: e.metaKey,
});

type Elements = Map<string, { el?: HTMLElement; frame?: HTMLElement }>;

/** Elements by component id, gathered once when a gesture starts (not one lookup per record per frame). */
const gatherElements = (root: HTMLElement | null): Elements => {
  const map: Elements = new Map();
  if (!root) return map;
  for (const el of root.querySelectorAll<HTMLElement>('[data-id]')) map.set(el.dataset.id!, { el });
  for (const frame of root.querySelectorAll<HTMLElement>('[data-frame-id]')) {
    const id = frame.dataset.frameId!;
    map.set(id, { ...map.get(id), frame });
  }
  return map;
};

/** The elements the canvas hands to its gestures. */
export interface CanvasParts {
  scene: RefObject<HTMLDivElement | null>;
  guides: RefObject<HTMLDivElement | null>;
  brush: RefObject<HTMLDivElement | null>;
  framesBox: RefObject<HTMLDivElement | null>;
}

/**
 * The canvas's pointer gestures as the DOM draws them. During a drag, resize or rotation the model
 * answers where each touched record would go (`previewRecords`) and this writes it to the elements
 * directly; release commits one change, which React then draws (docs/site-map.md "Drag without
 * re-rendering"). A drag moves the dragged elements into one layer it translates (a resize or turn
 * draws in place); they are lifted into it ahead of the drag while a selection waits for one.
 */
export const useCanvasGestures = (editor: Editor, records: ComponentRecord[], selection: readonly string[]) => {
  const parts: CanvasParts = {
    scene: useRef<HTMLDivElement>(null),
    guides: useRef<HTMLDivElement>(null),
    brush: useRef<HTMLDivElement>(null),
    framesBox: useRef<HTMLDivElement>(null),
  };
  const { scene, guides, brush, framesBox } = parts;
  const lifted = useRef<DragPicture | null>(null);
  const ahead = useRef<LiftAhead | null>(null);
  ahead.current ??= new LiftAhead(() => scene.current);
  const touched = useRef(new Set<string>());
  const elements = useRef<Elements>(new Map());
  const gather = () => {
    elements.current = gatherElements(scene.current);
  };

  // The zoom and pan of the view (never stored); the scene's on-screen box already carries both.
  const view = useRef<Viewport>(restingViewport);
  const pointOf = (e: { clientX: number; clientY: number }) => {
    // The canvas element, not the scene: a drag may be translating the scene (SceneShift).
    const box = scene.current!.parentElement!.getBoundingClientRect();
    return screenToCanvas({ x: e.clientX, y: e.clientY }, { x: box.left, y: box.top }, view.current.zoom);
  };

  /** Taken at the first real move, so a click that only selects moves nothing; what was not lifted ahead of the drag is lifted now. */
  const liftDragged = () => {
    if (!framesBox.current) return;
    // Gathered again: a press on a component not yet selected drew its frame after the press.
    gather();
    const ids = new Set(editor.previewRecords().keys());
    const moving: HTMLElement[] = [];
    for (const id of ids) {
      touched.current.add(id);
      const frame = elements.current.get(id)?.frame;
      if (frame) moving.push(frame);
    }
    // Locked selected components stay: then only the moving frames are lifted.
    lifted.current = ahead.current!.take(records, ids, {
      box: framesBox.current,
      moving,
      all: moving.length === framesBox.current.childElementCount,
    });
  };

  /** Draws the gesture in progress straight into the DOM. */
  const drawGesture = () => {
    if (!scene.current) return;
    const g = editor.gesture;
    if (g?.type === 'translate') {
      if (!lifted.current && (g.dx !== 0 || g.dy !== 0)) liftDragged();
      lifted.current?.move(g.dx, g.dy);
    } else
      for (const [id, r] of editor.previewRecords()) {
        touched.current.add(id);
        const found = elements.current.get(id);
        const stored = editor.get(id);
        if (found?.el) preview(found.el, r, stored);
        if (found?.frame) preview(found.frame, r, stored);
      }
    if (brush.current) {
      brush.current.style.display = g?.type === 'brush' ? 'block' : 'none';
      if (g?.type === 'brush') place(brush.current, { ...g.rect, rotate: 0 } as ComponentRecord);
    }
    if (guides.current) drawGuides(guides.current, editor.guides);
  };

  /** After a gesture: every element touched shows its record again (React redraws only changed ones). */
  const settle = () => {
    const root = scene.current;
    // The lifted elements stay lifted for the next drag, unless the release's change put them back.
    lifted.current?.end();
    lifted.current = null;
    // The elements gathered at the start (React has not drawn the release yet), else a lookup.
    const find = (el: HTMLElement | undefined, selector: string) =>
      el?.isConnected ? el : (root?.querySelector<HTMLElement>(selector) ?? undefined);
    if (root)
      for (const id of touched.current) {
        const r = editor.get(id);
        const found = elements.current.get(id);
        const el = find(found?.el, `[data-id="${id}"]`);
        if (r && el) place(el, r);
        const frame = find(found?.frame, `[data-frame-id="${id}"]`);
        if (r && frame) place(frame, r);
      }
    elements.current = new Map();
    touched.current.clear();
    drawGesture();
  };

  const onPointerDown = (e: React.PointerEvent) => {
    if (e.button !== 0) return;
    const target = e.target as HTMLElement;
    const p = pointOf(e);
    const handle = target.dataset.handle as Handle | undefined;
    if (handle && target.dataset.for)
      editor.pointerDown(p, modifiers(e), { type: 'resize', id: target.dataset.for, handle });
    else if (target.dataset.rotate) editor.pointerDown(p, modifiers(e), { type: 'rotate', id: target.dataset.rotate });
    else editor.pointerDown(p, modifiers(e));
    if (!editor.gesture) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    gather();
    drawGesture();
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (!editor.gesture) return;
    editor.pointerMove(pointOf(e), modifiers(e));
    drawGesture();
  };
  const onPointerUp = (e: React.PointerEvent) => {
    if (!editor.gesture) return;
    editor.pointerUp(pointOf(e), modifiers(e));
    settle();
  };
  // Escape drops a gesture: put the elements back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: settle reads refs only
  useEffect(() => editor.subscribe(() => !editor.gesture && touched.current.size > 0 && settle()), [editor]);
  // Before React draws a change of the records: whether the lifted elements may stay lifted.
  useEffect(() => editor.store.listen(() => ahead.current!.storeChanged(editor.store.all())), [editor]);
  useEffect(() => () => ahead.current!.dispose(), []);
  // Once a selection (or a change of the records) is drawn, lift what its drag would move.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor answers the selection; this runs when it changes
  useEffect(() => {
    const dragged = new Set<string>();
    for (const r of editor.selectedRecords())
      if (!r.locked) for (const m of [r, ...(r.kind === 'Group' ? editor.members(r.id) : [])]) dragged.add(m.id);
    ahead.current!.prepare(records, dragged);
  }, [editor, records, selection]);

  return { parts, view, pointOf, pointer: { onPointerDown, onPointerMove, onPointerUp } };
};
