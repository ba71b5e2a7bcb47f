import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChangelogEntry {
  version: string;
  date: string;
  changes: string[];
}

/**
 * The versions of CHANGELOG.md (the repository's root): `## <version> — <date>` headings, each
 * with its `- ` lines. Pure, so the format is tested without the file.
 */
export const parseChangelog = (text: string): ChangelogEntry[] => {
  const entries: ChangelogEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##\s+(\S+)(?:\s+[—–-]\s+(.+))?\s*$/.exec(line);
    if (heading) {
      entries.push({ version: heading[1]!, date: heading[2]?.trim() ?? '', changes: [] });
      continue;
    }
    const item = /^\s*[-*]\s+(.+)$/.exec(line);
    if (item && entries.length > 0) entries.at(-1)!.changes.push(item[1]!.trim());
  }
  return entries;
};

/** CHANGELOG.md found upwards from this file (the sources and server/dist alike), or null. */
const changelogFile = (): string | null => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (dir !== path.dirname(dir)) {
    const file = path.join(dir, 'CHANGELOG.md');
    if (existsSync(file)) return file;
    dir = path.dirname(dir);
  }
  return null;
};

let cached: ChangelogEntry[] | null = null;

/** The product's changelog, read once (it ships with the build: a new version is a restart). */
export const changelog = (): ChangelogEntry[] => {
  if (cached) return cached;
  const file = process.env.SITEWATCH_CHANGELOG ?? changelogFile();
  try {
    cached = file ? parseChangelog(readFileSync(file, 'utf8')) : [];
  } catch {
    cached = [];
  }
  return cached;
};
