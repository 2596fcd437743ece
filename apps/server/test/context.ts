import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeEach, inject } from 'vitest';
import { type AppDeps, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type DatabaseHandle, fromPglite, newPglite, openDatabase, queryRows } from '../src/db/client.ts';
import { prepareDatabase } from '../src/db/seed.ts';
import type { Clock } from '../src/lib/clock.ts';
import { createMailRepository } from '../src/modules/mail/mail.repository.ts';
import { createSenderLoader } from '../src/modules/mail/mail.service.ts';
import type { OutboxMessageRow } from '../src/modules/mail/mail.table.ts';
import type { MailTransport } from '../src/modules/mail/mail.transport.ts';
import { createMailWorker } from '../src/modules/mail/mail.worker.ts';
import { createSettingsRepository } from '../src/modules/settings/settings.repository.ts';
import { createSettingsService } from '../src/modules/settings/settings.service.ts';
import { workerDatabaseUrl } from './global-setup.ts';

export const ADMIN_EMAIL = 'admin@example.org';
export const ADMIN_PASSWORD = 'admin-password-1';

/** A clock tests can move: `clock.advance(ms)`. */
export function createTestClock(start = new Date()): Clock & { advance: (ms: number) => void } {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/back-office-test-unused',
    PUBLIC_URL: 'http://app.test',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    ...overrides,
  });
}

/**
 * Opens the test database: the worker's own PostgreSQL database next to `TEST_DATABASE_URL` when set,
 * else an in-memory PGlite loaded
 * from the migrated template of `test/global-setup.ts`.
 */
async function openTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return openDatabase({ databaseUrl: workerDatabaseUrl(url, process.env.VITEST_POOL_ID ?? '1') });
  const template = inject('pgliteTemplate');
  const client = template
    ? newPglite(undefined, { loadDataDir: new Blob([await readFile(template)]) })
    : newPglite();
  await client.waitReady;
  return fromPglite(client);
}

/** Empties every application table and puts back the first Administrator and a signing key. */
export async function resetDatabase(database: DatabaseHandle) {
  const publicTables = await queryRows<{ tablename: string }>(
    database.db,
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const tables = publicTables.map((row) => `"${row.tablename}"`);
  if (tables.length > 0) {
    await database.db.execute(sql.raw(`truncate ${tables.join(', ')} restart identity cascade`));
  }
  await prepareDatabase(database, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
}

/** A mail transport that keeps what it was given, and can be told to fail. */
export function createMemoryTransport() {
  const sent: OutboxMessageRow[] = [];
  const transport: MailTransport & { sent: OutboxMessageRow[]; failWith?: string } = {
    describe: 'memory',
    sent,
    send: async (message) => {
      if (transport.failWith) throw new Error(transport.failWith);
      sent.push(message);
    },
  };
  return transport;
}

/**
 * One database per test file, migrated once, emptied before each test; `ctx.app` is a fresh app
 * on it (call `ctx.rebuild()` for one with other config). Use inside a test file's top level.
 */
export function useTestApp(options: { config?: Record<string, string> } = {}) {
  const clock = createTestClock();
  const transport = createMemoryTransport();
  const ctx = {
    database: undefined as unknown as DatabaseHandle,
    app: undefined as unknown as Awaited<ReturnType<typeof buildApp>>,
    clock,
    transport,
    worker: undefined as unknown as ReturnType<typeof createMailWorker>,
    /**
     * A mail worker on the test database that sends through `through` (polling left to the test), from
     * the settings' sender as the app's.
     */
    workerFor: (through: MailTransport) =>
      createMailWorker({
        db: ctx.database.db,
        mailRepository: createMailRepository(),
        transport: through,
        logger: { info: () => {}, warn: () => {} },
        pollIntervalMs: 60_000,
        loadSender: createSenderLoader(
          createSettingsService({ db: ctx.database.db, repository: createSettingsRepository() }),
        ),
      }),
    /** Builds another app on the same database (e.g. to simulate a restart or another server). */
    build: async (extra: Omit<Partial<AppDeps>, 'config'> & { config?: Record<string, string> } = {}) => {
      const { config, ...deps } = extra;
      const app = await buildApp({
        config: testConfig({ ...options.config, ...config }),
        database: ctx.database,
        clock,
        webDistDir: '/nonexistent',
        ...deps,
      });
      await app.ready();
      built.push(app);
      return app;
    },
  };
  const built: Array<{ close: () => Promise<unknown> }> = [];
  let opened: Promise<DatabaseHandle> | undefined;

  beforeEach(async () => {
    opened ??= openTestDatabase();
    ctx.database = await opened;
    await resetDatabase(ctx.database);
    transport.sent.length = 0;
    transport.failWith = undefined;
    ctx.worker = ctx.workerFor(transport);
    ctx.app = await ctx.build();
  });

  afterAll(async () => {
    for (const app of built) await app.close();
    await (await opened)?.close();
  });

  return ctx;
}

export type TestContext = ReturnType<typeof useTestApp>;

/** Signs in through `/auth/login` and returns the token pair (throws on failure). */
export async function login(ctx: TestContext, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  const response = await ctx.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json() as {
    id_token: string;
    access_token: string;
    token_type: string;
    expires_in: number;
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The token inside the newest emailed set-password link to `email`, taken from the outbox. */
export async function passwordLinkToken(ctx: TestContext, email: string): Promise<string> {
  await ctx.app.workSettled();
  const messages = await createMailRepository().listMessages(ctx.database.db);
  const message = messages.filter((row) => row.toAddress === email).at(-1);
  const token = message?.textBody.match(/#\/password-reset\/confirm\?token=([\w-]+)/)?.[1];
  if (!token) throw new Error(`no password link emailed to ${email}`);
  return token;
}

/**
 * Creates a staff account through the API as the Administrator, sets its password through the
 * emailed link, and returns its id and tokens.
 */
export async function createSignedInUser(
  ctx: TestContext,
  { email = 'user@example.org', role = 'User', password = 'user-password-1' } = {},
) {
  const admin = await login(ctx);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: bearer(admin.id_token),
    payload: { fullName: 'Some Body', email, role },
  });
  if (created.statusCode !== 201) throw new Error(`create user failed: ${created.body}`);
  const token = await passwordLinkToken(ctx, email);
  const confirmed = await ctx.app.inject({
    method: 'POST',
    url: '/auth/password-reset/confirm',
    payload: { token, newPassword: password },
  });
  if (confirmed.statusCode !== 204) throw new Error(`set password failed: ${confirmed.body}`);
  const tokens = await login(ctx, email, password);
  return { id: (created.json() as { id: number }).id, tokens, admin };
}
