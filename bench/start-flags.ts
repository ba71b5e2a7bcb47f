// The node flags and environment `npm start` runs the server with, read from the one place they are
// written: the root package.json's `start` script (`exec [env NAME=value…] node <flags>
// scripts/start.mjs`). The benches that spawn scripts/start.mjs themselves pass the same, so they
// measure the server as it runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const startScript = (): string => {
  const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'));
  return String(pkg.scripts?.start ?? '');
};

export const startNodeFlags = (): string[] => {
  const start = startScript();
  const flags = /\bnode\s+(.*?)\s*scripts\/start\.mjs\b/.exec(start)?.[1];
  if (flags === undefined)
    throw new Error(`the root package.json's start script does not run scripts/start.mjs: ${start}`);
  return flags.split(/\s+/).filter(Boolean);
};

/** The variables the start script sets with `env` before node (e.g. MALLOC_ARENA_MAX). */
export const startEnv = (): Record<string, string> => {
  const assignments = /\benv\s+((?:[A-Z_][A-Z0-9_]*=\S*\s+)+)node\b/.exec(startScript())?.[1] ?? '';
  return Object.fromEntries(
    assignments
      .split(/\s+/)
      .filter(Boolean)
      .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
  );
};
