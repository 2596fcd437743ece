import { defineConfig } from 'vitest/config';
import { POSTGRES_WORKER_DATABASES } from './test/global-setup.ts';

/** Test files that replace a module with `vi.mock`: they need a module registry of their own. */
const MOCKING_FILES = ['src/modules/auth/password-reset-timing.test.ts'];

export default defineConfig({
  test: {
    // No include or exclude here: a project that extends this config would add to them, not replace them.
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files run side by side: on PGlite each file has its own database, on PostgreSQL each worker.
    maxWorkers: POSTGRES_WORKER_DATABASES,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          // Files share their worker's modules (the app loads once per worker, not per file); each
          // file still has its own database and app (test/context.ts).
          isolate: false,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Process-level tests on PostgreSQL run apart: `npm run test:system`.
          exclude: ['test/system/**', '**/node_modules/**', ...MOCKING_FILES],
        },
      },
      { extends: true, test: { name: 'server (module mocks)', include: MOCKING_FILES } },
    ],
  },
});
