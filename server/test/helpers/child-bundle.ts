import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const serverDir = path.resolve(import.meta.dirname, '../..');
const bundles = new Map<string, Promise<string>>();

/**
 * A test's child process script bundled to plain JavaScript once per test process, as the server's
 * own build bundles main.ts (server/build.mjs): started with node it is ready in a fraction of the
 * time `node --import tsx` takes to transpile the server's sources in every child.
 */
export const childBundle = (entry: string): Promise<string> => {
  let made = bundles.get(entry);
  if (made) return made;
  made = (async () => {
    const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const modules = path.join(serverDir, 'src/modules');
    const areas = readdirSync(modules)
      .filter((name) => existsSync(path.join(modules, name, 'area.ts')))
      .sort();
    // Beside the server's packages, so that Node finds the dependencies left out of the bundle.
    const outdir = path.join(serverDir, 'node_modules/.cache/sitewatch-test-children');
    mkdirSync(outdir, { recursive: true });
    const outfile = path.join(outdir, `${process.pid}-${path.basename(entry, '.ts')}.mjs`);
    process.once('exit', () => rmSync(outfile, { force: true }));
    await build({
      define: { __SITEWATCH_AREAS__: JSON.stringify(areas) },
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: Object.keys(pkg.dependencies).filter((name) => name !== '@sitewatch/contract'),
      logLevel: 'warning',
    });
    return outfile;
  })();
  bundles.set(entry, made);
  return made;
};
