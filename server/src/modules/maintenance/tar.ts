import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * A plain POSIX ustar archive of regular files, enough for a backup package (docs/maintenance.md,
 * "Package format"): `tar tf` and `tar xf` read it. Written and read by these few lines because no
 * tar library is a dependency of the server; names up to 255 bytes (prefix + name), files only.
 */
const block = 512;

const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;

const header = (name: string, size: number, mtimeS: number): Buffer => {
  const bytes = Buffer.from(name, 'utf8');
  let prefix = '';
  let base = name;
  if (bytes.length > 100) {
    const cut = name.lastIndexOf('/', 154);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`name too long for tar: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  const h = Buffer.alloc(block);
  h.write(base, 0, 100, 'utf8');
  h.write(octal(0o600, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtimeS, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\x0000', 257, 'binary');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
};

/** Writes entries one after another into a new file (the caller renames it into place when whole). */
export const createTarWriter = (file: string, mtimeS: number) => {
  const fd = openSync(file, 'wx', 0o600);
  return {
    /** Adds one file from a buffer. */
    add(name: string, data: Buffer) {
      writeSync(fd, header(name, data.length, mtimeS));
      writeSync(fd, data);
      const pad = (block - (data.length % block)) % block;
      if (pad) writeSync(fd, Buffer.alloc(pad));
    },
    /** Two zero blocks end the archive. */
    close() {
      writeSync(fd, Buffer.alloc(block * 2));
      closeSync(fd);
    },
    abort() {
      closeSync(fd);
    },
  };
};

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's bytes start in the file. */
  offset: number;
}

/** The entries of an archive, or null when the file is not a well-formed ustar archive. */
export const listTar = (file: string, fileSize: number): TarEntry[] | null => {
  const fd = openSync(file, 'r');
  try {
    const entries: TarEntry[] = [];
    const h = Buffer.alloc(block);
    let at = 0;
    while (at + block <= fileSize) {
      if (readSync(fd, h, 0, block, at) !== block) return null;
      if (h.every((b) => b === 0)) return entries;
      if (h.toString('binary', 257, 262) !== 'ustar') return null;
      const stored = Number.parseInt(h.toString('ascii', 148, 156).replace(/[\0 ]/g, ''), 8);
      h.write('        ', 148, 'ascii');
      let sum = 0;
      for (const b of h) sum += b;
      if (sum !== stored) return null;
      const text = (from: number, to: number) => h.toString('utf8', from, to).replace(/\0.*$/s, '');
      const size = Number.parseInt(text(124, 136).trim() || '0', 8);
      const type = text(156, 157);
      if (!Number.isFinite(size) || size < 0 || at + block + size > fileSize) return null;
      const prefix = text(345, 500);
      const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
      if (type === '0' || type === '') entries.push({ name, size, offset: at + block });
      at += block + Math.ceil(size / block) * block;
    }
    return null;
  } finally {
    closeSync(fd);
  }
};

/** Reads an entry's bytes. */
export const readTarEntry = (file: string, entry: TarEntry): Buffer => {
  const fd = openSync(file, 'r');
  try {
    const data = Buffer.alloc(entry.size);
    let done = 0;
    while (done < entry.size) {
      const n = readSync(fd, data, done, entry.size - done, entry.offset + done);
      if (n <= 0) throw new Error('archive ends early');
      done += n;
    }
    return data;
  } finally {
    closeSync(fd);
  }
};
