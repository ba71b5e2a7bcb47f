import { Dropdown } from 'antd';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { commandById, contextMenuCommands, runCommand } from '../../../editor/model/commands.ts';
import { type Editor, type Handle, handles } from '../../../editor/model/editor.ts';
import type { ComponentKind, ComponentRecord } from '../../../editor/model/records.ts';
import { rotateHandleOffset } from '../../../editor/model/transforms.ts';
import { SceneView } from '../render/scene-view.tsx';
import { useCanvasGestures } from './use-canvas-gestures.ts';
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
 * The editor's canvas: the shared renderers, the selection frames and the pointer, whose gestures
 * draw straight into the DOM (useCanvasGestures).
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
  const { parts, view, pointOf, pointer } = useCanvasGestures(editor, records, selection);
  const { width, height } = editor.canvasRect;
  // By id through one map: a find per selected id was 2 000 × 2 000 comparisons for a selection of all.
  const selected = useMemo(() => {
    const byId = new Map(records.map((r) => [r.id, r]));
    return selection.map((id) => byId.get(id)).filter((r): r is ComponentRecord => !!r);
  }, [selection, records]);

  // Re-read on every render: the canvas renders again on each selection or record change.
  const menu = contextMenuCommands.map((id) => ({
    key: id,
    label: t(`editor.commands.${id}`),
    disabled: !commandById(id).enabled(editor),
  }));
  return (
    <ViewportFrame view={view} canvas={{ width, height }}>
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
          {...pointer}
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
            ref={parts.scene}
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
              <div ref={parts.framesBox} className="sm-frames">
                <Frames records={selected} />
              </div>
            </div>
          </SceneView>
          {/* Outside the scene: a new guide lays out this box alone, not the scene's thousands. */}
          <div className="sm-marks">
            <div ref={parts.guides} />
            <div ref={parts.brush} className="sm-brush" style={{ display: 'none' }} />
          </div>
        </div>
      </Dropdown>
    </ViewportFrame>
  );
};
