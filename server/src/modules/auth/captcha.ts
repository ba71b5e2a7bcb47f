import { randomBytes, randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { constants, crc32, deflateSync } from 'node:zlib';
import type { Font, PathCommand } from 'opentype.js';

/**
 * The captcha image: a PNG raster, never vector paths or text (an SVG of glyph paths was read by
 * classifying its path commands, 55 of 55). A per-glyph classifier must cut the glyphs apart and
 * then match each against examples, so the drawing makes both hard while a person still reads it:
 * the glyphs are crowded at random advances so that neighbours touch or overlap (no fixed slots, no
 * empty column between them), each is turned, scaled and sheared on its own, and an elastic bend of
 * the whole image makes every copy of a letter a different shape; glyphs and the lines across them
 * share one ink whose colour runs along the image, not by glyph, so colour does not separate them
 * either. The image of a captcha is drawn once and kept with it (service.ts): fetching it again
 * gives the same bytes, nothing new to combine. Measured against such a classifier in
 * server/test/captcha.int.test.ts and bench/captcha-read.ts (docs/auth.md, "Captcha").
 */
export const captchaWidth = 240;
export const captchaHeight = 80;

/** Captcha characters: no 0/O, 1/I/l look-alikes. */
const captchaAlphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/**
 * Five characters: with four, a per-glyph classifier trained on 4 000 of our images read 5.3% of
 * whole codes (the drawing then had no elastic bend); each character more multiplies by the share
 * of glyphs it reads (docs/auth.md, "Captcha").
 */
export const captchaLength = 5;

/** A new code to draw: random characters of the alphabet, from the CSPRNG. */
export const newCaptchaCode = (): string =>
  Array.from({ length: captchaLength }, () => captchaAlphabet[randomInt(captchaAlphabet.length)]).join('');

// opentype.js is a UMD bundle: required, not imported, so every loader sees the same object. The
// font is the one svg-captcha ships (that package is kept for it).
const require = createRequire(import.meta.url);
let font: Font | null = null;
const captchaFont = (): Font => {
  const opentype = require('opentype.js') as typeof import('opentype.js');
  font ??= opentype.loadSync(require.resolve('svg-captcha/fonts/Comismsh.ttf'));
  return font;
};

/** A uniform random number in [min, max) from the CSPRNG: the distortions must not be predictable. */
const rnd = (min: number, max: number) => min + ((max - min) * randomInt(0, 1_000_000)) / 1_000_000;

type Point = [number, number];
/** A closed polygon as one array of coordinates: x0, y0, x1, y1, … (no array per point). */
type Polygon = Float64Array;

/** Flattens a path into closed polygons (curves cut into short segments). */
const polygonsOf = (commands: PathCommand[]): Polygon[] => {
  const polygons: Point[][] = [];
  let current: Point[] = [];
  const steps = 8;
  for (const c of commands) {
    const from = current[current.length - 1] ?? [0, 0];
    if (c.type === 'M') {
      if (current.length > 2) polygons.push(current);
      current = [[c.x, c.y]];
    } else if (c.type === 'L') current.push([c.x, c.y]);
    else if (c.type === 'Q')
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        const u = 1 - t;
        current.push([
          u * u * from[0] + 2 * u * t * c.x1 + t * t * c.x,
          u * u * from[1] + 2 * u * t * c.y1 + t * t * c.y,
        ]);
      }
    else if (c.type === 'C')
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        const u = 1 - t;
        current.push([
          u * u * u * from[0] + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t * t * t * c.x,
          u * u * u * from[1] + 3 * u * u * t * c.y1 + 3 * u * t * t * c.y2 + t * t * t * c.y,
        ]);
      }
    else if (c.type === 'Z') {
      if (current.length > 2) polygons.push(current);
      current = [];
    }
  }
  if (current.length > 2) polygons.push(current);
  return polygons.map((polygon) => Float64Array.from(polygon.flat()));
};

/** A character's flattened outline at font size 1 and the centre of its box. */
interface Outline {
  polygons: Polygon[];
  cx: number;
  cy: number;
}

const outlines = new Map<string, Outline>();

/**
 * The outline of `char`, flattened once per character: the font does not change, and an outline at
 * size s is this one times s (flattening cuts each curve at fixed steps, which scaling keeps), so
 * only the transforms of each drawing are random.
 */
