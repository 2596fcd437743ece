import { isIP } from 'node:net';
import path from 'node:path';
import { isKnownTimeZone } from '@back-office/contract/calendar';
import { EXPORT_INLINE_ROW_LIMIT } from '@back-office/contract/exports';
import { z } from 'zod';
import { findPasswordRuleBreach } from './lib/password-rules.ts';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
  ),
  DATABASE_REPLICA_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(z.url({ message: 'must be an http(s) URL' }).optional()),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, { message: 'must be an smtp:// or smtps:// URL' })
      .optional(),
  ),
  MAIL_FROM: z.string().trim().min(3).default('Back office <no-reply@localhost>'),
  ADMIN_EMAIL: optionalText.pipe(z.email({ message: 'must be an email address' }).optional()),
  ADMIN_PASSWORD: optionalText.pipe(
    z.string().min(10, { message: 'must have at least 10 characters' }).optional(),
  ),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(604_800).default(3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  MAIL_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(2000),
  MAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .refine((value) => value.split(',').every((entry) => isProxyAddress(entry.trim())), {
        message:
          'must be a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.1,192.168.0.0/16)',
      })
      .optional(),
  ),
  SEARCH_COUNT_BUDGET_MS: z.coerce.number().int().min(0).max(10_000).default(25),
  EXPORT_STALL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  EXPORT_INLINE_ROWS: z.coerce.number().int().min(1).max(1_000_000).default(EXPORT_INLINE_ROW_LIMIT),
  ORG_TIMEZONE: z
    .string()
    .trim()
    .default('Europe/Paris')
    .refine(isKnownTimeZone, { message: 'must be an IANA time zone such as Europe/Paris or Europe/Zurich' }),
});

/** Keywords that Fastify's `trustProxy` (proxy-addr) accepts beside addresses. */
const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4/IPv6 address, a CIDR range of one, or a proxy-addr keyword. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_KEYWORDS.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * The first Administrator's address when `ADMIN_EMAIL` is unset ("First start" in
 * docs/spec/design.md §Contract decisions the spec leaves open).
 */
const DEFAULT_ADMIN_EMAIL = 'admin@example.org';

/**
 * `ADMIN_PASSWORD` obeys the rules of any new password (docs/security.md §Accounts and sign-in): not a
 * common one, not the email. Checked apart from the schema so that it is reported along with every other
 * bad variable.
 */
function adminPasswordIssue(env: NodeJS.ProcessEnv): string | undefined {
  const password = env.ADMIN_PASSWORD?.trim();
  if (!password) return undefined;
  const email = env.ADMIN_EMAIL?.trim() || DEFAULT_ADMIN_EMAIL;
  switch (findPasswordRuleBreach(password, { email })) {
    case 'common':
      return 'ADMIN_PASSWORD: is a common password (on lists that attackers try first); choose another one';
    case 'email':
      return `ADMIN_PASSWORD: must not be the Administrator's email address (${email}); choose another one`;
    default:
      return undefined;
  }
}

/**
 * The server's configuration, parsed once from the environment ("Configuration" in
 * docs/spec/design.md §Contract decisions the spec leaves open).
 */
export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Absolute path of the data directory (PGlite files, captured mail). */
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * A read replica of `databaseUrl` (streaming replication) for the exports and the dashboard, which may
   * lag behind it by a moment; unset: they read the primary (docs/deployment.md).
   */
  databaseReplicaUrl: string | undefined;
  /** Base URL of the client used in emailed links, without a trailing slash. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  tokenTtlSeconds: number;
  logLevel: string;
  loginRateLimitPerMinute: number;
  mailPollIntervalMs: number;
  /** How long a message being sent is reserved for its worker; after a crash it is sent again once this runs out. */
  mailLeaseSeconds: number;
  /**
   * Proxies whose `X-Forwarded-For` is believed, as Fastify's `trustProxy`: `false` (the default) trusts
   * none, so the client address is the TCP peer (docs/decisions/011).
   */
  trustProxy: false | string[];
  /** An export whose client stops reading for this many seconds is aborted (docs/decisions/011). */
  exportStallTimeoutSeconds: number;
  /** Most rows an export streams itself; a larger one is written by a background job (contract `exports`). */
  exportInlineRowLimit: number;
  /**
   * Milliseconds a search may spend counting more than 10,000 matches exactly; beyond it the count is
   * the planner's estimate, marked as such (docs/decisions/016).
   */
  searchCountBudgetMs: number;
  /** IANA time zone of the organisation: "today", years and months are calendar days there (docs/decisions/012). */
  orgTimezone: string;
};

/** Thrown when an environment variable is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment. Relative `DATA_DIR` is resolved against the directory the command was
 * started from (`INIT_CWD` under npm), so `DATA_DIR=./data npm start` means the folder you are in.
 * @throws ConfigError naming each bad variable, e.g. `PORT: Invalid input: expected number`.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const adminPassword = adminPasswordIssue(env);
  if (adminPassword) problems.push(adminPassword);
  if (parsed.success && parsed.data.DATABASE_REPLICA_URL && !parsed.data.DATABASE_URL) {
    problems.push('DATABASE_REPLICA_URL: needs DATABASE_URL (the embedded database has no replica)');
  }
  if (!parsed.success || problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  const values = parsed.data;
  const baseDir = env.INIT_CWD ?? process.cwd();
  return {
    env: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(baseDir, values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    databaseReplicaUrl: values.DATABASE_REPLICA_URL,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    adminEmail: values.ADMIN_EMAIL,
    adminPassword: values.ADMIN_PASSWORD,
    tokenTtlSeconds: values.TOKEN_TTL_SECONDS,
    logLevel: values.LOG_LEVEL,
    loginRateLimitPerMinute: values.LOGIN_RATE_LIMIT_PER_MINUTE,
    mailPollIntervalMs: values.MAIL_POLL_INTERVAL_MS,
    mailLeaseSeconds: values.MAIL_LEASE_SECONDS,
    trustProxy: values.TRUST_PROXY ? values.TRUST_PROXY.split(',').map((entry) => entry.trim()) : false,
    exportStallTimeoutSeconds: values.EXPORT_STALL_TIMEOUT_SECONDS,
    exportInlineRowLimit: values.EXPORT_INLINE_ROWS,
    searchCountBudgetMs: values.SEARCH_COUNT_BUDGET_MS,
    orgTimezone: values.ORG_TIMEZONE,
  };
}
