import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { z } from 'zod';
import type { AnyArea, SecretDeclaration } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { AppError } from '../../http/errors.ts';
import { migrationOf, snapshot } from './database.ts';
import { backupError } from './errors.ts';

/**
 * Bumped when a package's layout changes; another version is refused, never guessed at (2: the
 * manifest is sealed with the install key instead of carrying a fixed canary).
 */
export const formatVersion = 2;
export const productVersion = '0.1.0';
/** What the seal holds before the manifest's digest. */
const sealPrefix = 'sitewatch-backup:';
/** The manifest's first entry is read into memory: at most this many bytes. */
const manifestMaxBytes = 4 << 20;

export type PackageKind = 'config' | 'history';

const part = z.object({ name: z.string(), size: z.number().int().min(0), sha256: z.string().length(64) });
export const manifestSchema = z.object({
  format: z.literal('sitewatch-backup'),
  format_version: z.number().int().min(1),
  kind: z.enum(['config', 'history']),
  product_version: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  migration: z.string(),
  created_at: z.number().int(),
  tables: z.array(z.string()),
  uploads: z.array(z.string()),
  secrets: z.array(z.object({ area: z.string(), table: z.string(), where: z.string(), fields: z.array(z.string()) })),
  parts: z.array(part),
  /**
   * `sitewatch-backup:<SHA-256 of the manifest without this field>` sealed (AES-256-GCM) with the
   * install's `secret.key`: only an install holding the key made the manifest, and its part
   * checksums bind every part (docs/maintenance.md, "Package format").
   */
  seal: z.string(),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** What a package of a kind holds, read from every declaration (docs/maintenance.md, "Contents"). */
export const contentsOf = (areas: readonly AnyArea[], kind: PackageKind) => {
  const tables: string[] = [];
  const cleared: string[] = [];
  for (const area of areas) {
    const declared = Object.entries(area.tables ?? {});
    const historyArea = declared.some(([, d]) => d?.backup === 'history');
    for (const [name, d] of declared) {
      const backup = d?.backup ?? true;
      if (kind === 'history' ? backup === 'history' : backup === true) tables.push(name);
      // A configuration restore ends what hangs on the old rows (sessions, attempts): emptied.
      else if (kind === 'config' && backup === false && !historyArea) cleared.push(name);
    }
  }
  const uploads = kind === 'config' ? [...new Set(areas.flatMap((a) => [...(a.uploads ?? [])]))] : [];
  const secrets =
    kind === 'config'
      ? areas.flatMap((a) =>
          (a.secrets ?? []).map((s: SecretDeclaration) => ({
            area: a.name,
            table: s.table,
            where: 'key' in s ? `k=${s.key}` : `column=${s.column}`,
            fields: [...s.fields],
          })),
        )
      : [];
  return { tables: tables.sort(), cleared: cleared.sort(), uploads: uploads.sort(), secrets };
};

/** The digest the seal holds: of the manifest's JSON without the seal. */
const manifestDigest = (manifest: Omit<Manifest, 'seal'> & { seal?: string }) => {
  const { seal: _seal, ...rest } = manifest;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
};

/** SHA-256 and size of a file, read as a stream. */
const digestOf = async (file: string) => {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
};

/** Every file under a folder, as paths relative to it (sorted). */
const filesUnder = (root: string, rel = ''): string[] => {
  const dir = path.join(root, rel);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(root, path.join(rel, e.name)) : e.isFile() ? [path.join(rel, e.name)] : [],
    )
    .sort();
};

export interface BuildInput {
  db: Db;
  areas: readonly AnyArea[];
  kind: PackageKind;
  dataDir: string;
  /** The finished package's path (written beside as `.part`, renamed when whole). */
  file: string;
  nowMs: number;
  seal(plain: string): string;
}

/** The database part's name for a database kind. */
export const databasePart = (dialect: string) => `database.${dialect === 'sqlite' ? 'sqlite' : 'pgdump'}`;

/** Writes files into a tar archive with tar-stream, each streamed from disk. */
const writeTar = async (target: string, entries: { name: string; file: string; size: number }[], mtime: Date) => {
  const pack = tar.pack();
  const written = pipeline(pack, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  try {
    for (const e of entries) {
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name: e.name, size: e.size, mode: 0o600, mtime }, (err) =>
          err ? reject(err) : resolve(),
        );
        pipeline(createReadStream(e.file), entry).catch(reject);
      });
    }
    pack.finalize();
    await written;
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => undefined);
    throw err;
  }
};

/**
 * Writes a package: `manifest.json` first (format, versions, database kind, time, what the
 * declarations put in it, SHA-256 and size of every part, sealed with the install key), then
 * `database.<kind>` and `uploads/<folder>/<file>`, each streamed from disk. The file appears under
 * its name only once complete.
 */
