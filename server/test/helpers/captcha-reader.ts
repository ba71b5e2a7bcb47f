import { inflateSync } from 'node:zlib';

/**
 * What an attacker would try first on our captcha (issue 27): decode the PNG, keep the dark ink,
 * clean speckles and thin lines, cut the line of ink into glyphs, and classify each glyph by its
 * nearest neighbours among glyphs cut the same way from images of their own install (where they
 * read the codes from their own database). Codes compare case-insensitively, as the login does.
 */

export interface Raster {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel. */
  rgb: Uint8Array;
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** Decodes an 8-bit RGB PNG (every filter type), as any image library would. */
export const decodePng = (png: Buffer): Raster => {
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[9] !== 2) throw new Error('only 8-bit RGB');
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * 3;
  const rgb = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= 3 ? rgb[y * stride + x - 3]! : 0;
      const b = y > 0 ? rgb[(y - 1) * stride + x]! : 0;
      const c = x >= 3 && y > 0 ? rgb[(y - 1) * stride + x - 3]! : 0;
      const predicted =
        filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      rgb[y * stride + x] = (v + predicted) & 0xff;
    }
  }
  return { width, height, rgb };
};

/** A binary image: 1 where there is ink. */
export interface Ink {
  width: number;
  height: number;
  on: Uint8Array;
}

/** Otsu's threshold over the grey levels: the split that best separates ink from paper. */
const otsu = (grey: Uint8Array): number => {
  const histogram = new Float64Array(256);
  for (const g of grey) histogram[g]! += 1;
  const sum = histogram.reduce((s, n, i) => s + n * i, 0);
  let [best, threshold, below, sumBelow] = [0, 128, 0, 0];
  for (let t = 0; t < 256; t++) {
    below += histogram[t]!;
    sumBelow += t * histogram[t]!;
    const above = grey.length - below;
    if (below === 0 || above === 0) continue;
    const between = below * above * (sumBelow / below - (sum - sumBelow) / above) ** 2;
    if (between > best) [best, threshold] = [between, t];
  }
  return threshold;
};

/**
 * How many pixels of the (2r+1)² square around each pixel are on (clipped at the edges), from a
 * summed-area table: four reads a pixel whatever the radius.
 */
const neighbours = ({ width, height, on }: Ink, r: number): Uint8Array => {
  const stride = width + 1;
  const sums = new Uint32Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += on[y * width + x]!;
      sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1]! + row;
    }
  }
  const out = new Uint8Array(on.length);
  for (let y = 0; y < height; y++) {
    const [top, bottom] = [Math.max(0, y - r), Math.min(height, y + r + 1)];
    for (let x = 0; x < width; x++) {
      const [left, right] = [Math.max(0, x - r), Math.min(width, x + r + 1)];
      out[y * width + x] =
        sums[bottom * stride + right]! -
        sums[top * stride + right]! -
        sums[bottom * stride + left]! +
        sums[top * stride + left]!;
    }
  }
  return out;
};

/** Keeps the pixels with at least `min` neighbours on (a majority filter, an erosion, a dilation). */
const keepWhere = (ink: Ink, r: number, min: number): Ink => ({
  ...ink,
  on: neighbours(ink, r).map((n) => (n >= min ? 1 : 0)),
});

/** Removes connected pieces of ink smaller than `minArea` pixels. */
const dropSmall = (ink: Ink, minArea: number): Ink => {
  const { width, height, on } = ink;
  const out = Uint8Array.from(on);
  const seen = new Uint8Array(on.length);
  for (let start = 0; start < on.length; start++) {
    if (!on[start] || seen[start]) continue;
    const piece = [start];
    seen[start] = 1;
    for (let i = 0; i < piece.length; i++) {
      const p = piece[i]!;
      const [x, y] = [p % width, Math.floor(p / width)];
      for (const [nx, ny] of [
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ] as const) {
        const q = ny * width + nx;
        if (nx >= 0 && nx < width && ny >= 0 && ny < height && on[q] && !seen[q]) {
          seen[q] = 1;
          piece.push(q);
        }
      }
    }
    if (piece.length < minArea) for (const p of piece) out[p] = 0;
  }
  return { width, height, on: out };
};

/**
 * Dark ink of the image, cleaned: a majority filter takes the speckles, an opening of radius
 * `open` (erode, then dilate) the lines thinner than 2·open+1 pixels, and small leftovers go.
 */
export const inkOf = (raster: Raster, open: number): Ink => {
  const { width, height, rgb } = raster;
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++)
    grey[i] = Math.round(0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!);
  const t = otsu(grey);
  let ink = keepWhere({ width, height, on: grey.map((g) => (g < t ? 1 : 0)) }, 1, 5);
  if (open > 0) {
    const side = (2 * open + 1) ** 2;
    ink = keepWhere(keepWhere(ink, open, side), open, 1);
  }
  return dropSmall(ink, 30);
};

/** Ink pixels per column. */
const profile = ({ width, height, on }: Ink): number[] =>
  Array.from({ length: width }, (_, x) => {
    let n = 0;
    for (let y = 0; y < height; y++) n += on[y * width + x]!;
    return n;
  });

/**
 * Where the text runs: the columns from the first to the last whose ink passes a fifth of the
 * busiest column's (a line across the image adds a few pixels a column, a glyph many more).
 */
