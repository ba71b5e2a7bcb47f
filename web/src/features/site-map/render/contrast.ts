/**
 * Readable label colours over a picture (docs/site-map.md "Label colours"): the labels' default
 * colour follows the background's luminance — light text on a dark floor plan, dark text on a
 * light one — and a halo of the opposite tone keeps them readable where the plan varies under
 * them. A colour the user set on a component is kept. Pure functions, tested without a browser.
 */

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0–1 */
  a: number;
}

export type Tone = 'light' | 'dark';

/** The default label colours of each tone (light labels for dark backgrounds, dark for light ones). */
export const toneText: Record<Tone, string> = { light: '#e6f4ff', dark: '#1d2533' };

/** The backdrop of every picture where its background image is missing or transparent. */
export const sceneBackdrop = '#0b1a2e';

/** A CSS colour as #rgb, #rrggbb, #rrggbbaa, rgb(…) or rgba(…); null for anything else. */
export const parseColour = (css: string): Rgba | null => {
  const s = css.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    const n = (i: number) => Number.parseInt(full.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: full.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(s);
  if (!fn) return null;
  const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? Number.parseFloat(fn[4]) / 100 : Number(fn[4]);
  return { r: Number(fn[1]), g: Number(fn[2]), b: Number(fn[3]), a: alpha };
};

/** `top` drawn over an opaque `under`. */
export const over = (top: Rgba, under: Rgba): Rgba => ({
  r: top.r * top.a + under.r * (1 - top.a),
  g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a),
  a: 1,
});

const channel = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2 relative luminance of an opaque colour, 0 (black) – 1 (white). */
export const relativeLuminance = ({ r, g, b }: Rgba): number =>
  0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);

const ratio = (l1: number, l2: number) => (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);

/** WCAG 2 contrast ratio (1–21) of a text colour, blended over an opaque background, with it. */
export const contrastRatio = (text: Rgba, background: Rgba): number =>
  ratio(relativeLuminance(over(text, background)), relativeLuminance(background));

/**
 * The mean relative luminance of RGBA pixels (an ImageData's data, e.g. the background drawn
 * small), each pixel blended over `backdrop` where it is transparent.
 */
export const averageLuminance = (pixels: ArrayLike<number>, backdrop: Rgba): number | null => {
  const count = Math.floor(pixels.length / 4);
  if (count === 0) return null;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const p = { r: pixels[4 * i]!, g: pixels[4 * i + 1]!, b: pixels[4 * i + 2]!, a: pixels[4 * i + 3]! / 255 };
    sum += relativeLuminance(over(p, backdrop));
  }
  return sum / count;
};

/** The tone of label that reads best on a background of this luminance: the higher contrast wins. */
export const toneFor = (luminance: number): Tone => {
  const light = relativeLuminance(parseColour(toneText.light)!);
  const dark = relativeLuminance(parseColour(toneText.dark)!);
  return ratio(light, luminance) >= ratio(dark, luminance) ? 'light' : 'dark';
};

/** The tone for a CSS background colour (the theme's or the scene's); light labels when it cannot be read. */
export const toneOfColour = (css: string): Tone => {
  const c = parseColour(css);
  return c ? toneFor(relativeLuminance(over(c, parseColour(sceneBackdrop)!))) : 'light';
};
