import { memo, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComponentRecord } from '../../../editor/model/records.ts';
import { deviceKinds, type LiveState } from '../render/component-view.tsx';
import { colourOf, heatPixels, legendStops, type Sensor } from './idw.ts';

/** Grid cell of the field, px: fine enough under smoothing, cheap for 2 000 components. */
const cellPx = 8;
/** An item is a temperature when its name says so (温度, temperature, temp). */
const temperatureItem = /温度|temperature|temp/i;

/**
 * The temperature sensors of a picture: each device drawn on it (not an item list or a text bound
 * to it) whose device has a temperature item, at the centre of its picture, once per device.
 */
export const sensorsOf = (
  records: readonly ComponentRecord[],
  live: ReadonlyMap<string, LiveState>,
): (Sensor & { id: string; name: string })[] => {
  const seen = new Set<number>();
  return records.flatMap((r) => {
    if (!deviceKinds.has(r.kind) || r.device_id === null || seen.has(r.device_id)) return [];
    const item = live.get(r.id)?.items.find((i) => temperatureItem.test(i.name));
    if (!item) return [];
    seen.add(r.device_id);
    return [{ id: r.id, name: item.name, x: r.left + r.width / 2, y: r.top + r.height / 2, value: item.value }];
  });
};

/** Where a temperature sits on the legend bar, in percent. */
const pct = (c: number) =>
  ((c - legendStops[0]!.c) / (legendStops[legendStops.length - 1]!.c - legendStops[0]!.c)) * 100;
const gradient = `linear-gradient(to right, ${legendStops.map((s) => `rgb(${s.rgb.join(',')}) ${pct(s.c)}%`).join(', ')})`;

/**
 * The heat map over a picture (001 §4 heat-map mode; docs/site-map.md "Heat map"): a canvas with
 * the interpolated field, a marker per sensor (grey when stale) and the fixed °C legend.
 */
export const HeatLayer = memo(function HeatLayer({
  records,
  live,
  canvas,
}: {
  records: readonly ComponentRecord[];
  live: ReadonlyMap<string, LiveState>;
  canvas: { width: number; height: number };
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLCanvasElement>(null);
  const sensors = useMemo(() => sensorsOf(records, live), [records, live]);
  useEffect(() => {
    const el = ref.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const cols = Math.ceil(canvas.width / cellPx);
    const rows = Math.ceil(canvas.height / cellPx);
    const grid = document.createElement('canvas');
    grid.width = cols;
    grid.height = rows;
    grid.getContext('2d')?.putImageData(new ImageData(heatPixels(sensors, cols, rows, cellPx), cols, rows), 0, 0);
    ctx.clearRect(0, 0, el.width, el.height);
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(grid, 0, 0, cols * cellPx, rows * cellPx);
  }, [sensors, canvas.width, canvas.height]);
  return (
    <div className="sm-heat" data-testid="heat-layer" data-sensors={sensors.length}>
      <canvas ref={ref} width={canvas.width} height={canvas.height} />
      {sensors.map((s) => (
        <div
          key={s.id}
          className={`sm-sensor${s.value === null ? ' sm-stale' : ''}`}
          style={{
            left: s.x,
            top: s.y,
            ...(s.value !== null ? { background: `rgb(${colourOf(s.value).join(',')})` } : {}),
          }}
          title={s.value === null ? `${s.name}: ${t('siteMap.heat.stale')}` : s.name}
          data-testid="heat-sensor"
        >
          {s.value === null ? '—' : `${s.value.toFixed(1)}°`}
        </div>
      ))}
      <div className="sm-legend">
        <div>{t('siteMap.heat.legend')}</div>
        <div className="sm-legend-bar" style={{ background: gradient }} />
        <div className="sm-legend-ticks">
          {legendStops.map((s) => (
            <span key={s.c} style={{ left: `${pct(s.c)}%` }}>
              {s.c}
            </span>
          ))}
        </div>
        {sensors.length === 0 && <div>{t('siteMap.heat.noSensors')}</div>}
      </div>
    </div>
  );
});
