import { defineConfig } from 'vitest/config';
import { textSections } from './web/src/i18n/text-sections-plugin.ts';

/** One Vitest run over every workspace: contract and server in Node, web in jsdom. */
export default defineConfig({
  test: {
    // Each server test file opens its own databases; two workers match the two cores.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contract',
          include: ['packages/contract/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      // Checks of the repository itself (the import boundaries of biome.json).
      { test: { name: 'repo', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          environment: 'node',
          // Files of a worker share loaded modules instead of importing the whole server afresh
          // for each: every file builds its own app and databases, so nothing else is shared.
          // Measured (server, contract and repo, 86 files, load 2): 312 s and 302 s of CPU with
          // isolation, 209 s and 139 s without; importing was 138 s of worker time, now 12 s.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The locale files' parts (web/src/i18n/sections.ts), as the build serves them.
        plugins: [textSections()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/test/setup.ts'],
          // A file's first antd render in jsdom takes 1-2 s alone and went past the default 5 s
          // with the journeys running beside Vitest on a loaded machine.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
