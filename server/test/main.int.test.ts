import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');

it('starts on a fresh data dir, migrates, serves, and stops cleanly on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-main-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SITEWATCH_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SITEWATCH_DEMO: '0',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line:\n${output}`)), 90_000);
    child.stdout.on('data', () => {
      const match = /Sitewatch is running: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  expect(existsSync(path.join(dataDir, 'sitewatch.db'))).toBe(true);
  const ready = await fetch(`${url}/readyz`);
  expect(await ready.json()).toMatchObject({ code: 0, data: { database: 'sqlite' } });
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(0);
  expect(output).toContain('"msg":"stopped"');
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);
