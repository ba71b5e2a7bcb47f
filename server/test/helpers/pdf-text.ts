import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF written with one embedded (Identity-H) font, as pdfkit writes it: the streams are
 * inflated, the font's ToUnicode map (bfrange with an array, bfchar) read, and every TJ/Tj hex string
 * of the pages turned back into characters, one string per text-showing operator. Enough to check
 * what a person would read, without a PDF library in the tests.
 */
export const pdfText = (pdf: Buffer): string[] => {
  const raw = pdf.toString('latin1');
  const streams: string[] = [];
  const re = /stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    let stop = end;
    while (stop > start && (pdf[stop - 1] === 0x0a || pdf[stop - 1] === 0x0d)) stop--;
    const body = pdf.subarray(start, stop);
    try {
      streams.push(inflateSync(body).toString('latin1'));
    } catch {
      streams.push(body.toString('latin1'));
    }
    re.lastIndex = end + 'endstream'.length;
  }
  const utf16 = (hex: string) => Buffer.from(hex, 'hex').swap16().toString('utf16le');
  const map = new Map<number, string>();
  for (const s of streams.filter((x) => x.includes('begincmap'))) {
    for (const [, block] of s.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
      for (const [, a, b, list, dst] of block!.matchAll(
        /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(?:\[([^\]]*)\]|<([0-9a-fA-F]+)>)/g,
      )) {
        const from = Number.parseInt(a!, 16);
        const to = Number.parseInt(b!, 16);
        if (list !== undefined) {
          const items = [...list.matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => x[1]!);
          for (const [i, hex] of items.entries()) map.set(from + i, utf16(hex));
        } else {
          const base = Number.parseInt(dst!, 16);
          for (let c = from; c <= to; c++) map.set(c, String.fromCharCode(base + c - from));
        }
      }
    }
    for (const [, block] of s.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
      for (const [, src, dst] of block!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
        map.set(Number.parseInt(src!, 16), utf16(dst!));
  }
  const decode = (hex: string) => {
    let out = '';
    for (let i = 0; i + 4 <= hex.length; i += 4) out += map.get(Number.parseInt(hex.slice(i, i + 4), 16)) ?? '\ufffd';
    return out;
  };
  const texts: string[] = [];
  for (const s of streams) {
    for (const [, inner] of s.matchAll(/\[([^\]]*)\]\s*TJ/g))
      texts.push([...inner!.matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => decode(x[1]!)).join(''));
    for (const [, hex] of s.matchAll(/<([0-9a-fA-F]*)>\s*Tj/g)) texts.push(decode(hex!));
  }
  return texts;
};
