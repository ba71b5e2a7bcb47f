import { defineConfig } from '@playwright/test';

/**
 * Each spec file runs against a product of its own (e2e/fixtures/test.ts), copied from data dirs
 * that global-setup.ts prepares with the built server. Files share nothing, so E2E_WORKERS may
 * run several side by side; on this two-core machine one worker is the fastest (docs/testing.md).
 */
export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './fixtures/global-setup.ts',
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    screenshot: 'only-on-failure',
    trace: 'off',
    // The browser asks for reduced motion, so the product opens dialogs and lists without animation:
    // a click never lands on a dialog still zooming in (docs/testing.md). The home journey that
    // watches the alarm list move asks for motion again.
    reducedMotion: 'reduce',
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
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1366, height: 768 } } }],
});
