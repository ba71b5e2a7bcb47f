import { readFileSync, writeFileSync } from 'node:fs';
import tar from 'tar-stream';

/** A tar archive's entries in order, read whole (tests only: packages are small here). */
export const readEntries = (file: string) =>
  new Promise<{ name: string; data: Buffer }[]>((resolve, reject) => {
    const entries: { name: string; data: Buffer }[] = [];
    const extract = tar.extract();
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        entries.push({ name: header.name, data: Buffer.concat(chunks) });
        next();
      });
    });
    extract.on('finish', () => resolve(entries));
    extract.on('error', reject);
    extract.end(readFileSync(file));
  });

/** Writes entries as a tar archive (a test's forged or damaged package). */
export const writeEntries = (file: string, entries: { name: string; data: Buffer }[]) =>
  new Promise<void>((resolve, reject) => {
    const pack = tar.pack();
    const chunks: Buffer[] = [];
    pack.on('data', (c: Buffer) => chunks.push(c));
    pack.on('end', () => {
      writeFileSync(file, Buffer.concat(chunks));
      resolve();
    });
    pack.on('error', reject);
    for (const e of entries) pack.entry({ name: e.name }, e.data);
    pack.finalize();
  });
