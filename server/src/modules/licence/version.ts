import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// Resolves from this file in the sources and from server/dist/main.js in the build alike.
const require = createRequire(import.meta.url);

const versionOf = (file: string): string => {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
};

/** A package's version: its package.json, found beside its entry when its exports hide it. */
const packageVersion = (name: string): string => {
  try {
    return versionOf(require.resolve(`${name}/package.json`));
  } catch {
    try {
      let dir = path.dirname(require.resolve(name));
      while (dir !== path.dirname(dir)) {
        const file = path.join(dir, 'package.json');
        if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === name)
          return versionOf(file);
        dir = path.dirname(dir);
      }
    } catch {
      // not installed
    }
    return '';
  }
};

let cached: { version: string; build: string } | null = null;

/** The product's version (the server package's) and build (SITEWATCH_BUILD, e.g. a commit, else "dev"). */
export const productVersion = () => {
  cached ??= {
    version: packageVersion('@sitewatch/server') || '0.0.0',
    build: process.env.SITEWATCH_BUILD ?? 'dev',
  };
  return cached;
};

/** The components whose versions an operator reports with a fault: the runtime and the main libraries. */
export const componentVersions = () => [
  { name: 'Node.js', version: process.versions.node },
  ...(process.versions.sqlite ? [{ name: 'SQLite', version: process.versions.sqlite }] : []),
  ...['fastify', 'kysely', 'better-sqlite3', 'pg', 'zod'].map((name) => ({ name, version: packageVersion(name) })),
];
