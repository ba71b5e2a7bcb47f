import { Dropdown } from 'antd';
import { memo, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { commandById, contextMenuCommands, runCommand } from '../../../editor/model/commands.ts';
import { type Editor, type Handle, handles } from '../../../editor/model/editor.ts';
import type { ComponentKind, ComponentRecord } from '../../../editor/model/records.ts';
import { rotateHandleOffset } from '../../../editor/model/transforms.ts';
import { restingViewport, screenToCanvas, type Viewport } from '../../../editor/model/viewport.ts';
import { SceneView } from '../render/scene-view.tsx';
import { type DragPicture, LiftAhead } from './drag-layer.ts';
import { useRecords, useSelection } from './use-editor.ts';
import { ViewportFrame } from './viewport-frame.tsx';

/**
 * Where a handle sits on its frame, in fractions of the width and height. The handles are empty
 * grid items of their frame (cells of a 0 / 1fr / 0 grid) that take the pointer, and one box
 * (.sm-knobs) draws all of them: nine positioned, painted boxes per selected component made each
 * frame of a drag of 2 000 cost Chromium's layerisation ten times more (docs/site-map.md "Performance of the drag").
 */
const handleSpot: Record<Handle, [number, number]> = {
  n: [0.5, 0],
  s: [0.5, 1],
  e: [1, 0.5],
  w: [0, 0.5],
  ne: [1, 0],
  nw: [0, 0],
  se: [1, 1],
  sw: [0, 1],
};

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
 * Above this many selected, the frames are plain outlines, without resize handles or rotation knob:
 * a drag-selection of all 2 000 drew ~22 000 elements in one frame of 183–767 ms. One resizes or
 * turns a component selected alone or among a few (docs/site-map.md "Decisions where 001 is silent").
 */
export const handlesUpTo = 20;

/**
 * The frames of the selected components, with their resize handles and rotation knob (up to
 * handlesUpTo selected). Each frame is an item of one grid cell placed by its margins rather than
 * a positioned box, for the reason its handles are grid items (handleSpot): 2 000 selected made
 * 2 000 more paint layers.
 */
export const Frames = memo(function Frames({ records }: { records: ComponentRecord[] }) {
  const plain = records.length > handlesUpTo;
  return (
    <>
      {records.map((r) => (
        <div
          key={r.id}
          className={plain ? 'sm-frame sm-plain' : 'sm-frame'}
          data-frame-id={r.id}
          style={{
            marginLeft: r.left,
            marginTop: r.top,
            width: r.width,
            height: r.height,
            transform: r.rotate ? `rotate(${r.rotate}deg)` : undefined,
          }}
        >
          {!plain && !r.locked && r.kind !== 'Picture' && <i className="sm-knobs" />}
          {!plain &&
            !r.locked &&
            r.kind !== 'Picture' &&
            handles.map((h) => (
              <span
                key={h}
                className="sm-handle"
                data-handle={h}
                data-for={r.id}
                style={{
                  gridArea: `${1 + handleSpot[h][1] * 2} / ${1 + handleSpot[h][0] * 2}`,
                  cursor: `${h}-resize`,
                }}
              />
            ))}
          {!plain && !r.locked && r.kind !== 'Picture' && (
            <span className="sm-rotate" data-rotate={r.id} style={{ marginBottom: 2 * rotateHandleOffset }} />
          )}
        </div>
      ))}
    </>
  );
});

/**
 * The editor's canvas: the shared renderers, the selection frames and the pointer. During a drag,
 * resize or rotation the model answers where each touched record would go (`previewRecords`) and
 * this writes it to the elements directly; release commits one change, which React then draws
 * (docs/site-map.md "Drag without re-rendering").
 */
export const EditorCanvas = ({
  editor,
  siteName,
  siteNames,
  onDropKind,
  overlay,
}: {
  editor: Editor;
  siteName: string;
  siteNames: ReadonlyMap<number, string>;
  onDropKind: (kind: ComponentKind, at: { x: number; y: number }) => void;
  /** Drawn above the components (the heat map). */
  overlay?: React.ReactNode;
}) => {
  const { t } = useTranslation();
  const records = useRecords(editor);
  const selection = useSelection(editor);
  const scene = useRef<HTMLDivElement>(null);
  const guides = useRef<HTMLDivElement>(null);
  const brush = useRef<HTMLDivElement>(null);
  const framesBox = useRef<HTMLDivElement>(null);
  // A drag in progress moves the dragged elements into one layer it translates (a resize or turn
  // draws in place); they are lifted into it ahead of the drag while a selection waits for one.
  const lifted = useRef<DragPicture | null>(null);
  const ahead = useRef<LiftAhead | null>(null);
  ahead.current ??= new LiftAhead(() => scene.current);
  const touched = useRef(new Set<string>());
  // Elements by component id, gathered once when a gesture starts (not one lookup per record per frame).
  const elements = useRef(new Map<string, { el?: HTMLElement; frame?: HTMLElement }>());
  const gather = () => {
    const root = scene.current;
    const map = new Map<string, { el?: HTMLElement; frame?: HTMLElement }>();
    if (root) {
      for (const el of root.querySelectorAll<HTMLElement>('[data-id]')) map.set(el.dataset.id!, { el });
      for (const frame of root.querySelectorAll<HTMLElement>('[data-frame-id]')) {
        const id = frame.dataset.frameId!;
        map.set(id, { ...map.get(id), frame });
      }
    }
    elements.current = map;
  };
  const { width, height } = editor.canvasRect;
  // By id through one map: a find per selected id was 2 000 × 2 000 comparisons for a selection of all.
  const selected = useMemo(() => {
    const byId = new Map(records.map((r) => [r.id, r]));
    return selection.map((id) => byId.get(id)).filter((r): r is ComponentRecord => !!r);
  }, [selection, records]);

  // The zoom and pan of the view (never stored); the scene's on-screen box already carries both.
  const view = useRef<Viewport>(restingViewport);
  const pointOf = (e: { clientX: number; clientY: number }) => {
    // The canvas element, not the scene: a drag may be translating the scene (SceneShift).
    const box = scene.current!.parentElement!.getBoundingClientRect();
    return screenToCanvas({ x: e.clientX, y: e.clientY }, { x: box.left, y: box.top }, view.current.zoom);
  };
  const mods = (e: React.PointerEvent | PointerEvent) => ({
    shift: e.shiftKey,
    ctrl: e.ctrlKey,
    alt: e.altKey,
    meta: e.metaKey,
  });

  /** Draws the gesture in progress straight into the DOM. */
  const drawGesture = () => {
    const root = scene.current;
    if (!root) return;
    const g = editor.gesture;
    if (g?.type === 'translate') {
      // Taken at the first real move, so a click that only selects moves nothing; what was not
      // lifted ahead of the drag is lifted now.
      if (!lifted.current && (g.dx !== 0 || g.dy !== 0) && framesBox.current) {
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
      }
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
    // Guides only when they change. Each line is a layer of its own drawn by its transform (a
    // unit box scaled to the line), so a line that moves with the dragged box repaints nothing: a
    // new line element on each move made Chromium repaint and re-layerise the page's 4 000 paint
    // chunks every frame of a drag of all 2 000 (docs/site-map.md "Performance of the drag").
    const lines = editor.guides;
    const key = lines.map((l) => `${l.axis}${l.position},${l.from},${l.to}`).join(' ');
    const box = guides.current;
    if (box && box.dataset.key !== key) {
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
    }
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
      editor.pointerDown(p, mods(e), { type: 'resize', id: target.dataset.for, handle });
    else if (target.dataset.rotate) editor.pointerDown(p, mods(e), { type: 'rotate', id: target.dataset.rotate });
    else editor.pointerDown(p, mods(e));
    if (!editor.gesture) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    gather();
    drawGesture();
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (!editor.gesture) return;
    editor.pointerMove(pointOf(e), mods(e));
    drawGesture();
  };
  const onPointerUp = (e: React.PointerEvent) => {
    if (!editor.gesture) return;
    editor.pointerUp(pointOf(e), mods(e));
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

  // Re-read on every render: the canvas renders again on each selection or record change.
  const menu = contextMenuCommands.map((id) => ({
    key: id,
    label: t(`editor.commands.${id}`),
    disabled: !commandById(id).enabled(editor),
  }));
  return (
    <ViewportFrame view={view}>
      <Dropdown
        trigger={['contextMenu']}
        menu={{
          items: menu,
          onClick: ({ key }) => runCommand(editor, key as (typeof contextMenuCommands)[number]),
        }}
      >
        <div
          data-testid="editor-canvas"
          role="application"
          aria-label={t('siteMap.editor.canvas')}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onContextMenu={(e) => {
            const hit = editor.hitTest(pointOf(e));
            if (hit && !selection.includes(hit.groupId ?? hit.id)) editor.select([hit.id]);
          }}
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => {
            const kind = e.dataTransfer.getData('application/x-sitewatch-kind') as ComponentKind;
            if (kind) onDropKind(kind, pointOf(e));
          }}
          style={{ width, height, position: 'relative', touchAction: 'none' }}
        >
          <SceneView
            ref={scene}
            records={records}
            canvas={{ width, height, scale: 100 }}
            siteName={siteName}
            siteNames={siteNames}
            interactive={false}
            animate={false}
            // A compositor layer of its own: a drag of (nearly) all components translates it whole (SceneShift).
            style={{ background: '#0b1a2e', willChange: 'transform' }}
          >
            {overlay}
            <div className="sm-overlay">
              <div ref={framesBox} className="sm-frames">
                <Frames records={selected} />
              </div>
            </div>
          </SceneView>
          {/* Outside the scene: a new guide lays out this box alone, not the scene's thousands. */}
          <div className="sm-marks">
            <div ref={guides} />
            <div ref={brush} className="sm-brush" style={{ display: 'none' }} />
          </div>
        </div>
      </Dropdown>
    </ViewportFrame>
  );
};
