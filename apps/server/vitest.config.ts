import { defineConfig } from 'vitest/config';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

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
    // One PostgreSQL database is shared, so files take turns; on PGlite each file has its own.
    fileParallelism: !onPostgres,
  },
});