export const buildPackage = async (input: BuildInput): Promise<Manifest> => {
  const { db, kind, dataDir } = input;
  const contents = contentsOf(input.areas, kind);
  const dbFile = `${input.file}.db`;
  const manifestFile = `${input.file}.manifest`;
  const partial = `${input.file}.part`;
  mkdirSync(path.dirname(input.file), { recursive: true, mode: 0o700 });
  try {
    await snapshot(db, contents.tables, dbFile);
    const files = [{ name: databasePart(db.dialect), file: dbFile }];
    for (const folder of contents.uploads) {
      const root = path.join(dataDir, folder);
      for (const rel of filesUnder(root))
        files.push({ name: `uploads/${folder}/${rel.split(path.sep).join('/')}`, file: path.join(root, rel) });
    }
    const parts = [];
    for (const f of files) parts.push({ ...f, ...(await digestOf(f.file)) });
    const unsealed = {
      format: 'sitewatch-backup' as const,
      format_version: formatVersion,
      kind,
      product_version: productVersion,
      database: db.dialect,
      migration: await migrationOf(db),
      created_at: Math.floor(input.nowMs / 1000),
      tables: contents.tables,
      uploads: contents.uploads,
      secrets: contents.secrets,
      parts: parts.map((p) => ({ name: p.name, size: p.size, sha256: p.sha256 })),
    };
    const manifest: Manifest = { ...unsealed, seal: input.seal(sealPrefix + manifestDigest(unsealed)) };
    const json = Buffer.from(JSON.stringify(manifest, null, 2));
    await pipeline(
      async function* () {
        yield json;
      },
      createWriteStream(manifestFile, { mode: 0o600 }),
    );
    await writeTar(
      partial,
      [{ name: 'manifest.json', file: manifestFile, size: json.length }, ...parts],
      new Date(manifest.created_at * 1000),
    );
    renameSync(partial, input.file);
    return manifest;
  } finally {
    for (const f of [dbFile, manifestFile, partial]) rmSync(f, { force: true });
  }
};

export interface PackageExpectation {
  database: string;
  migration: string;
  /** Opens a value sealed with the install key ('' when it does not open). */
  open(sealed: string): string;
}

/** A part's name is one the server writes: the database part of this kind or a file of a declared folder. */
const allowedName = (name: string, manifest: Manifest) => {
  if (name === databasePart(manifest.database)) return true;
  const segments = name.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) return false;
  return segments.length >= 3 && segments[0] === 'uploads' && manifest.uploads.includes(segments[1]!);
};

/** The manifest of the first entry, checked (format, seal, database kind, schema), or the refusal. */
const readManifest = (data: Buffer, expect: PackageExpectation): Manifest => {
  let raw: { format?: unknown; format_version?: unknown };
  try {
    raw = JSON.parse(data.toString('utf8'));
  } catch {
    throw backupError('foreign');
  }
  if (raw?.format !== 'sitewatch-backup' || typeof raw.format_version !== 'number') throw backupError('foreign');
  // A newer layout is never guessed at; an older one (before the seal) is not restored here.
  if (raw.format_version > formatVersion) throw backupError('format');
  if (raw.format_version < formatVersion) throw backupError('kind');
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw backupError('foreign');
  const manifest = parsed.data;
  if (manifest.database !== expect.database) throw backupError('database');
  // The seal before anything else of the manifest is believed: another key opens nothing, and a
  // manifest changed after it was made (a part swapped, a table added) no longer matches its digest.
  const opened = expect.open(manifest.seal);
  if (!opened.startsWith(sealPrefix)) throw backupError('secretKey');
  if (opened !== sealPrefix + manifestDigest(manifest)) throw backupError('corrupt');
  if (manifest.migration !== expect.migration) throw backupError('version');
  const names = manifest.parts.map((p) => p.name);
  if (new Set(names).size !== names.length || names.filter((n) => n.startsWith('database.')).length !== 1)
    throw backupError('corrupt');
  if (!names.every((n) => allowedName(n, manifest))) throw backupError('corrupt');
  return manifest;
};

/**
 * Reads and checks a package before anything changes, streaming it once with tar-stream: the
 * first entry is a sealed Sitewatch manifest of this format, database kind and schema; every other
 * entry is a part the manifest lists (an unknown, repeated or non-file entry is refused), written
 * into `stage` (a private folder) while its SHA-256 is computed, and compared with the manifest's;
 * a part missing at the end is refused too. Nothing in a package is used until all of it checked
 * out. Refused with the reason (400) otherwise.
 */
export const openPackage = async (file: string, expect: PackageExpectation, stage: string): Promise<Manifest> => {
  let manifest: Manifest | null = null;
  const seen = new Set<string>();
  const extract = tar.extract();
  const refuse = (reason: Parameters<typeof backupError>[0]) => {
    const err = backupError(reason);
    extract.destroy(err);
    return err;
  };
  extract.on('entry', (header, stream, next) => {
    void (async () => {
      if (header.type !== 'file') throw refuse(manifest ? 'corrupt' : 'foreign');
      if (!manifest) {
        if (header.name !== 'manifest.json' || (header.size ?? 0) > manifestMaxBytes) throw refuse('foreign');
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        manifest = readManifest(Buffer.concat(chunks), expect);
        return;
      }
      const part = manifest.parts.find((p) => p.name === header.name);
      if (!part || seen.has(part.name) || header.size !== part.size) throw refuse('corrupt');
      seen.add(part.name);
      const to = path.join(stage, part.name);
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      const hash = createHash('sha256');
      await pipeline(
        stream,
        async function* (source) {
          for await (const chunk of source) {
            hash.update(chunk as Buffer);
            yield chunk;
          }
        },
        createWriteStream(to, { mode: 0o600 }),
      );
      if (hash.digest('hex') !== part.sha256) throw refuse('corrupt');
    })().then(
      () => next(),
      (err) => extract.destroy(err),
    );
  });
  try {
    await pipeline(createReadStream(file), extract);
  } catch (err) {
    if (err instanceof AppError) throw err;
    // Not a tar archive (or one cut short): foreign before its manifest, damaged after.
    throw backupError(manifest ? 'corrupt' : 'foreign');
  }
  const done = manifest as Manifest | null;
  if (!done) throw backupError('foreign');
  if (done.parts.some((p) => !seen.has(p.name))) throw backupError('corrupt');
  return done;
};
