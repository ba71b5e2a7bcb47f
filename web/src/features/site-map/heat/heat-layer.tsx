import { heatItemOf } from '@sitewatch/contract/site-map';
import { memo, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComponentRecord } from '../../../editor/model/records.ts';
import { deviceKinds, type LiveState } from '../render/component-view.tsx';
import { colourOf, heatPixels, legendStops, type Sensor } from './idw.ts';

/** Grid cell of the field, px: fine enough under smoothing, cheap for 2 000 components. */
const cellPx = 8;
/** Sensors the legend names one by one; the rest are counted. */
const legendSensors = 6;

/**
 * The room-temperature sensors of a picture: each device drawn on it (not an item list or a text
 * bound to it) with an item whose purpose is the room temperature (`heatItemOf`: never a battery's
 * or a device's internal temperature, whatever its name), at the centre of its picture, once per device.
 */
export const sensorsOf = (
  records: readonly ComponentRecord[],
  live: ReadonlyMap<string, LiveState>,
): (Sensor & { id: string; name: string; device: string })[] => {
  const seen = new Set<number>();
  return records.flatMap((r) => {
    if (!deviceKinds.has(r.kind) || r.device_id === null || seen.has(r.device_id)) return [];
    const state = live.get(r.id);
    const item = state && heatItemOf(state.items);
    if (!state || !item) return [];
    seen.add(r.device_id);
    const device = r.label || state.device;
    return [{ id: r.id, name: item.name, device, x: r.left + r.width / 2, y: r.top + r.height / 2, value: item.value }];
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
          title={s.value === null ? `${s.device} ${s.name}: ${t('siteMap.heat.stale')}` : `${s.device} ${s.name}`}
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
        {sensors.length === 0 ? (
          <div>{t('siteMap.heat.noSensors')}</div>
        ) : (
          // Which sensors the colours come from, so that a wrong one is seen at once.
          <div className="sm-legend-sensors" data-testid="heat-legend-sensors">
            <div>{t('siteMap.heat.sensors')}</div>
            {sensors.slice(0, legendSensors).map((s) => (
              <div key={s.id} data-testid="heat-legend-sensor">
                <span>
                  {s.device} · {s.name}
                </span>
                <span>{s.value === null ? '—' : `${s.value.toFixed(1)}°`}</span>
              </div>
            ))}
            {sensors.length > legendSensors && (
              <div>{t('siteMap.heat.more', { count: sensors.length - legendSensors })}</div>
            )}
          </div>
        )}
      </div>
    </div>
  );
});
