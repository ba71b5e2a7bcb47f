import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { textSections } from './src/i18n/text-sections-plugin.ts';

/**
 * Writes .br and .gz beside each built script, style and SVG, once at build time; the server
 * sends them to browsers that accept them (@fastify/static `preCompressed`), so a console on a
 * LAN loads a third of the bytes without compressing on every request.
 */
const precompress = (): Plugin => {
  let outDir = '';
  return {
    name: 'sitewatch-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|html|json|wav)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
};

export default defineConfig({
  plugins: [react(), textSections(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:8080', ws: true }, '/healthz': 'http://localhost:8080' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
});
