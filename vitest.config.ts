import { defineConfig } from 'vitest/config';
import { textSections } from './web/src/i18n/text-sections-plugin.ts';

/** One Vitest run over every workspace: contract, server and the web app's logic in Node, its pages in jsdom. */
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
        // The web app's logic without a document (a `.test.ts`): in Node, a worker's files sharing
        // loaded modules. A jsdom and a fresh import of React and antd for each of 37 files was
        // most of the web tests' worker time.
        plugins: [textSections()],
        test: {
          name: 'web-logic',
          include: ['web/src/**/*.test.ts'],
          exclude: ['web/src/**/*.dom.test.ts'],
          environment: 'node',
          setupFiles: ['web/src/test/setup.ts'],
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        // Pages and components (`.test.tsx`) and logic that needs the document or local storage
        // (`.dom.test.ts`): in jsdom, each file on its own.
        plugins: [textSections()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.tsx', 'web/src/**/*.dom.test.ts'],
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
