// The product as a benchmark drives it: started as `npm start` does on a fresh data dir (production
// build), with a bench user of the administrator role, and Debian's Chromium to sign in as that user.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { openDb } from '../server/src/db/kysely.ts';
import { createUser } from '../server/test/helpers/login.ts';
import { startEnv, startNodeFlags } from './start-flags.ts';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.resolve(root, process.env.SITEWATCH_WEB_DIR ?? 'web/dist');
const user = { name: 'bench', password: 'Bench-Pass-2026' };

export interface BenchProduct {
  base: string;
  webDir: string;
  /** The first demo site. */
  site: number;
  browser: Browser;
  page: Page;
  /** Calls the API as the signed-in bench user; answers `data`, throws on an error answer. */
  // biome-ignore lint/suspicious/noExplicitAny: a bench reads the answers it set up itself, loosely.
  api: (method: string, url: string, body?: unknown) => Promise<any>;
  headers: Record<string, string>;
  /** The server's process id (for its CPU). */
  serverPid: number;
  /** Signs the bench user in on `page` (the API calls need it); the login page stays untouched until then. */
  signIn: () => Promise<void>;
  close: () => Promise<void>;
}

export interface StartOptions {
  /** Work on the database while the server is down after its first start (a bench estate). */
  prepare?: (db: ReturnType<typeof openDb>) => Promise<void>;
}

export const startProduct = async (name: string, port: number, options: StartOptions = {}): Promise<BenchProduct> => {
  if (!existsSync(path.join(webDir, 'index.html'))) {
    const built = spawnSync('npx', ['vite', 'build', '--outDir', webDir, '--emptyOutDir'], {
      cwd: path.join(root, 'web'),
      stdio: 'inherit',
    });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `sitewatch-bench-${name}-`));
  const start = async (): Promise<ChildProcess> => {
    // `npm start`'s node flags, and BENCH_NODE_ARGS: more for the server (e.g. `--cpu-prof --cpu-prof-dir=<dir>` to profile it).
    const nodeArgs = [...startNodeFlags(), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
    const server = spawn(process.execPath, [...nodeArgs, 'scripts/start.mjs'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      // `npm start`'s environment (MALLOC_ARENA_MAX); the bench's own variables win.
      env: {
        ...startEnv(),
        ...process.env,
        PORT: String(port),
        SITEWATCH_DATA_DIR: dataDir,
        SITEWATCH_WEB_DIR: webDir,
        SITEWATCH_SKIP_BUILD: '1',
        SITEWATCH_MODE: 'test',
        SITEWATCH_CAPTCHA: 'off',
        LOG_LEVEL: 'warn',
      },
    });
    for (let i = 0; i < 600; i++) {
      if (server.exitCode !== null) throw new Error('the server exited while starting');
      if ((await fetch(`${base}/readyz`).catch(() => null))?.ok) return server;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the server did not become ready');
  };
  const stop = (server: ChildProcess) =>
    new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });

  // The first start makes the database; the bench user is added while the server is down.
  await stop(await start());
  const db = openDb({ dataDir });
  await createUser(db, user.name, user.password, [1]);
  await options.prepare?.(db);
  const site = Number(
    (await db.kysely.selectFrom('device_groups').select('id').orderBy('id').executeTakeFirstOrThrow()).id,
  );
  await db.close();
  const server = await start();

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  const headers: Record<string, string> = {};
  const signIn = async () => {
    await page.goto(`${base}/login`);
    await page.getByLabel(/用户名|User name/).fill(user.name);
    await page.getByLabel(/^(密码|Password)$/).fill(user.password);
    await page.getByRole('button', { name: /^(登\s*录|Log in)$/ }).click();
    await page.waitForURL(/\/home/, { timeout: 60_000 });
    const token = await page.evaluate(() => sessionStorage.getItem('token') ?? localStorage.getItem('token'));
    headers.authorization = `Bearer ${token}`;
  };
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1/${url}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as { code: number; message: string; data: unknown };
    if (!res.ok || answer.code !== 0) throw new Error(`${method} ${url}: ${answer.message}`);
    return answer.data;
  };
  return {
    base,
    webDir,
    site,
    browser,
    page,
    api,
    headers,
    serverPid: server.pid ?? 0,
    signIn,
    close: async () => {
      await browser.close();
      await stop(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
