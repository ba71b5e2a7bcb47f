import { defineConfig } from 'vitest/config';

/** One Vitest run over every workspace: contract and server in Node, web in jsdom. */
export default defineConfig({
  test: {
    // Each server test file opens its own databases; two workers match the two cores.
    maxWorkers: 2,
    projects: [
      {
        test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' },
      },
      // Checks of the repository itself (the import boundaries of biome.json).
      { test: { name: 'repo', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // A file's first antd render in jsdom takes 1-2 s alone and went past the default 5 s
          // with the journeys running beside Vitest on a loaded machine.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
