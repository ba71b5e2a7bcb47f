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
    if (filter === 0) {
      rgb.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
      continue;
    }
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
  for (let i = 0; i < grey.length; i++) histogram[grey[i]!]! += 1;
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
    const top = Math.max(0, y - r) * stride;
    const bottom = Math.min(height, y + r + 1) * stride;
    const count = (x: number, left: number, right: number) => {
      out[y * width + x] = sums[bottom + right]! - sums[top + right]! - sums[bottom + left]! + sums[top + left]!;
    };
    // The square is clipped only within r of the left and right edges.
    const [inFrom, inTo] = [Math.min(r, width), Math.max(Math.min(r, width), width - r)];
    for (let x = 0; x < inFrom; x++) count(x, 0, Math.min(width, x + r + 1));
    for (let x = inFrom; x < inTo; x++) count(x, x - r, x + r + 1);
    for (let x = inTo; x < width; x++) count(x, Math.max(0, x - r), Math.min(width, x + r + 1));
  }
  return out;
};

/** Keeps the pixels with at least `min` neighbours on (a majority filter, an erosion, a dilation). */
const keepWhere = (ink: Ink, r: number, min: number): Ink => {
  const on = neighbours(ink, r);
  for (let i = 0; i < on.length; i++) on[i] = on[i]! >= min ? 1 : 0;
  return { ...ink, on };
};

/** Removes connected pieces of ink smaller than `minArea` pixels. */
const dropSmall = (ink: Ink, minArea: number): Ink => {
  const { width, height, on } = ink;
  const out = Uint8Array.from(on);
  const seen = new Uint8Array(on.length);
  // One piece at a time, breadth first; `piece` holds its pixels (every pixel is in one piece).
  const piece = new Int32Array(on.length);
  const visit = (q: number, size: number): number => {
    if (!on[q] || seen[q]) return size;
    seen[q] = 1;
    piece[size] = q;
    return size + 1;
  };
  for (let start = 0; start < on.length; start++) {
    if (!on[start] || seen[start]) continue;
    let size = visit(start, 0);
    for (let i = 0; i < size; i++) {
      const p = piece[i]!;
      const x = p % width;
      if (x > 0) size = visit(p - 1, size);
      if (x < width - 1) size = visit(p + 1, size);
      if (p >= width) size = visit(p - width, size);
      if (p < (height - 1) * width) size = visit(p + width, size);
    }
    if (size < minArea) for (let i = 0; i < size; i++) out[piece[i]!] = 0;
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
  for (let i = 0, j = 0; i < grey.length; i++, j += 3)
    grey[i] = Math.round(0.299 * rgb[j]! + 0.587 * rgb[j + 1]! + 0.114 * rgb[j + 2]!);
  const t = otsu(grey);
  const dark = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) dark[i] = grey[i]! < t ? 1 : 0;
  let ink = keepWhere({ width, height, on: dark }, 1, 5);
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

/** Parts of a feature vector after which the k-NN checks whether an example can still be among the best. */
const knnStages = 4;

/**
 * The length of the rest of `v` after each of the first knnStages - 1 parts: a bound on what the
 * rest of a dot product can add (Cauchy–Schwarz).
 */
const tailNorms = (v: Float32Array): number[] => {
  const part = v.length / knnStages;
  return Array.from({ length: knnStages - 1 }, (_, stage) => {
    let sum = 0;
    for (let i = (stage + 1) * part; i < v.length; i++) sum += v[i]! * v[i]!;
    return Math.sqrt(sum);
  });
};

/**
 * k nearest neighbours by cosine similarity over labelled glyph features. The similarities are
 * summed eight examples at a time, each alone and in order (the same numbers, bit for bit, as one
 * at a time, while the eight chains of additions overlap), and a block of eight is left off once
 * what is summed plus what the rest could add (partial sum + |rest of example| · |rest of glyph|)
 * stays below the k-th best so far by more than rounding: it could not have entered the k best, so
 * the answers are those of summing everything.
 */
export const createKnn = (k: number) => {
  const size = featureSide * featureSide;
  const part = size / knnStages;
  const margin = 1e-9;
  let bank = new Float32Array(size * 1024);
  const tails: number[] = [];
  const labels: string[] = [];
  return {
    add(feature: Float32Array, label: string) {
      if ((labels.length + 1) * size > bank.length) {
        const grown = new Float32Array(bank.length * 2);
        grown.set(bank);
        bank = grown;
      }
      bank.set(feature, labels.length * size);
      tails.push(...tailNorms(feature));
      labels.push(label.toLowerCase());
    },
    classify(feature: Float32Array): string {
      const best: Array<{ s: number; label: string }> = [];
      let worst = Number.NEGATIVE_INFINITY;
      const consider = (s: number, n: number) => {
        if (best.length < k || s > worst) {
          best.push({ s, label: labels[n]! });
          best.sort((a, b) => b.s - a.s);
          if (best.length > k) best.pop();
          worst = best.at(-1)!.s;
        }
      };
      const rows = bank;
      const count = labels.length;
      const rest = tailNorms(feature);
      const t = knnStages - 1;
      let n = 0;
      for (; n + 8 <= count; n += 8) {
        const o = n * size;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let s4 = 0;
        let s5 = 0;
        let s6 = 0;
        let s7 = 0;
        let stage = 0;
        for (; stage < knnStages; stage++) {
          for (let i = stage * part; i < (stage + 1) * part; i++) {
            const f = feature[i]!;
            const at = o + i;
            s0 += rows[at]! * f;
            s1 += rows[at + size]! * f;
            s2 += rows[at + 2 * size]! * f;
            s3 += rows[at + 3 * size]! * f;
            s4 += rows[at + 4 * size]! * f;
            s5 += rows[at + 5 * size]! * f;
            s6 += rows[at + 6 * size]! * f;
            s7 += rows[at + 7 * size]! * f;
          }
          if (stage === t || best.length < k) continue;
          const [q, at, limit] = [rest[stage]!, n * t + stage, worst - margin];
          if (
            s0 + tails[at]! * q < limit &&
            s1 + tails[at + t]! * q < limit &&
            s2 + tails[at + 2 * t]! * q < limit &&
            s3 + tails[at + 3 * t]! * q < limit &&
            s4 + tails[at + 4 * t]! * q < limit &&
            s5 + tails[at + 5 * t]! * q < limit &&
            s6 + tails[at + 6 * t]! * q < limit &&
            s7 + tails[at + 7 * t]! * q < limit
          )
            break;
        }
        if (stage < knnStages) continue;
        consider(s0, n);
        consider(s1, n + 1);
        consider(s2, n + 2);
        consider(s3, n + 3);
        consider(s4, n + 4);
        consider(s5, n + 5);
        consider(s6, n + 6);
        consider(s7, n + 7);
      }
      for (; n < count; n++) {
        let s = 0;
        const offset = n * size;
        for (let i = 0; i < size; i++) s += rows[offset + i]! * feature[i]!;
        consider(s, n);
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
