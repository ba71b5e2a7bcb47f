#!/usr/bin/env node
// Builds the server for production: one ES module (dist/main.js) with the contract bundled in and
// every npm dependency left to Node, so production runs JavaScript, not a run-time transpiler.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));

// The areas (server/src/areas.ts): every modules/<name>/area.ts, listed here for the bundle, which
// holds them all through the glob import of areas.ts.
const modules = path.join(serverDir, 'src/modules');
const areas = readdirSync(modules)
  .filter((name) => existsSync(path.join(modules, name, 'area.ts')))
  .sort();

await build({
  define: { __SITEWATCH_AREAS__: JSON.stringify(areas) },
  // The collector worker is its own entry (a worker thread loads a file): dist/collector-worker.js.
  entryPoints: {
    main: path.join(serverDir, 'src/main.ts'),
    'collector-worker': path.join(serverDir, 'src/collector/worker.ts'),
    // The series store's SQLite writer thread (src/series/writer.ts): dist/series-writer.js.
    'series-writer': path.join(serverDir, 'src/series/writer-worker.mjs'),
    // The privileged firewall helper runs as its own process, as root (docs/firewall.md): dist/firewall-helper.js.
    'firewall-helper': path.join(serverDir, 'src/modules/firewall/helper.ts'),
    // The privileged host helper for time, network and the NTP service (docs/time-network.md): dist/host-helper.js.
    'host-helper': path.join(serverDir, 'src/modules/time-network/helper.ts'),
  },
  outdir: path.join(serverDir, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The workspace contract is TypeScript source: bundled. Everything else is installed and loaded by Node.
  external: Object.keys(pkg.dependencies).filter((name) => name !== '@sitewatch/contract'),
  sourcemap: true,
  // Stack traces need only the mappings: without the sources' text the maps Node parses and keeps
  // at start are a third the size (RSS ~20 MB less at start, issue 18, memory).
  sourcesContent: false,
  logLevel: 'warning',
});
