import type { DOMPurify } from 'dompurify';

/** The image types the site map accepts (001 §5), told apart by their first bytes, never by the name. */
export type ImageType = 'png' | 'jpg' | 'gif' | 'svg';

export const contentTypes: Record<ImageType, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
};

/** Extensions a file name may carry (001 §5: png, jpg, jpeg, gif, svg). */
export const allowedExtensions = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg']);

const startsWith = (buf: Buffer, bytes: number[]) => bytes.every((b, i) => buf[i] === b);

/**
 * The type of an image by its content: the PNG signature, a JPEG start of image, a GIF87a/89a header,
 * or UTF-8 text whose root element is `<svg` (after an optional XML declaration, comments and a
 * doctype). Anything else (a renamed document, an HTML page) is no image.
 */
export const sniffImage = (buf: Buffer): ImageType | null => {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'jpg';
  const head = buf.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return null;
  }
  return svgRoot(text) === null ? null : 'svg';
};

/** The prolog an SVG file may have before its root: XML declaration, comments, a doctype. */
const prolog =
  /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)\s*)*(?=<svg[\s>/])/i;

/**
 * The text from the root `<svg` on, or null when the root is not an svg element. The prolog is
 * dropped: its doctype (with any entity definitions) is never expanded, and the HTML parser of the
 * sanitiser would read an internal subset as text.
 */
const svgRoot = (text: string): string | null => {
  const m = prolog.exec(text);
  return m ? text.slice(m[0].length) : null;
};

/** Only a fragment reference (`#id`) may remain: any other address would be fetched by the viewer. */
const internalRef = /^\s*#/;
const urlRefs = /url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi;
const externalUrl = (value: string) => [...value.matchAll(urlRefs)].some((m) => !internalRef.test(m[2] ?? ''));

/**
 * One DOM for the process, made at the first SVG: DOMPurify needs a window, building one per upload
 * would cost ~50 ms, and jsdom loaded with the server would cost ~20 MB of heap that most never use.
 */
let purifier: Promise<DOMPurify> | null = null;
const purify = () =>
  (purifier ??= Promise.all([import('dompurify'), import('jsdom')]).then(
    ([{ default: createDOMPurify }, { JSDOM }]) => {
      const purify = createDOMPurify(new JSDOM('').window);
      purify.addHook('uponSanitizeAttribute', (_node, data) => {
        const name = data.attrName.toLowerCase();
        if ((name === 'href' || name === 'xlink:href' || name === 'src') && !internalRef.test(data.attrValue))
          data.keepAttr = false;
        // A style or presentation attribute pointing outside (fill="url(http://…)", @import) is dropped.
        if (externalUrl(data.attrValue) || /@import|expression\s*\(/i.test(data.attrValue)) data.keepAttr = false;
      });
      return purify;
    },
  ));

/**
 * An SVG with everything active or outside removed: scripts, `on*` handlers, foreignObject (HTML
 * inside), style elements, animation that could set an attribute to a link, and every reference that
 * is not a fragment of the image itself. DOMPurify's SVG profile does the parsing and allow-listing;
 * the hook above removes the external references it would keep. Null when nothing of an SVG remains.
 */
export const sanitizeSvg = async (text: string): Promise<string | null> => {
  const root = svgRoot(text);
  if (root === null) return null;
  const clean = (await purify()).sanitize(root, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: [
      'foreignObject',
      'style',
      'script',
      'a',
      'animate',
      'set',
      'animateMotion',
      'animateTransform',
      'image',
    ],
    FORBID_ATTR: ['style'],
    ALLOW_DATA_ATTR: false,
  });
  // The HTML serialiser writes U+00A0 as &nbsp;, which XML does not know.
  const out = String(clean).trim().replaceAll('&nbsp;', '&#160;');
  if (!/^<svg[\s>]/i.test(out)) return null;
  // A standalone file needs the namespace the HTML serialiser leaves implicit.
  return out.includes('xmlns="http://www.w3.org/2000/svg"')
    ? out
    : out.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
};
