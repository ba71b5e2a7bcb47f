import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 18081);
const root = path.resolve(import.meta.dirname, '..');
/** Every run starts the product on a fresh data dir, exactly as `npm start` starts it. */
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'sitewatch-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      // Debian's Chromium, never a downloaded browser (DESIGN.md).
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // The first login with the printed password must meet a fresh product, before any other journey.
    {
      name: 'first-login',
      testMatch: /first-login\.spec\.ts/,
      use: { browserName: 'chromium', viewport: { width: 1366, height: 768 } },
    },
    {
      name: 'chromium',
      testIgnore: /first-login\.spec\.ts/,
      dependencies: ['first-login'],
      use: { browserName: 'chromium', viewport: { width: 1366, height: 768 } },
    },
  ],
  webServer: {
    command: 'npm start',
    cwd: root,
    url: `http://localhost:${port}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    // Test mode lets the captcha start switched off (SITEWATCH_CAPTCHA=off); journeys turn it on.
    env: {
      PORT: String(port),
      SITEWATCH_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SITEWATCH_MODE: 'test',
      SITEWATCH_CAPTCHA: 'off',
    },
  },
});
