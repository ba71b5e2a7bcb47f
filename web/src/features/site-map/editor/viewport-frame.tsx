import { ExpandOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { panBy, restingViewport, type Viewport, wheelZoomFactor, zoomAround } from '../../../editor/model/viewport.ts';

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && !!el.closest('input, textarea, select, [contenteditable="true"], .ant-modal');

/**
 * The window onto the editor's canvas: Ctrl+wheel zooms around the pointer, the wheel scrolls,
 * Space+drag or a middle-button drag pans, the button puts it back. View only: the transform is
 * written to the stage element directly (a pan or zoom never re-renders the components) and
 * `view.current` is what the canvas reads to map pointer positions.
 */
export const ViewportFrame = ({
  view,
  children,
}: {
  view: React.MutableRefObject<Viewport>;
  children: React.ReactNode;
}) => {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const label = useRef<HTMLSpanElement>(null);
  const space = useRef(false);
  const pan = useRef<{ x: number; y: number; id: number } | null>(null);

  const apply = (next: Viewport) => {
    view.current = next;
    if (stage.current) stage.current.style.transform = `translate(${next.x}px, ${next.y}px) scale(${next.zoom})`;
    if (label.current) label.current.textContent = `${Math.round(next.zoom * 100)}%`;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: apply writes refs only
  useEffect(() => {
    const el = frame.current!;
    apply(view.current);
    // Not a React handler: React's wheel listener is passive and cannot stop the page's own zoom.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const box = el.getBoundingClientRect();
      if (e.ctrlKey || e.metaKey)
        apply(zoomAround(view.current, { x: e.clientX - box.left, y: e.clientY - box.top }, wheelZoomFactor(e.deltaY)));
      else apply(panBy(view.current, -(e.shiftKey ? e.deltaY : e.deltaX), e.shiftKey ? 0 : -e.deltaY));
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== ' ' || typing(e.target)) return;
      e.preventDefault();
      space.current = e.type === 'keydown';
      el.style.cursor = space.current ? 'grab' : '';
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKey);
    return () => {
      el.removeEventListener('wheel', onWheel);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKey);
    };
  }, []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointer-only panning; the canvas inside is the application
    <div
      ref={frame}
      data-testid="editor-viewport"
      style={{ position: 'relative', overflow: 'hidden', width: '100%', height: '100%', background: '#e8ebf0' }}
      // Capture: a pan starts before the canvas sees the press, and the canvas never does.
      onPointerDownCapture={(e) => {
        if (!(e.button === 1 || (e.button === 0 && space.current))) return;
        e.preventDefault();
        e.stopPropagation();
        pan.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
        e.currentTarget.setPointerCapture(e.pointerId);
      }}
      onPointerMove={(e) => {
        const p = pan.current;
        if (!p || p.id !== e.pointerId) return;
        apply(panBy(view.current, e.clientX - p.x, e.clientY - p.y));
        pan.current = { ...p, x: e.clientX, y: e.clientY };
      }}
      onPointerUp={(e) => {
        if (pan.current?.id === e.pointerId) pan.current = null;
      }}
      // The middle button's own autoscroll.
      onMouseDown={(e) => e.button === 1 && e.preventDefault()}
    >
      <div
        ref={stage}
        data-testid="editor-stage"
        style={{ position: 'absolute', left: 0, top: 0, transformOrigin: '0 0' }}
      >
        {children}
      </div>
      <div style={{ position: 'absolute', right: 12, bottom: 12, display: 'flex', gap: 6, alignItems: 'center' }}>
        <span ref={label} data-testid="editor-zoom" style={{ color: '#556', fontSize: 12 }} />
        <Tooltip title={t('siteMap.editor.resetView')}>
          <Button
            size="small"
            icon={<ExpandOutlined />}
            aria-label={t('siteMap.editor.resetView')}
            onClick={() => apply(restingViewport)}
          />
        </Tooltip>
      </div>
    </div>
  );
};
