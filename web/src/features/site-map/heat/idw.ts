/**
 * The heat map's colouring (docs/site-map.md "Heat map"): inverse-distance weighting of the
 * temperature sensors placed on the picture, on a coarse grid, coloured on a fixed °C scale.
 * Pure functions, tested without a browser.
 */

export interface Sensor {
  x: number;
  y: number;
  /** °C; null when the sensor has no current reading (stale: drawn grey, left out of the field). */
  value: number | null;
}

/** Weight power of the interpolation: 2 is the usual Shepard choice, local but smooth. */
export const idwPower = 2;
/** Beyond this distance (px) from the nearest fresh sensor the field fades out: nothing is known there. */
export const reachPx = 260;
/** The fixed legend: colours at these temperatures, so the same colour means the same °C on every site. */
export const legendStops: readonly { c: number; rgb: readonly [number, number, number] }[] = [
  { c: 10, rgb: [49, 54, 149] },
  { c: 18, rgb: [69, 117, 180] },
  { c: 22, rgb: [116, 196, 118] },
  { c: 26, rgb: [254, 224, 68] },
  { c: 30, rgb: [244, 109, 67] },
  { c: 35, rgb: [165, 0, 38] },
];

/** The interpolated temperature at (x, y), and how far the nearest fresh sensor is; null without one. */
export const idwAt = (sensors: readonly Sensor[], x: number, y: number): { value: number; nearest: number } | null => {
  let weights = 0;
  let sum = 0;
  let nearest = Number.POSITIVE_INFINITY;
  for (const s of sensors) {
    if (s.value === null) continue;
    const d2 = (s.x - x) ** 2 + (s.y - y) ** 2;
    const d = Math.sqrt(d2);
    nearest = Math.min(nearest, d);
    if (d < 0.5) return { value: s.value, nearest: 0 };
    const w = 1 / d ** idwPower;
    weights += w;
    sum += w * s.value;
  }
  return weights === 0 ? null : { value: sum / weights, nearest };
};

/** The colour of a temperature on the fixed scale (clamped at its ends). */
export const colourOf = (c: number): [number, number, number] => {
  const first = legendStops[0]!;
  const last = legendStops[legendStops.length - 1]!;
  if (c <= first.c) return [...first.rgb];
  if (c >= last.c) return [...last.rgb];
  for (let i = 1; i < legendStops.length; i++) {
    const a = legendStops[i - 1]!;
    const b = legendStops[i]!;
    if (c <= b.c) {
      const f = (c - a.c) / (b.c - a.c);
      return [0, 1, 2].map((k) => Math.round(a.rgb[k]! + f * (b.rgb[k]! - a.rgb[k]!))) as [number, number, number];
    }
  }
  return [...last.rgb];
};

/** Opacity of a cell: full near the sensors, fading to nothing at `reachPx` from the nearest. */
export const alphaAt = (nearest: number, max = 0.55) => (nearest >= reachPx ? 0 : max * (1 - (nearest / reachPx) ** 2));

/**
 * RGBA pixels of a `cols` × `rows` grid whose cells are `cell` px wide over the canvas (an
 * ImageData's data, drawn scaled up with smoothing, which hides the grid).
 */
export const heatPixels = (
  sensors: readonly Sensor[],
  cols: number,
  rows: number,
  cell: number,
): Uint8ClampedArray<ArrayBuffer> => {
  const out = new Uint8ClampedArray(cols * rows * 4);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const at = idwAt(sensors, (c + 0.5) * cell, (r + 0.5) * cell);
      if (!at) continue;
      const [red, green, blue] = colourOf(at.value);
      const i = (r * cols + c) * 4;
      out[i] = red;
      out[i + 1] = green;
      out[i + 2] = blue;
      out[i + 3] = Math.round(alphaAt(at.nearest) * 255);
    }
  return out;
};
