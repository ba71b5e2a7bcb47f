import { CompressOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fitViewport,
  panBy,
  restingViewport,
  type Viewport,
  wheelZoomFactor,
  zoomAround,
} from '../../../editor/model/viewport.ts';

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && !!el.closest('input, textarea, select, [contenteditable="true"], .ant-modal');

/**
 * The window onto the editor's canvas: the area between the side panels, never under them. It
 * opens fitted (the whole canvas shown) and stays fitted while the area or the canvas size changes,
 * until the user zooms or pans: Ctrl+wheel zooms around the pointer, the wheel scrolls, Space+drag
 * or a middle-button drag pans. The bar beneath (outside the canvas's area, so it hides nothing)
 * shows the zoom and has "fit" and "100 %". View only: the transform is written to the stage
 * element directly (a pan or zoom never re-renders the components) and `view.current` is what the
 * canvas reads to map pointer positions.
 */
export const ViewportFrame = ({
  view,
  canvas,
  children,
}: {
  view: React.MutableRefObject<Viewport>;
  /** The canvas's size, px: what "fit" fits. */
  canvas: { width: number; height: number };
  children: React.ReactNode;
}) => {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const label = useRef<HTMLSpanElement>(null);
  const space = useRef(false);
  const pan = useRef<{ x: number; y: number; id: number } | null>(null);
  // Fitted until the user zooms, pans or asks for 100 %; "fit" sets it again.
  const fitted = useRef(true);
  const size = useRef(canvas);
  size.current = canvas;

  const apply = (next: Viewport, fit = false) => {
    fitted.current = fit;
    view.current = next;
    if (stage.current) stage.current.style.transform = `translate(${next.x}px, ${next.y}px) scale(${next.zoom})`;
    if (label.current) label.current.textContent = `${Math.round(next.zoom * 100)}%`;
    frame.current?.setAttribute('data-fitted', String(fit));
  };
  const fit = () => {
    const el = frame.current;
    if (el) apply(fitViewport(size.current, { width: el.clientWidth, height: el.clientHeight }), true);
  };

  // A new canvas size (a loaded picture, a changed width or height) is fitted again while fitted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: fit reads refs only
  useEffect(() => {
    if (fitted.current) fit();
  }, [canvas.width, canvas.height]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: apply writes refs only
  useEffect(() => {
    const el = frame.current!;
    if (fitted.current) fit();
    else apply(view.current);
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
    // So is a new area (the window resized, a panel's width changed).
    const resized = new ResizeObserver(() => fitted.current && fit());
    resized.observe(el);
    el.addEventListener('wheel', onWheel, { passive: false });
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKey);
    return () => {
      resized.disconnect();
      el.removeEventListener('wheel', onWheel);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKey);
    };
  }, []);

  return (
    <div style={{ display: 'flex', flexDirection: 'column', width: '100%', height: '100%' }}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: pointer-only panning; the canvas inside is the application */}
      <div
        ref={frame}
        data-testid="editor-viewport"
        data-fitted="true"
        style={{ position: 'relative', overflow: 'hidden', flex: '1 1 0', minHeight: 0, background: '#e8ebf0' }}
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
      </div>
      <div
        style={{
          display: 'flex',
          gap: 6,
          alignItems: 'center',
          justifyContent: 'flex-end',
          padding: '4px 8px',
          borderTop: '1px solid #e4e7ec',
          background: '#f5f6f8',
        }}
      >
        <span ref={label} data-testid="editor-zoom" style={{ color: '#4a5263', fontSize: 12, minWidth: 40 }} />
        <Tooltip title={t('siteMap.editor.fitView')}>
          <Button size="small" icon={<CompressOutlined />} aria-label={t('siteMap.editor.fit')} onClick={fit}>
            {t('siteMap.editor.fit')}
          </Button>
        </Tooltip>
        <Tooltip title={t('siteMap.editor.resetView')}>
          <Button size="small" aria-label={t('siteMap.editor.resetView')} onClick={() => apply(restingViewport)}>
            100%
          </Button>
        </Tooltip>
      </div>
    </div>
  );
};
