/**
 * What a logo is, told by its content and never by its name (002 §5.3: jpg, png or jpeg): the PNG
 * signature followed by a well-formed IHDR chunk (its CRC checked), or a JPEG start of image
 * followed by a chain of well-formed segments up to a start-of-frame marker. Both give the image's
 * size, so a file that only starts with the right bytes (a renamed text file with a forged head)
 * is refused too.
 */
export type LogoImage = { type: 'png' | 'jpg'; width: number; height: number };

export const logoContentTypes = { png: 'image/png', jpg: 'image/jpeg' } as const;

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

const crc32 = (buf: Uint8Array): number => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const readPng = (buf: Buffer): LogoImage | null => {
  if (buf.length < 33 || !pngSignature.every((b, i) => buf[i] === b)) return null;
  if (buf.readUInt32BE(8) !== 13 || buf.toString('latin1', 12, 16) !== 'IHDR') return null;
  if (crc32(buf.subarray(12, 29)) !== buf.readUInt32BE(29)) return null;
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  const depth = buf[24]!;
  const colour = buf[25]!;
  if (width === 0 || height === 0 || width > 20_000 || height > 20_000) return null;
  if (![1, 2, 4, 8, 16].includes(depth) || ![0, 2, 3, 4, 6].includes(colour)) return null;
  // An image without its end is a cut-off upload.
  if (buf.toString('latin1', buf.length - 8, buf.length - 4) !== 'IEND') return null;
  return { type: 'png', width, height };
};

/** Start-of-frame markers (baseline, extended, progressive, lossless …), not DHT/JPG/DAC. */
const isFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

const readJpeg = (buf: Buffer): LogoImage | null => {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= buf.length) {
    if (buf[at] !== 0xff) return null;
    const marker = buf[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = buf.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > buf.length) return null;
    if (isFrame(marker)) {
      if (length < 8) return null;
      const height = buf.readUInt16BE(at + 5);
      const width = buf.readUInt16BE(at + 7);
      if (width === 0 || height === 0) return null;
      return { type: 'jpg', width, height };
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    at += 2 + length;
  }
  return null;
};

/** The logo's type and size, or null when the content is not a whole PNG or JPEG header. */
export const readLogo = (buf: Buffer): LogoImage | null => readPng(buf) ?? readJpeg(buf);

/** Whether a file name's extension is one 002 §5.3 allows (the content decides; the name must agree). */
export const allowedLogoName = (name: string) => /\.(jpe?g|png)$/i.test(name);
