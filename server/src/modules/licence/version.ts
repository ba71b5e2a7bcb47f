import { readFileSync } from 'node:fs';

/** Set by the production build (server/build.mjs defines nothing yet: the package's own version is read). */
const packageVersion = (name: string): string => {
  try {
    const url = new URL(`../../../../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
};

let cached: { version: string; build: string } | null = null;

/** The product's version (the server package's) and build (SITEWATCH_BUILD, e.g. a commit, else "dev"). */
export const productVersion = () => {
  if (!cached) {
    let version = '';
    try {
      version = (
        JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
      ).version;
    } catch {
      version = '';
    }
    cached = { version: version || '0.0.0', build: process.env.SITEWATCH_BUILD ?? 'dev' };
  }
  return cached;
};

/** The components whose versions an operator reports with a fault: the runtime and the main libraries. */
export const componentVersions = () => [
  { name: 'Node.js', version: process.versions.node },
  ...['fastify', 'kysely', 'better-sqlite3', 'pg', 'zod'].map((name) => ({ name, version: packageVersion(name) })),
  ...(process.versions.sqlite ? [{ name: 'SQLite', version: process.versions.sqlite }] : []),
];
