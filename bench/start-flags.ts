// The node flags `npm start` runs the server with, read from the one place they are written: the
// root package.json's `start` script (`exec node <flags> scripts/start.mjs`). The benches that
// spawn scripts/start.mjs themselves pass the same, so they measure the server as it runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const startNodeFlags = (): string[] => {
  const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'));
  const start = String(pkg.scripts?.start ?? '');
  const flags = /\bnode\s+(.*?)\s*scripts\/start\.mjs\b/.exec(start)?.[1];
  if (flags === undefined)
    throw new Error(`the root package.json's start script does not run scripts/start.mjs: ${start}`);
  return flags.split(/\s+/).filter(Boolean);
};
