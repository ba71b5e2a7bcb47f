// Builds the web app and the server when missing or older than their sources (`npm start` and the
// journeys' global setup run it; SITEWATCH_SKIP_BUILD=1 skips it). `node scripts/build-if-stale.mjs
// server` builds the server only (the server tests that start the built server).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const newest = (dir) => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
};

const contract = path.join(root, 'packages/contract/src');
const builds = [
  {
    name: 'web',
    what: 'the web app',
    output: path.join(root, 'web/dist/index.html'),
    sources: [path.join(root, 'web/src'), path.join(root, 'web/public'), path.join(root, 'web/index.html'), contract],
    args: ['run', 'build', '-w', 'web'],
  },
  {
    name: 'server',
    what: 'the server',
    output: path.join(root, 'server/dist/main.js'),
    sources: [path.join(root, 'server/src'), path.join(root, 'server/build.mjs'), contract],
    args: ['run', 'build', '-w', 'server'],
  },
];
const mtime = (p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs);
export const buildIfStale = (only) => {
  for (const b of builds) {
    if (only && b.name !== only) continue;
    const stale = !existsSync(b.output) || Math.max(...b.sources.map(mtime)) > statSync(b.output).mtimeMs;
    if (!stale || process.env.SITEWATCH_SKIP_BUILD === '1') continue;
    console.log(`Building ${b.what}…`);
    const result = spawnSync('npm', b.args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildIfStale(process.argv[2]);
