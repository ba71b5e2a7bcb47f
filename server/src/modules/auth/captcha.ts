import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import type { Font, PathCommand } from 'opentype.js';

/**
 * The captcha image: a PNG raster, never vector paths or text (an SVG of glyph paths was read by
 * classifying its path commands, 55 of 55). Each glyph's outline is bent on its own (rotation,
 * scale, shear, offset, a wave), filled with anti-aliasing, and crossed by lines and speckles of
 * the glyphs' own colours, so neither the bytes nor a column template match from one image to the next.
 */
export const captchaWidth = 240;
export const captchaHeight = 80;

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
type Edge = [number, number, number, number];

/** Flattens a path into closed polygons (curves cut into short segments). */
const polygonsOf = (commands: PathCommand[]): Point[][] => {
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
  return polygons;
};

const edgesOf = (polygons: Point[][]): Edge[] =>
  polygons.flatMap((polygon) =>
    polygon.map((p, i): Edge => {
      const q = polygon[(i + 1) % polygon.length] ?? p;
      return [p[0], p[1], q[0], q[1]];
    }),
  );

/**
 * Fills polygons (non-zero winding) into a coverage buffer with 4 sub-rows per pixel and exact
 * horizontal overlap, so edges are anti-aliased like a real renderer's.
 */
const fill = (edges: Edge[], width: number, height: number): Float32Array => {
  const coverage = new Float32Array(width * height);
  const sub = 4;
  for (let row = 0; row < height * sub; row++) {
    const y = (row + 0.5) / sub;
    const crossings: { x: number; dir: number }[] = [];
    for (const [x0, y0, x1, y1] of edges) {
      if (y0 === y1 || y < Math.min(y0, y1) || y >= Math.max(y0, y1)) continue;
      crossings.push({ x: x0 + ((y - y0) * (x1 - x0)) / (y1 - y0), dir: y1 > y0 ? 1 : -1 });
    }
    crossings.sort((a, b) => a.x - b.x);
    let winding = 0;
    const line = Math.floor(y) * width;
    for (let i = 0; i < crossings.length - 1; i++) {
      winding += crossings[i]?.dir ?? 0;
      if (winding === 0) continue;
      const start = Math.max(0, crossings[i]?.x ?? 0);
      const end = Math.min(width, crossings[i + 1]?.x ?? 0);
      for (let px = Math.floor(start); px < end; px++) {
        const overlap = Math.min(end, px + 1) - Math.max(start, px);
        if (overlap > 0) coverage[line + px] = (coverage[line + px] ?? 0) + overlap / sub;
      }
    }
  }
  return coverage;
};

/** A thick stroke from a to b as a quadrilateral. */
const stroke = (a: Point, b: Point, thickness: number): Point[] => {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const nx = (-(b[1] - a[1]) / length) * (thickness / 2);
  const ny = ((b[0] - a[0]) / length) * (thickness / 2);
  return [
    [a[0] + nx, a[1] + ny],
    [b[0] + nx, b[1] + ny],
    [b[0] - nx, b[1] - ny],
    [a[0] - nx, a[1] - ny],
  ];
};

type Rgb = [number, number, number];
const darkColour = (): Rgb => [randomInt(20, 140), randomInt(20, 140), randomInt(20, 140)];

/** Paints `colour` over `pixels` where `coverage` says, blending at the anti-aliased edges. */
const paint = (pixels: Uint8Array, coverage: Float32Array, colour: Rgb) => {
  for (let i = 0; i < coverage.length; i++) {
    const a = Math.min(1, coverage[i] ?? 0);
    if (a <= 0) continue;
    for (let c = 0; c < 3; c++)
      pixels[i * 3 + c] = Math.round((pixels[i * 3 + c] ?? 0) * (1 - a) + (colour[c] ?? 0) * a);
  }
};

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** Encodes 8-bit RGB pixels as a PNG (each row unfiltered; zlib from Node). */
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
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

/** Draws `text` as a fresh PNG: the same text never gives the same image twice. */
export const renderCaptcha = (text: string): Buffer => {
  const width = captchaWidth;
  const height = captchaHeight;
  const pixels = new Uint8Array(width * height * 3);
  const base: Rgb = [randomInt(215, 250), randomInt(215, 250), randomInt(215, 250)];
  for (let i = 0; i < width * height; i++)
    for (let c = 0; c < 3; c++) pixels[i * 3 + c] = Math.max(0, Math.min(255, (base[c] ?? 230) + randomInt(-25, 26)));

  const glyphFont = captchaFont();
  const chars = [...text];
  const slot = (width - 24) / chars.length;
  // One wave through the whole line bends every glyph differently by where it lands.
  const wave = { amplitude: rnd(2, 5), period: rnd(40, 90), phase: rnd(0, Math.PI * 2) };
  const colours: Rgb[] = [];
  chars.forEach((char, i) => {
    const fontSize = rnd(84, 100);
    const commands = glyphFont.charToGlyph(char).getPath(0, 0, fontSize).commands;
    const polygons = polygonsOf(commands);
    const xs = polygons.flat().map((p) => p[0]);
    const ys = polygons.flat().map((p) => p[1]);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const angle = rnd(-0.5, 0.5);
    const [sx, sy] = [rnd(0.75, 1.2), rnd(0.75, 1.2)];
    const shear = rnd(-0.4, 0.4);
    const ox = 12 + slot * (i + 0.5) + rnd(-slot * 0.15, slot * 0.15);
    const oy = height / 2 + rnd(-7, 7);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const placed = polygons.map((polygon) =>
      polygon.map(([x, y]): Point => {
        const dx = (x - cx) * sx + (y - cy) * shear;
        const dy = (y - cy) * sy;
        const px = ox + dx * cos - dy * sin;
        const py = oy + dx * sin + dy * cos;
        return [px, py + wave.amplitude * Math.sin(px / wave.period + wave.phase)];
      }),
    );
    const colour = darkColour();
    colours.push(colour);
    paint(pixels, fill(edgesOf(placed), width, height), colour);
  });

  // Lines through the text in the glyphs' own colours, so colour does not separate them.
  const lines: Point[][] = [];
  for (let n = randomInt(3, 6); n > 0; n--) {
    const points: Point[] = [[rnd(-10, width * 0.3), rnd(5, height - 5)]];
    for (let s = 0; s < 6; s++) {
      const prev = points[points.length - 1] ?? [0, 0];
      points.push([prev[0] + rnd(20, 50), Math.max(2, Math.min(height - 2, prev[1] + rnd(-18, 18)))]);
    }
    const thickness = rnd(1.2, 3);
    for (let s = 0; s < points.length - 1; s++)
      lines.push(stroke(points[s] ?? [0, 0], points[s + 1] ?? [0, 0], thickness));
    paint(pixels, fill(edgesOf(lines.splice(0)), width, height), colours[n % colours.length] ?? darkColour());
  }
  // Speckles: dark dots and light holes.
  for (let n = 0; n < 700; n++) {
    const i = randomInt(0, width * height);
    const colour: Rgb = randomInt(0, 2) ? darkColour() : base;
    for (let c = 0; c < 3; c++) pixels[i * 3 + c] = colour[c] ?? 0;
  }
  return encodePng(pixels, width, height);
};
