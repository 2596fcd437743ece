import { defineConfig } from 'vitest/config';

/** System tests (`npm run test:system`): real server processes on PostgreSQL; see test/system/harness.ts. */
export default defineConfig({
  test: {
    include: ['test/system/**/*.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // They start processes and load the machine: one file at a time.
    fileParallelism: false,
  },
});
