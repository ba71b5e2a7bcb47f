import { randomBytes, randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { crc32, deflateSync } from 'node:zlib';
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

const sub = 4;

/**
 * Fills polygons (non-zero winding) into a coverage buffer with 4 sub-rows per pixel and exact
 * horizontal overlap, so edges are anti-aliased like a real renderer's. Each edge is entered only
 * in the sub-rows it crosses.
 */
const fill = (polygons: Point[][], width: number, height: number): Float32Array => {
  const rows: Array<Array<{ x: number; dir: number }>> = Array.from({ length: height * sub }, () => []);
  for (const polygon of polygons)
    polygon.forEach(([x0, y0], i) => {
      const [x1, y1] = polygon[(i + 1) % polygon.length] ?? [x0, y0];
      if (y0 === y1) return;
      const dir = y1 > y0 ? 1 : -1;
      const [top, bottom] = y0 < y1 ? [y0, y1] : [y1, y0];
      // Sub-row r samples y = (r + 0.5) / sub; the edge covers top <= y < bottom.
      const first = Math.max(0, Math.ceil(top * sub - 0.5));
      const last = Math.min(height * sub - 1, Math.ceil(bottom * sub - 0.5) - 1);
      for (let r = first; r <= last; r++) {
        const y = (r + 0.5) / sub;
        rows[r]?.push({ x: x0 + ((y - y0) * (x1 - x0)) / (y1 - y0), dir });
      }
    });
  const coverage = new Float32Array(width * height);
  rows.forEach((crossings, r) => {
    crossings.sort((a, b) => a.x - b.x);
    let winding = 0;
    const line = Math.floor(r / sub) * width;
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
  });
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
const darkColour = (): Rgb => [randomInt(20, 120), randomInt(20, 120), randomInt(20, 120)];

/** Paints ink over `pixels` where `coverage` says, its colour running from `left` to `right` along x. */
const paint = (pixels: Uint8Array, coverage: Float32Array, width: number, left: Rgb, right: Rgb) => {
  for (let i = 0; i < coverage.length; i++) {
    const a = Math.min(1, coverage[i] ?? 0);
    if (a <= 0) continue;
    const t = (i % width) / width;
    for (let c = 0; c < 3; c++) {
      const ink = (left[c] ?? 0) * (1 - t) + (right[c] ?? 0) * t;
      pixels[i * 3 + c] = Math.round((pixels[i * 3 + c] ?? 0) * (1 - a) + ink * a);
    }
  }
};

/** A glyph turned, scaled and sheared on its own, centred on (0, 0), with its width and vertical extent. */
const bentGlyph = (char: string): { polygons: Point[][]; width: number; top: number; bottom: number } => {
  const polygons = polygonsOf(captchaFont().charToGlyph(char).getPath(0, 0, rnd(80, 96)).commands);
  const points = polygons.flat();
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const angle = rnd(-0.35, 0.35);
  const [sx, sy] = [rnd(0.75, 1.2), rnd(0.8, 1.15)];
  const shear = rnd(-0.3, 0.3);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const bent = polygons.map((polygon) =>
    polygon.map(([x, y]): Point => {
      const dx = (x - cx) * sx + (y - cy) * shear;
      const dy = (y - cy) * sy;
      return [dx * cos - dy * sin, dx * sin + dy * cos];
    }),
  );
  const bentXs = bent.flat().map((p) => p[0]);
  const bentYs = bent.flat().map((p) => p[1]);
  return {
    polygons: bent,
    width: Math.max(...bentXs) - Math.min(...bentXs),
    top: Math.min(...bentYs),
    bottom: Math.max(...bentYs),
  };
};

/**
 * A random elastic displacement of the plane: a sum of sine waves running in random directions,
 * each a glyph or so long, each moving points in a random direction by a few pixels. Strokes wobble
 * and bend where they happen to lie, so no two copies of a letter share one shape, while a person
 * still sees the letter (the way handwriting varies).
 */
const elasticWarp = (): ((p: Point) => Point) => {
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
  return ([x, y]) => {
    let [dx, dy] = [0, 0];
    for (const w of waves) {
      const s = Math.sin(x * w.kx + y * w.ky + w.phase);
      dx += w.ux * s;
      dy += w.uy * s;
    }
    return [x + dx, y + dy];
  };
};

/** Draws `text` as a PNG: the same text never gives the same image twice. */
export const renderCaptcha = (text: string): Buffer => {
  const width = captchaWidth;
  const height = captchaHeight;
  const pixels = new Uint8Array(width * height * 3);
  const base: Rgb = [randomInt(215, 250), randomInt(215, 250), randomInt(215, 250)];
  const noise = randomBytes(width * height * 3);
  for (let i = 0; i < pixels.length; i++)
    pixels[i] = Math.max(0, Math.min(255, (base[i % 3] ?? 230) + ((noise[i] ?? 0) % 51) - 25));

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
    return glyph.polygons.map((polygon) => polygon.map(([x, y]) => warp([x0 + x * scale, y0 + y * scale])));
  });

  // Two lines through the text in the same ink, as thin as the glyphs' rims.
  const lines: Point[][] = [];
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
