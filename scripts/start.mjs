#!/usr/bin/env node
// `npm start`: builds the web app when it is missing or older than its sources, then runs the
// server (which creates the data dir and migrates the database on first start).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'web/dist/index.html');

const newest = (dir) => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
};

const sources = [path.join(root, 'web/src'), path.join(root, 'web/public'), path.join(root, 'packages/contract/src')];
const stale =
  !existsSync(built) ||
  Math.max(...sources.map(newest), statSync(path.join(root, 'web/index.html')).mtimeMs) > statSync(built).mtimeMs;
if (stale && process.env.SITEWATCH_SKIP_BUILD !== '1') {
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: path.join(root, 'server'),
  stdio: 'inherit',
  env: { ...process.env, SITEWATCH_DATA_DIR: path.resolve(root, process.env.SITEWATCH_DATA_DIR ?? 'data') },
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
