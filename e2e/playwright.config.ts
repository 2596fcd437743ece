import { defineConfig } from '@playwright/test';
import { ADMIN, BASE_URL, DATA_DIR, E2E_PORT, TMP_DIR } from './fixtures/env.ts';

const isCi = Boolean(process.env.CI);

/** Specs that load the server heavily enough to slow down any spec running beside them. */
const HEAVY_SPECS = ['**/jobs.spec.ts'];

/**
 * The organisation's time zone (the server's default `ORG_TIMEZONE`): the browser and the specs' own
 * dates ("today", this year) count days there too, so that no spec depends on the hour it runs at.
 */
const ORG_TIMEZONE = 'Europe/Paris';
process.env.TZ = ORG_TIMEZONE;

/**
 * End-to-end tests: the real server (built client, PGlite in a fresh DATA_DIR, captured mail) driven
 * through Debian's Chromium. No browser is ever downloaded: CHROMIUM_PATH or /usr/bin/chromium is used.
 */
export default defineConfig({
  testDir: './specs',
  outputDir: `${TMP_DIR}/test-results`,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: isCi,
  // A hang guard, not a speed goal: long specs run beside another on a shared 2-core machine.
  timeout: 120_000,
  globalTimeout: 45 * 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL: BASE_URL,
    timezoneId: ORG_TIMEZONE,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    // Two specs run side by side; the annual run of the Jobs spec keeps the one server busy for a while,
    // so it runs alone, after the others.
    { name: 'chromium', testIgnore: HEAVY_SPECS },
    { name: 'chromium (alone)', testMatch: HEAVY_SPECS, dependencies: ['chromium'] },
  ],
  webServer: {
    // `npm start -w apps/server` without npm in between, so that the SIGTERM at the end reaches the
    // server and the run waits for its graceful shutdown. A fresh data directory on every run (screenshots
    // are overwritten by name, not wiped, so runs side by side keep theirs); the caller's DATABASE_URL and
    // SMTP_URL are ignored so the tests always run on PGlite and read the captured mail.
    // The compiled server, as production runs it (`npm test` builds it in the step before).
    command: `rm -rf '${DATA_DIR}' && exec env -u DATABASE_URL -u SMTP_URL node --conditions=compiled dist/main.js`,
    cwd: '../apps/server',
    url: `${BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      PUBLIC_URL: BASE_URL,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      MAIL_POLL_INTERVAL_MS: '200',
      // Exports of more rows are written in the background (the subscribers spec exports four).
      EXPORT_INLINE_ROWS: '3',
    },
  },
});