const textSpan = (columns: number[]): [number, number] => {
  const floor = Math.max(...columns) / 5;
  const first = columns.findIndex((n) => n > floor);
  const last = columns.findLastIndex((n) => n > floor);
  return first < 0 ? [0, columns.length] : [first, last + 1];
};

export type Segmenter = (ink: Ink, count: number) => Array<[number, number]>;

/** Column ranges of the glyphs: the text's span cut into `count` equal parts. */
export const cutEvenly: Segmenter = (ink, count) => {
  const [start, end] = textSpan(profile(ink));
  const part = (end - start) / count;
  return Array.from({ length: count }, (_, i) => [Math.round(start + i * part), Math.round(start + (i + 1) * part)]);
};

/**
 * Column ranges cut at the emptiest column near each even cut (within ±40% of a glyph's width):
 * where glyphs do not touch, the cut falls between them.
 */
export const cutAtValleys: Segmenter = (ink, count) => {
  const columns = profile(ink);
  const [start, end] = textSpan(columns);
  const part = (end - start) / count;
  const cuts = [start];
  for (let i = 1; i < count; i++) {
    const centre = Math.round(start + i * part);
    let best = centre;
    for (let x = Math.round(centre - part * 0.4); x <= centre + part * 0.4; x++)
      if (x > cuts.at(-1)! + 4 && x < end - 4 && columns[x]! < columns[best]!) best = x;
    cuts.push(best);
  }
  cuts.push(end);
  return Array.from({ length: count }, (_, i) => [cuts[i]!, cuts[i + 1]!]);
};

export const featureSide = 16;

/** A glyph as a feature vector: the ink box inside its columns, scaled to 16×16, centred and unit length. */
export const featureOf = ({ width, height, on }: Ink, [from, to]: [number, number]): Float32Array => {
  let [x0, x1, y0, y1] = [to, from - 1, height, -1];
  for (let y = 0; y < height; y++)
    for (let x = from; x < to; x++)
      if (on[y * width + x]) [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
  const f = new Float32Array(featureSide * featureSide);
  if (x1 < x0) return f;
  const [w, h] = [x1 + 1 - x0, y1 + 1 - y0];
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++)
      if (on[y * width + x])
        f[Math.floor(((y - y0) * featureSide) / h) * featureSide + Math.floor(((x - x0) * featureSide) / w)]! += 1;
  const mean = f.reduce((s, v) => s + v, 0) / f.length;
  const norm = Math.sqrt(f.reduce((s, v) => s + (v - mean) ** 2, 0)) || 1;
  return f.map((v) => (v - mean) / norm);
};

export interface Reading {
  /** Opening radius: lines thinner than 2·open+1 pixels are taken away. */
  open: number;
  segment: Segmenter;
}

/** The glyph features of one image. */
export const glyphsOf = (png: Buffer, count: number, reading: Reading): Float32Array[] => {
  const ink = inkOf(decodePng(png), reading.open);
  return reading.segment(ink, count).map((range) => featureOf(ink, range));
};

/** k nearest neighbours by cosine similarity over labelled glyph features. */
export const createKnn = (k: number) => {
  const size = featureSide * featureSide;
  let bank = new Float32Array(size * 1024);
  const labels: string[] = [];
  return {
    add(feature: Float32Array, label: string) {
      if ((labels.length + 1) * size > bank.length) {
        const grown = new Float32Array(bank.length * 2);
        grown.set(bank);
        bank = grown;
      }
      bank.set(feature, labels.length * size);
      labels.push(label.toLowerCase());
    },
    classify(feature: Float32Array): string {
      const best: Array<{ s: number; label: string }> = [];
      let worst = Number.NEGATIVE_INFINITY;
      for (let n = 0; n < labels.length; n++) {
        let s = 0;
        const offset = n * size;
        for (let i = 0; i < size; i++) s += bank[offset + i]! * feature[i]!;
        if (best.length < k || s > worst) {
          best.push({ s, label: labels[n]! });
          best.sort((a, b) => b.s - a.s);
          if (best.length > k) best.pop();
          worst = best.at(-1)!.s;
        }
      }
      const votes = new Map<string, number>();
      for (const b of best) votes.set(b.label, (votes.get(b.label) ?? 0) + b.s);
      return [...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    },
  };
};

export interface Sample {
  text: string;
  png: Buffer;
}

export interface ReadMeasure {
  /** Whole codes read right (case-insensitive), of `images`. */
  codes: number;
  /** Glyphs read right, of `images × code length`. */
  glyphs: number;
  images: number;
}

/**
 * Trains a reader on `train` (codes and images, as the server draws them) and measures it on
 * `test`: how many whole codes and glyphs it reads right.
 */
export const measureReader = (train: Sample[], test: Sample[], reading: Reading, k = 3): ReadMeasure => {
  const knn = createKnn(k);
  for (const { text, png } of train)
    glyphsOf(png, text.length, reading).forEach((f, i) => {
      knn.add(f, text[i]!);
    });
  const measure: ReadMeasure = { codes: 0, glyphs: 0, images: test.length };
  for (const { text, png } of test) {
    const read = glyphsOf(png, text.length, reading).map((f) => knn.classify(f));
    const right = read.filter((c, i) => c === text[i]!.toLowerCase()).length;
    measure.glyphs += right;
    if (right === text.length) measure.codes += 1;
  }
  return measure;
};
