import { defineConfig } from 'vitest/config';

import { POSTGRES_WORKER_DATABASES } from './test/global-setup.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Process-level tests on PostgreSQL run apart: `npm run test:system`.
    exclude: ['test/system/**', '**/node_modules/**'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files run side by side: on PGlite each file has its own database, on PostgreSQL each worker.
    maxWorkers: POSTGRES_WORKER_DATABASES,
  },
});
