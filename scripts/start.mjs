#!/usr/bin/env node
// `npm start`: builds the web app and the server when missing or older than their sources, then
// runs the built server in this very process (which creates the data dir and migrates the database
// on first start). No child process: the package.json script `exec`s this file, so the SIGTERM or
// SIGINT a service manager sends to `npm start` (npm forwards it to its script's process) reaches
// the server itself, which stops polling and writes its last batch before it exits (issue 18: a
// child behind `sh -c` never heard it and ran on orphaned).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The old generation grows by at most 20 % of what survived a full collection before the next one,
// not V8's default of up to 4× on a machine with memory to spare: the server's garbage (answers,
// batches, row writes) dies young or soon after promotion, and an idle server with 100 000 items
// let it pile up from ~100 MB live to 230 MB of heap before the first full collection, its RSS peak
// at 550 MB (issue 18: under 250 MB). Set here, before the server's heap fills, as `npm start` runs
// the server in this process (no command-line flags); it is read at each collection, so it also
// holds for the collector worker. SITEWATCH_HEAP_GROWING=0 leaves V8's default.
const heapGrowing = Number(process.env.SITEWATCH_HEAP_GROWING ?? 20);
// The young generation's size cannot be set here (it is fixed when the isolate is made): the
// package.json start script gives it on node's command line (--max-semi-space-size=4, 4 MB semi-spaces
// instead of 16: the start-up peak with 100 000 items 253 MB at 8 MB, 234 MB at 4, issue 18), and the benches
// that run this file read their flags from there (bench/start-flags.ts). The same script sets
// MALLOC_ARENA_MAX=2 (glibc reads it when the process starts, so it cannot be set here either): each
// thread (collector worker, series writer, V8's and libuv's pools) otherwise gets a malloc arena of
// its own, ten arenas holding ~20 MB with 100 000 items against ~7 MB in one (issue 18).
if (heapGrowing > 0) setFlagsFromString(`--heap-growing-percent=${heapGrowing}`);

// SITEWATCH_FROM_SOURCE=1 runs server/src through tsx without building (tests, development).
const fromSource = process.env.SITEWATCH_FROM_SOURCE === '1';
if (!fromSource) buildIfStale();

process.env.SITEWATCH_DATA_DIR = path.resolve(root, process.env.SITEWATCH_DATA_DIR ?? 'data');
process.chdir(path.join(root, 'server'));
// What `node --enable-source-maps` gave the child: stack traces point into server/src.
process.setSourceMapsEnabled(true);
if (fromSource) (await import('tsx/esm/api')).register();
await import(pathToFileURL(path.join(root, fromSource ? 'server/src/main.ts' : 'server/dist/main.js')).href);
