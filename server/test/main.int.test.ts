import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';

// What production runs: the server built by build.mjs, not TypeScript through a transpiler; built
// here only when older than its sources (`npm test` has just built it, and its journeys run it).
const serverDir = path.resolve(import.meta.dirname, '..');
beforeAll(() => {
  execFileSync(process.execPath, ['../scripts/build-if-stale.mjs', 'server'], {
    cwd: serverDir,
    env: { ...process.env, SITEWATCH_SKIP_BUILD: '' },
  });
}, 60_000);

// A failed assertion must not leave a server running.
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

const start = (env: Record<string, string>) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-main-'));
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: serverDir,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SITEWATCH_DATA_DIR: dataDir, SITEWATCH_DEMO: '0', ...env },
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => {
    out.stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    out.stderr += chunk;
  });
  /** Resolves at the first output matching `pattern`; fails if the server exits before printing it. */
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const exited = () => reject(new Error(`no ${pattern} before the server exited:\n${out.stdout}${out.stderr}`));
      const check = () => {
        const match = pattern.exec(out.stdout);
        if (match) {
          child.stdout?.off('data', check);
          child.off('exit', exited);
          resolve(match);
        }
      };
      child.stdout?.on('data', check);
      child.once('exit', exited);
      check();
    });
  return { child, dataDir, out, printed };
};

const stop = async (child: ChildProcess) => {
  child.kill('SIGTERM');
  return new Promise<number | null>((resolve) => child.on('exit', resolve));
};

it('starts on a fresh data dir, logs JSON only, one line per fact, no request at info, and stops cleanly', async () => {
  const { child, dataDir, out, printed } = start({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
  const running = await printed(/^.*"msg":"Sitewatch is running".*$/m);
  const line = JSON.parse(running[0]) as { url: string; database: string; mode: string };
  expect(line).toMatchObject({ mode: 'production', database: path.join(dataDir, 'sitewatch.db') });
  expect(existsSync(line.database)).toBe(true);
  const ready = await fetch(`${line.url}/readyz`);
  expect(await ready.json()).toMatchObject({ code: 0, data: { database: 'sqlite' } });
  await fetch(`${line.url}/api/v1/no-such-route`);
  expect(await stop(child)).toBe(0);

  // Every line a log collector reads is JSON; the initial password is in its file, not in the log.
  const lines = out.stdout.split('\n').filter(Boolean);
  for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
  const password = readFileSync(path.join(dataDir, 'initial-admin-password.txt'), 'utf8').trim();
  expect(out.stdout).not.toContain(password);
  expect(out.stdout).toContain('first start: the initial password of admin is in the file');
  expect(out.stdout).not.toContain('request completed');
  expect(out.stdout).not.toContain('no-such-route');
  expect(out.stdout).not.toContain('not for production use');
  expect(out.stdout).toContain('"msg":"stopped"');
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

it('on a terminal: readable lines, then one banner naming one address, test mode and the first password', async () => {
  const { child, dataDir, out, printed } = start({
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'pretty',
    SITEWATCH_MODE: 'test',
    SITEWATCH_CAPTCHA: 'off',
  });
  await printed(/\(also in [^\n]*\n\n/);
  expect(await stop(child)).toBe(0);
  const banner = out.stdout.slice(out.stdout.indexOf('  Sitewatch is running at'));
  const password = readFileSync(path.join(dataDir, 'initial-admin-password.txt'), 'utf8').trim();
  expect(banner).toMatch(/^ {2}Sitewatch is running at http:\/\/localhost:\d+\n/);
  expect(banner).toContain('test mode, login captcha off: not for production use');
  expect(banner).toContain(`First start: sign in as admin with password ${password}`);
  expect(banner.match(/https?:\/\//g)).toHaveLength(1);
  // Log lines are for a person too: no JSON objects on the terminal.
  expect(out.stdout).not.toMatch(/^\{"level"/m);
  expect(out.stdout).toMatch(/INFO.*Sitewatch is running/);
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);
