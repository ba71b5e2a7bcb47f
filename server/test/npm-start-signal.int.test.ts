import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Issue 18: a service manager stops `npm start` with SIGTERM; it must reach the server, which stops
// polling, writes what it holds and exits, leaving no orphan behind.
it('SIGTERM to npm start stops the server cleanly with its collected values stored', async () => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      SITEWATCH_FROM_SOURCE: '1',
      SITEWATCH_DATA_DIR: dataDir,
      LOG_FORMAT: 'json',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => {
    log += d;
  });
  child.stderr.on('data', (d) => {
    log += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!log.includes('Sitewatch is running')) {
    if (Date.now() > deadline) throw new Error(`no start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const serverPid = Number(/"pid":(\d+)/.exec(log)?.[1]);
  expect(serverPid).toBeGreaterThan(0);
  // The demo's devices are first polled within 5 s of the start (spread over their interval).
  await new Promise((r) => setTimeout(r, 5_500));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  for (let i = 0; i < 50 && alive(serverPid); i++) await new Promise((r) => setTimeout(r, 100));
  expect(alive(serverPid)).toBe(false);
  expect(log).toContain('"signal":"SIGTERM"');
  expect(log).toContain('"msg":"stopped"');
  const db = new SQLite(path.join(dataDir, 'sitewatch.db'), { readonly: true });
  try {
    const items = db
      .prepare('select count(*) as n, sum(last_check > 0) as checked from items where enable = 1')
      .get() as {
      n: number;
      checked: number;
    };
    expect(items.n).toBeGreaterThan(0);
    expect(items.checked).toBe(items.n);
    const chunks = db.prepare('select count(*) as n from sample_chunks').get() as { n: number };
    expect(chunks.n).toBeGreaterThan(0);
  } finally {
    db.close();
  }
}, 90_000);
