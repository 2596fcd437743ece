import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import rootPackage from '../../package.json' with { type: 'json' };

const apiTarget = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(rootPackage.version),
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/auth': apiTarget,
      '/healthz': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph that scripts/check-bundle-budgets.ts walks.
    manifest: true,
    rolldownOptions: {
      output: {
        // React and the router are needed by every screen: one long-lived chunk. Mantine and the other
        // libraries are left to the bundler's own splitting (by the screens that use each module), so
        // the login screen does not download the date pickers, menus and tables of the other screens
        // (budget: login ≤ 200 KB gzipped, docs/decisions/004-client-state-and-forms.md; checked by scripts/check-bundle-budgets.ts). No group for
        // Mantine or the charts: a group takes the modules it depends on along (Mantine's core went into
        // the charts chunk), which made every screen load every library.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    restoreMocks: true,
    // Files share their worker's modules (Mantine, React, the app load once per worker, not per file);
    // setup-tests.ts empties what a test could leave behind.
    isolate: false,
    // One worker per core, at least two: the default leaves a core idle (on 2 cores: 70 s instead of 105 s).
    maxWorkers: Math.max(2, availableParallelism()),
    // Rendering Mantine forms in jsdom on a busy 2-core machine can pass 5 s; speed is not judged here.
    testTimeout: 20_000,
  },
});
