#!/usr/bin/env node
// `npm start`: builds the web app and the server when missing or older than their sources, then
// runs the built server in this very process (which creates the data dir and migrates the database
// on first start). No child process: the package.json script `exec`s this file, so the SIGTERM or
// SIGINT a service manager sends to `npm start` (npm forwards it to its script's process) reaches
// the server itself, which stops polling and writes its last batch before it exits (issue 18: a
// child behind `sh -c` never heard it and ran on orphaned).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// SITEWATCH_FROM_SOURCE=1 runs server/src through tsx without building (tests, development).
const fromSource = process.env.SITEWATCH_FROM_SOURCE === '1';
if (!fromSource) buildIfStale();

process.env.SITEWATCH_DATA_DIR = path.resolve(root, process.env.SITEWATCH_DATA_DIR ?? 'data');
process.chdir(path.join(root, 'server'));
// What `node --enable-source-maps` gave the child: stack traces point into server/src.
process.setSourceMapsEnabled(true);
if (fromSource) (await import('tsx/esm/api')).register();
await import(pathToFileURL(path.join(root, fromSource ? 'server/src/main.ts' : 'server/dist/main.js')).href);
