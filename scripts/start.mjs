#!/usr/bin/env node
// `npm start`: builds the web app and the server when missing or older than their sources, then
// runs the built server (which creates the data dir and migrates the database on first start).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

buildIfStale();

const server = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
  cwd: path.join(root, 'server'),
  stdio: 'inherit',
  env: { ...process.env, SITEWATCH_DATA_DIR: path.resolve(root, process.env.SITEWATCH_DATA_DIR ?? 'data') },
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
