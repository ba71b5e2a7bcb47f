import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AnyArea, SecretDeclaration } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { migrationOf, snapshot } from './database.ts';
import { backupError } from './errors.ts';
import { createTarWriter, listTar, readTarEntry, type TarEntry } from './tar.ts';

/** Bumped when a package's layout changes; a newer package is refused, never guessed at. */
export const formatVersion = 1;
export const productVersion = '0.1.0';
/** A sealed text the restore opens to tell whether the package's secrets open with this install's key. */
export const secretCanary = 'sitewatch-backup';

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
  secret_canary: z.string(),
  parts: z.array(part),
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

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

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

/**
 * Writes a package: `manifest.json` first (format, versions, database kind, time, what the
 * declarations put in it, SHA-256 and size of every part), then `database.<kind>` and
 * `uploads/<folder>/<file>`. The file appears under its name only once complete.
 */
export const buildPackage = async (input: BuildInput): Promise<Manifest> => {
  const { db, kind, dataDir } = input;
  const contents = contentsOf(input.areas, kind);
  const parts: { name: string; data: Buffer }[] = [];
  const dbName = `database.${db.dialect === 'sqlite' ? 'sqlite' : 'pgdump'}`;
  const tmp = `${input.file}.db`;
  mkdirSync(path.dirname(input.file), { recursive: true, mode: 0o700 });
  parts.push({ name: dbName, data: await snapshot(db, contents.tables, tmp) });
  for (const folder of contents.uploads) {
    const root = path.join(dataDir, folder);
    for (const rel of filesUnder(root))
      parts.push({
        name: `uploads/${folder}/${rel.split(path.sep).join('/')}`,
        data: readFileSync(path.join(root, rel)),
      });
  }
  const manifest: Manifest = {
    format: 'sitewatch-backup',
    format_version: formatVersion,
    kind,
    product_version: productVersion,
    database: db.dialect,
    migration: await migrationOf(db),
    created_at: Math.floor(input.nowMs / 1000),
    tables: contents.tables,
    uploads: contents.uploads,
    secrets: contents.secrets,
    secret_canary: input.seal(secretCanary),
    parts: parts.map((p) => ({ name: p.name, size: p.data.length, sha256: sha256(p.data) })),
  };
  const partial = `${input.file}.part`;
  const writer = createTarWriter(partial, manifest.created_at);
  try {
    writer.add('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
    for (const p of parts) writer.add(p.name, p.data);
    writer.close();
  } catch (err) {
    writer.abort();
    throw err;
  }
  renameSync(partial, input.file);
  return manifest;
};

export interface OpenedPackage {
  manifest: Manifest;
  entries: Map<string, TarEntry>;
  file: string;
}

/**
 * Reads and checks a package before anything changes: a tar with a Sitewatch manifest of a format
 * this server reads, every part present with its size and SHA-256, of this database kind and
 * schema. Refused with the reason otherwise (400).
 */
export const openPackage = (
  file: string,
  expect: { database: string; migration: string; open(sealed: string): string },
): OpenedPackage => {
  const list = listTar(file, statSync(file).size);
  const first = list?.[0];
  if (!list || !first || first.name !== 'manifest.json' || first.size > 4 << 20) throw backupError('foreign');
  let manifest: Manifest;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(readTarEntry(file, first).toString('utf8')));
    if (!parsed.success) throw backupError('foreign');
    manifest = parsed.data;
  } catch {
    throw backupError('foreign');
  }
  if (manifest.format_version > formatVersion) throw backupError('format');
  const entries = new Map(list.slice(1).map((e) => [e.name, e]));
  if (entries.size !== manifest.parts.length) throw backupError('corrupt');
  for (const p of manifest.parts) {
    const entry = entries.get(p.name);
    if (!entry || entry.size !== p.size || sha256(readTarEntry(file, entry)) !== p.sha256) throw backupError('corrupt');
    if (p.name.split('/').some((s) => s === '..' || s === '') || p.name.startsWith('/')) throw backupError('corrupt');
  }
  if (manifest.database !== expect.database) throw backupError('database');
  if (manifest.migration !== expect.migration) throw backupError('version');
  if (manifest.kind === 'config' && expect.open(manifest.secret_canary) !== secretCanary)
    throw backupError('secretKey');
  return { manifest, entries, file };
};

/** Writes a part to a staging path (the restore reads the database part from a file). */
export const stagePart = (pkg: OpenedPackage, name: string, to: string) => {
  const entry = pkg.entries.get(name);
  if (!entry) throw backupError('corrupt');
  mkdirSync(path.dirname(to), { recursive: true });
  writeFileSync(to, readTarEntry(pkg.file, entry), { mode: 0o600 });
};