const outlineOf = (char: string): Outline => {
  const known = outlines.get(char);
  if (known) return known;
  const polygons = polygonsOf(captchaFont().charToGlyph(char).getPath(0, 0, 1).commands);
  let [minX, maxX, minY, maxY] = [
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (const polygon of polygons)
    for (let j = 0; j < polygon.length; j += 2) {
      minX = Math.min(minX, polygon[j]!);
      maxX = Math.max(maxX, polygon[j]!);
      minY = Math.min(minY, polygon[j + 1]!);
      maxY = Math.max(maxY, polygon[j + 1]!);
    }
  const outline = { polygons, cx: (minX + maxX) / 2, cy: (minY + maxY) / 2 };
  outlines.set(char, outline);
  return outline;
};

const sub = 4;

/**
 * Fills polygons (non-zero winding) into a coverage buffer with 4 sub-rows per pixel and exact
 * horizontal overlap, so edges are anti-aliased like a real renderer's. Each edge is entered only
 * in the sub-rows it crosses: the crossings are counted per sub-row first, then laid out sub-row
 * after sub-row in one typed array and each sub-row's sorted in place (a stable insertion sort: a
 * sub-row holds a few dozen at most).
 */
const fill = (polygons: Polygon[], width: number, height: number): Float32Array => {
  const rowCount = height * sub;
  const starts = new Int32Array(rowCount + 1);
  /** Calls `visit` for every edge that is not horizontal, with the sub-rows it crosses. */
  const eachEdge = (visit: (x0: number, y0: number, x1: number, y1: number, first: number, last: number) => void) => {
    for (const polygon of polygons)
      for (let j = 0; j < polygon.length; j += 2) {
        const k = (j + 2) % polygon.length;
        const x0 = polygon[j]!;
        const y0 = polygon[j + 1]!;
        const x1 = polygon[k]!;
        const y1 = polygon[k + 1]!;
        if (y0 === y1) continue;
        const [top, bottom] = y0 < y1 ? [y0, y1] : [y1, y0];
        // Sub-row r samples y = (r + 0.5) / sub; the edge covers top <= y < bottom.
        const first = Math.max(0, Math.ceil(top * sub - 0.5));
        const last = Math.min(rowCount - 1, Math.ceil(bottom * sub - 0.5) - 1);
        if (first <= last) visit(x0, y0, x1, y1, first, last);
      }
  };
  eachEdge((_x0, _y0, _x1, _y1, first, last) => {
    for (let r = first; r <= last; r++) starts[r + 1]! += 1;
  });
  for (let r = 0; r < rowCount; r++) starts[r + 1]! += starts[r]!;
  const xs = new Float64Array(starts[rowCount]!);
  const dirs = new Int8Array(xs.length);
  const next = starts.slice(0, rowCount);
  eachEdge((x0, y0, x1, y1, first, last) => {
    const dir = y1 > y0 ? 1 : -1;
    for (let r = first; r <= last; r++) {
      const y = (r + 0.5) / sub;
      const at = next[r]!++;
      xs[at] = x0 + ((y - y0) * (x1 - x0)) / (y1 - y0);
      dirs[at] = dir;
    }
  });
  const coverage = new Float32Array(width * height);
  for (let r = 0; r < rowCount; r++) {
    const [from, to] = [starts[r]!, starts[r + 1]!];
    for (let i = from + 1; i < to; i++) {
      const x = xs[i]!;
      const dir = dirs[i]!;
      let j = i - 1;
      for (; j >= from && xs[j]! > x; j--) {
        xs[j + 1] = xs[j]!;
        dirs[j + 1] = dirs[j]!;
      }
      xs[j + 1] = x;
      dirs[j + 1] = dir;
    }
    let winding = 0;
    const line = Math.floor(r / sub) * width;
    for (let i = from; i < to - 1; i++) {
      winding += dirs[i]!;
      if (winding === 0) continue;
      const start = Math.max(0, xs[i]!);
      const end = Math.min(width, xs[i + 1]!);
      for (let px = Math.floor(start); px < end; px++) {
        const overlap = Math.min(end, px + 1) - Math.max(start, px);
        if (overlap > 0) coverage[line + px]! += overlap / sub;
      }
    }
  }
  return coverage;
};

/** A thick stroke from a to b as a quadrilateral. */
const stroke = (a: Point, b: Point, thickness: number): Polygon => {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const nx = (-(b[1] - a[1]) / length) * (thickness / 2);
  const ny = ((b[0] - a[0]) / length) * (thickness / 2);
  return Float64Array.of(a[0] + nx, a[1] + ny, b[0] + nx, b[1] + ny, b[0] - nx, b[1] - ny, a[0] - nx, a[1] - ny);
};

type Rgb = [number, number, number];
const darkColour = (): Rgb => [randomInt(20, 120), randomInt(20, 120), randomInt(20, 120)];

/** Paints ink over `pixels` where `coverage` says, its colour running from `left` to `right` along x. */
const paint = (pixels: Uint8Array, coverage: Float32Array, width: number, left: Rgb, right: Rgb) => {
  const ink = new Float64Array(width * 3);
  for (let x = 0; x < width; x++) {
    const t = x / width;
    for (let c = 0; c < 3; c++) ink[x * 3 + c] = left[c]! * (1 - t) + right[c]! * t;
  }
  for (let i = 0, x = 0; i < coverage.length; i++, x = x + 1 === width ? 0 : x + 1) {
    const a = Math.min(1, coverage[i]!);
    if (a <= 0) continue;
    for (let c = 0; c < 3; c++) pixels[i * 3 + c] = Math.round(pixels[i * 3 + c]! * (1 - a) + ink[x * 3 + c]! * a);
  }
};

/** A glyph turned, scaled and sheared on its own, centred on (0, 0), with its width and vertical extent. */
const bentGlyph = (char: string): { polygons: Polygon[]; width: number; top: number; bottom: number } => {
  const { polygons, cx, cy } = outlineOf(char);
  const size = rnd(80, 96);
  const angle = rnd(-0.35, 0.35);
  const [sx, sy] = [rnd(0.75, 1.2), rnd(0.8, 1.15)];
  const shear = rnd(-0.3, 0.3);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  let [minX, maxX, minY, maxY] = [
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  const bent = polygons.map((polygon) => {
    const out = new Float64Array(polygon.length);
    for (let j = 0; j < polygon.length; j += 2) {
      const x = (polygon[j]! - cx) * size;
      const y = (polygon[j + 1]! - cy) * size;
      const dx = x * sx + y * shear;
      const dy = y * sy;
      const bx = dx * cos - dy * sin;
      const by = dx * sin + dy * cos;
      out[j] = bx;
      out[j + 1] = by;
      minX = Math.min(minX, bx);
      maxX = Math.max(maxX, bx);
      minY = Math.min(minY, by);
      maxY = Math.max(maxY, by);
    }
    return out;
  });
  return { polygons: bent, width: maxX - minX, top: minY, bottom: maxY };
};

/**
 * A random elastic displacement of the plane: a sum of sine waves running in random directions,
 * each a glyph or so long, each moving points in a random direction by a few pixels. Strokes wobble
 * and bend where they happen to lie, so no two copies of a letter share one shape, while a person
 * still sees the letter (the way handwriting varies). The returned function moves a polygon's
 * points in place.
 */
const elasticWarp = (): ((polygon: Polygon) => void) => {
  const waves = Array.from({ length: 6 }, () => {
    const heading = rnd(0, Math.PI * 2);
    const push = rnd(0, Math.PI * 2);
    return {
      kx: Math.cos(heading) / rnd(5, 10),
      ky: Math.sin(heading) / rnd(5, 10),
      ux: Math.cos(push) * rnd(0.9, 2),
      uy: Math.sin(push) * rnd(0.9, 2),
      phase: rnd(0, Math.PI * 2),
    };
  });
  return (polygon) => {
    for (let j = 0; j < polygon.length; j += 2) {
      const x = polygon[j]!;
      const y = polygon[j + 1]!;
      let dx = 0;
      let dy = 0;
      for (const w of waves) {
        const s = Math.sin(x * w.kx + y * w.ky + w.phase);
        dx += w.ux * s;
        dy += w.uy * s;
      }
      polygon[j] = x + dx;
      polygon[j + 1] = y + dy;
    }
  };
};

/** Draws `text` as a PNG: the same text never gives the same image twice. */
export const renderCaptcha = (text: string): Buffer => {
  const width = captchaWidth;
  const height = captchaHeight;
  const pixels = new Uint8Array(width * height * 3);
  const base: Rgb = [randomInt(215, 250), randomInt(215, 250), randomInt(215, 250)];
  // The noisy ground: each channel's base moved by a random -25..25, looked up per byte value.
  const ground = new Uint8Array(3 * 256);
  for (let c = 0; c < 3; c++)
    for (let b = 0; b < 256; b++) ground[c * 256 + b] = Math.max(0, Math.min(255, base[c]! + (b % 51) - 25));
  const noise = randomBytes(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3)
    for (let c = 0; c < 3; c++) pixels[i + c] = ground[c * 256 + noise[i + c]!]!;

  // Crowded: each glyph's centre follows the last one's by less than their half-widths, by a
  // different share each time, so neighbours touch or overlap wherever they happen to fall. The
  // line is then scaled to a random share of the width (as tall as the image allows) and placed at
  // random, so no glyph has a fixed place.
  const glyphs = [...text].map(bentGlyph);
  const centres = [0];
  for (let i = 1; i < glyphs.length; i++)
    centres.push(
      (centres[i - 1] ?? 0) + (((glyphs[i - 1]?.width ?? 0) + (glyphs[i]?.width ?? 0)) / 2) * rnd(0.75, 0.92),
    );
  const left = -(glyphs[0]?.width ?? 0) / 2;
  const span = (centres.at(-1) ?? 0) + (glyphs.at(-1)?.width ?? 0) / 2 - left;
  const tallest = Math.max(...glyphs.map((g) => g.bottom - g.top));
  const scale = Math.min((rnd(0.7, 0.9) * (width - 16)) / span, (height - 8) / tallest);
  const ox = 8 + rnd(0, width - 16 - span * scale) - left * scale;
  const warp = elasticWarp();
  const placed = glyphs.flatMap((glyph, i) => {
    const x0 = ox + (centres[i] ?? 0) * scale;
    // Anywhere up or down where the whole glyph stays 4 px inside the image.
    const y0 = rnd(4 - glyph.top * scale, Math.max(4 - glyph.top * scale, height - 4 - glyph.bottom * scale));
    return glyph.polygons.map((polygon) => {
      for (let j = 0; j < polygon.length; j += 2) {
        polygon[j] = x0 + polygon[j]! * scale;
        polygon[j + 1] = y0 + polygon[j + 1]! * scale;
      }
      warp(polygon);
      return polygon;
    });
  });

  // Two lines through the text in the same ink, as thin as the glyphs' rims.
  const lines: Polygon[] = [];
  for (let n = 2; n > 0; n--) {
    const points: Point[] = [[rnd(-10, width * 0.25), rnd(15, height - 15)]];
    while ((points.at(-1)?.[0] ?? width) < width + 10) {
      const prev = points.at(-1) ?? [0, 0];
      points.push([prev[0] + rnd(20, 50), Math.max(8, Math.min(height - 8, prev[1] + rnd(-16, 16)))]);
    }
    const thickness = rnd(1.2, 1.8);
    for (let s = 0; s < points.length - 1; s++)
      lines.push(stroke(points[s] ?? [0, 0], points[s + 1] ?? [0, 0], thickness));
  }
  const [inkLeft, inkRight] = [darkColour(), darkColour()];
  paint(pixels, fill(placed, width, height), width, inkLeft, inkRight);
  paint(pixels, fill(lines, width, height), width, inkLeft, inkRight);

  // Speckles: dark dots and light holes.
  const spots = randomBytes(600 * 4);
  for (let n = 0; n < 600; n++) {
    const i = spots.readUInt16LE(n * 4) % (width * height);
    const colour = (spots[n * 4 + 2] ?? 0) & 1 ? darkColour() : base;
    for (let c = 0; c < 3; c++) pixels[i * 3 + c] = colour[c] ?? 0;
  }
  return encodePng(pixels, width, height);
};

const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body)); // zlib's own CRC-32, as PNG's chunks use
  return Buffer.concat([length, body, crc]);
};

/**
 * Encodes 8-bit RGB pixels as a PNG (each row unfiltered; zlib from Node). Huffman coding only: the
 * ground's noise is new in every pixel, so zlib's search for repeated strings found almost nothing
 * and took most of the time (PNG ~44 KiB at the default level, ~46 KiB this way, 2–3 times faster).
 */
export const encodePng = (pixels: Uint8Array, width: number, height: number): Buffer => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    Buffer.from(pixels.buffer, pixels.byteOffset + y * width * 3, width * 3).copy(raw, y * (width * 3 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { strategy: constants.Z_HUFFMAN_ONLY })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};
