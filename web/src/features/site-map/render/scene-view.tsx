import { type CSSProperties, forwardRef, type ReactNode, useMemo } from 'react';
import type { CanvasSettings, ComponentRecord } from '../../../editor/model/records.ts';
import { ComponentView, type LiveState } from './component-view.tsx';
import { useBackgroundTone } from './use-background-tone.ts';

/**
 * The layer a record is drawn on: the background beneath everything, top-level components by their
 * zIndex, the members of a group just above their group's layer in their own order.
 */
export const layersOf = (records: readonly ComponentRecord[]): Map<string, number> => {
  const byId = new Map(records.map((r) => [r.id, r]));
  const layers = new Map<string, number>();
  for (const r of records) {
    if (r.kind === 'Picture') layers.set(r.id, 0);
    else if (r.groupId !== null) layers.set(r.id, (byId.get(r.groupId)?.zIndex ?? 0) * 1000 + 1 + r.zIndex);
    else layers.set(r.id, r.zIndex * 1000 + 1);
  }
  return layers;
};

export interface SceneViewProps {
  records: readonly ComponentRecord[];
  canvas: CanvasSettings;
  /** Live state by component id (live views). */
  live?: ReadonlyMap<string, LiveState>;
  siteName: string;
  siteNames: ReadonlyMap<number, string>;
  interactive: boolean;
  animate: boolean;
  onActivate?: (record: ComponentRecord) => void;
  /** Components the functional filter fades out. */
  dimmed?: ((record: ComponentRecord) => boolean) | undefined;
  /** Scale of the whole drawing (fit to the window), 1 by default. */
  zoom?: number;
  style?: CSSProperties;
  /** Drawn above the components: selection frames, guides, the heat map. */
  children?: ReactNode;
}

/**
 * A whole picture: the canvas with every component, shared by the editor and the live views. Its
 * `data-tone` (from the background image's luminance) sets the labels' default colour and halo.
 */
export const SceneView = forwardRef<HTMLDivElement, SceneViewProps>(function SceneView(
  { records, canvas, live, siteName, siteNames, interactive, animate, onActivate, dimmed, zoom = 1, style, children },
  ref,
) {
  const layers = useMemo(() => layersOf(records), [records]);
  const background = records.find((r) => r.kind === 'Picture')?.normal_img || undefined;
  const tone = useBackgroundTone(background);
  return (
    <div
      ref={ref}
      className="sm-scene"
      data-testid="site-scene"
      data-tone={tone}
      style={{
        width: canvas.width,
        height: canvas.height,
        ...(zoom !== 1 ? { transform: `scale(${zoom})` } : {}),
        ...style,
      }}
    >
      {records.map((r) => (
        <ComponentView
          key={r.id}
          record={r}
          live={live?.get(r.id)}
          siteName={siteName}
          siteNames={siteNames}
          interactive={interactive}
          animate={animate}
          onActivate={onActivate}
          layer={layers.get(r.id) ?? 0}
          dim={dimmed?.(r) ?? false}
        />
      ))}
      {children}
    </div>
  );
});
