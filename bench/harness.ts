/**
 * What the benchmark suites share: the PostgreSQL database at BENCH_DATABASE_URL (created when
 * missing), seeding through `seed-demo.ts` in a child process, the real app (buildApp) listening on a
 * loopback port of this process with a Server-Timing header, a signed-in staff account, timing series
 * (median, p95) of HTTP requests and of the raw SQL of the same work through `pg`, the speed goal of
 * API searches against that reference, downloads by curl beside `COPY ... TO STDOUT` by psql (the
 * reference of exports), and the CPU time of this process and of the PostgreSQL backends.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type App, buildApp } from '../apps/server/src/app.ts';
import { type Config, loadConfig } from '../apps/server/src/config.ts';
import {
  type Database,
  type DatabaseHandle,
  openDatabase,
  POSTGRES_SESSION_OPTIONS,
  queryRows,
} from '../apps/server/src/db/client.ts';
import { prepareDatabase } from '../apps/server/src/db/seed.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { createUsersRepository } from '../apps/server/src/modules/users/users.repository.ts';
import { SCALE, SCALE_NAME } from './scale.ts';

/** Timed runs per figure, after {@link WARM_UP} runs that are not counted. */
export const RUNS = 30;
export const WARM_UP = 3;
/**
 * Timed runs of each API search (and of its SQL alone). Their p95 is a goal: of 30 runs it is the
 * second slowest, so that one pause of the machine failed a search whose medians met the goal; of 100
 * it is the sixth slowest.
 */
export const SEARCH_RUNS = 100;
/** The subscribers every suite works on (search speed goals): 200,000, or 1,000,000 with `--scale 1m`. */
export const SUBSCRIBERS = SCALE.subscribers;
/** The staff account the benchmark signs in with (an Administrator: the annual run needs one). */
export const BENCH_EMAIL = 'bench@example.org';
export const BENCH_USER_NAME = 'Benchmark';

/** Milliseconds, rounded to 0.1. */
export type Stats = { median: number; p95: number; min: number; max: number };

/**
 * One figure: a line of the printed table and of the reports. `value` is the figure the goal judges, in
 * `unit` (`ms`, `s`, `MB`, `/s`, `×`, `%`, `errors`); `baseline`, in the same unit, is the reference measured
 * in the same run (the raw SQL of a search, `COPY` of an export, the empty route or server) when there is
 * one. `goal` and `measured` are the words of the table.
 */
export type BenchRow = {
  figure: string;
  goal: string;
  measured: string;
  passed: boolean;
  value: number | null;
  unit: string;
  baseline?: { value: number; label: string };
};

/** What a suite hands back: its table lines and the details written to bench/results/latest.json. */
export type SuiteResult = { rows: BenchRow[]; details: Record<string, unknown> };

/**
 * A benchmark suite, run by `bench/run.ts`. `unavailable` says why the suite cannot run on this machine
 * (e.g. no Chromium), or null when it can: the suite is then reported as skipped and the others run.
 */
export type Suite = {
  name: string;
  run: (context: BenchContext) => Promise<SuiteResult>;
  unavailable?: () => string | null;
};

/** How many rows of each kind existed and were added by a seeding run. */
export type SeedReport = Record<'subscribers' | 'donations' | 'sales', { existing: number; added: number }>;

/** Everything a suite needs: the database, a raw `pg` pool, the listening app and a signed-in user. */
export type BenchContext = {
  url: string;
  database: DatabaseHandle;
  db: Database;
  /** Two raw connections for the reference timings (with the server's session settings). */
  pool: pg.Pool;
  app: App;
  base: string;
  headers: Record<string, string>;
  token: string;
  /** The bench account's password (new each run), for suites that sign in on another server. */
  password: string;
  /** The app's configuration (a suite's repositories take the same settings, e.g. the count budget). */
  config: Config;
};

/** Median, 95th percentile, min and max of `values` (milliseconds), rounded to 0.1. */
export function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    median: round(at(0.5)),
    p95: round(at(0.95)),
    min: round(sorted[0] ?? 0),
    max: round(sorted.at(-1) ?? 0),
  };
}

/** Milliseconds `action` took. */
export async function timeIt(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/** The 1-, 5- and 15-minute load averages, rounded to 0.01 (the machine is shared). */
export function loadAverage(): [number, number, number] {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg().map((value) => Math.round(value * 100) / 100);
  return [one, five, fifteen];
}

/** Creates the benchmark database when the server does not have it yet. */
async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^\w+$/.test(name))
    throw new Error(`BENCH_DATABASE_URL must name a database of letters, digits and _: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      process.stdout.write(`Creating database ${name}.\n`);
      await client.query(`create database "${name}"`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Runs `seed-demo.ts` against the benchmark database until it holds `targets` (subscribers always;
 * donations and sales when given), in a child process so that the memory it uses is not this one's.
 */
export async function seedInChildProcess(
  context: Pick<BenchContext, 'url'>,
  targets: { subscribers: number; donations?: number; sales?: number },
): Promise<SeedReport> {
  const script = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    'apps',
    'server',
    'scripts',
    'seed-demo.ts',
  );
  const args = ['--import', 'tsx', script, '--subscribers', String(targets.subscribers)];
  if (targets.donations !== undefined) args.push('--donations', String(targets.donations));
  if (targets.sales !== undefined) args.push('--sales', String(targets.sales));
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, DATABASE_URL: context.url, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`seeding failed (exit code ${code})`);
  const report = (kind: keyof SeedReport) => ({
    existing: Number(new RegExp(`(\\d+) ${kind} exist`).exec(output)?.[1] ?? 0),
    added: Number(new RegExp(`(\\d+) ${kind} added\\.`).exec(output)?.[1] ?? 0),
  });
  return { subscribers: report('subscribers'), donations: report('donations'), sales: report('sales') };
}

/** The bench account as an Administrator with a known password. */
async function ensureBenchUser(db: Database, password: string) {
  const users = createUsersRepository();
  const passwordHash = await hashPassword(password);
  const existing = await users.findUserByEmail(db, { email: BENCH_EMAIL });
  if (existing) {
    await users.setPasswordHash(db, { id: existing.id, passwordHash });
    if (existing.role !== 'Administrator' || existing.fullName !== BENCH_USER_NAME) {
      await users.updateUser(db, {
        id: existing.id,
        fullName: BENCH_USER_NAME,
        email: BENCH_EMAIL,
        role: 'Administrator',
      });
    }
  } else {
    await users.insertUser(db, {
      fullName: BENCH_USER_NAME,
      email: BENCH_EMAIL,
      role: 'Administrator',
      passwordHash,
    });
  }
}

/**
 * Opens the benchmark database (migrated), builds the app with a Server-Timing header (from the
 * request's arrival to its answer being ready), listens on a loopback port and signs in.
 * `close` stops everything.
 */
export async function openBenchContext(): Promise<BenchContext & { close: () => Promise<void> }> {
  // One database per scale, so that a 1M run does not grow the 200k one.
  const url =
    process.env.BENCH_DATABASE_URL ??
    `postgres://postgres@127.0.0.1:5432/${SCALE_NAME === '200k' ? 'bench' : `bench_${SCALE_NAME}`}`;
  await ensureDatabase(url);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    DATA_DIR: path.join(os.tmpdir(), 'back-office-bench'),
    PUBLIC_URL: 'http://bench.invalid',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
  });
  const database = await openDatabase({ databaseUrl: url });
  // The reference runs with the session settings of the server's own connections.
  const pool = new pg.Pool({ connectionString: url, max: 2, options: POSTGRES_SESSION_OPTIONS });
  let app: App | undefined;
  try {
    const prepared = await prepareDatabase(database, config);
    const admin = prepared.createdAdministrator;
    if (admin?.generatedPassword) {
      process.stdout.write(
        `First start of the benchmark database: Administrator ${admin.email} / ${admin.generatedPassword}\n`,
      );
    }
    const password = randomBytes(12).toString('base64url');
    await ensureBenchUser(database.db, password);
    // The job runner is not started: a suite that needs background work runs it (`app.jobs.runDue()`).
    app = await buildApp({ config, database });
    const arrivals = new WeakMap<object, number>();
    app.addHook('onRequest', async (request) => {
      arrivals.set(request, performance.now());
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const arrived = arrivals.get(request);
      if (arrived !== undefined)
        void reply.header('server-timing', `app;dur=${(performance.now() - arrived).toFixed(2)}`);
      return payload;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: BENCH_EMAIL, password }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { id_token: token } = (await login.json()) as { id_token: string };
    const started = app;
    return {
      url,
      database,
      db: database.db,
      pool,
      app: started,
      base,
      token,
      headers: { authorization: `Bearer ${token}` },
      password,
      config,
      close: async () => {
        await started.close();
        await pool.end();
        await database.close();
      },
    };
  } catch (error) {
    await app?.close();
    await pool.end();
    await database.close();
    throw error;
  }
}

/**
 * Runs `statement` on a raw connection without the server's 120 s statement timeout: the set-up of a
 * suite at the 1M scale (a vacuum of five million donations, an update of every subscriber) takes
 * longer, and ran into that timeout.
 */
export async function runWithoutTimeout(context: Pick<BenchContext, 'pool'>, statement: string) {
  const client = await context.pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    await client.query(statement);
  } finally {
    await client.query('reset statement_timeout').catch(() => {});
    client.release();
  }
}

/** Runs `VACUUM (ANALYZE)` of `tables` (see {@link runWithoutTimeout}). */
export async function vacuumAnalyze(context: Pick<BenchContext, 'pool'>, tables: string[]) {
  await runWithoutTimeout(context, `vacuum (analyze) ${tables.map((table) => `"${table}"`).join(', ')}`);
}

/** The server time of a response, from its Server-Timing header. */
export function serverTiming(response: Response): number {
  return Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN);
}

/**
 * Timings of a series of requests: server time, HTTP round trip, CPU time of this process per request
 * (server and client: what a request costs whatever the load of the machine), and the last answer's body.
 */
export type RequestSeries<T> = { server: Stats; roundTrip: Stats; cpu: Stats; last: T };

/** One timed GET of `path`: its server time, round trip, this process's CPU (ms) and `read`'s result. */
async function timedRequest<T>(
  context: BenchContext,
  path: string,
  read: (response: Response) => Promise<T>,
): Promise<{ server: number; roundTrip: number; cpu: number; body: T }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const response = await fetch(`${context.base}${path}`, { headers: context.headers });
  if (!response.ok) throw new Error(`GET ${path} failed: ${response.status} ${await response.text()}`);
  const body = await read(response);
  const roundTrip = performance.now() - started;
  const used = process.cpuUsage(cpuBefore);
  return { server: serverTiming(response), roundTrip, cpu: (used.user + used.system) / 1000, body };
}

/**
 * Sends GET `pathFor(run)` {@link WARM_UP} + {@link RUNS} times, one after the other, and times the
 * counted ones. `read` reads (and checks) a body; a non-2xx answer throws.
 */
export async function measureRequests<T>(
  context: BenchContext,
  pathFor: (run: number) => string,
  read: (response: Response) => Promise<T>,
  { runs = RUNS, warmUp = WARM_UP }: { runs?: number; warmUp?: number } = {},
): Promise<RequestSeries<T>> {
  const server: number[] = [];
  const roundTrip: number[] = [];
  const cpu: number[] = [];
  let last: T | undefined;
  for (let run = 0; run < warmUp + runs; run += 1) {
    const timed = await timedRequest(context, pathFor(run), read);
    last = timed.body;
    if (run < warmUp) continue;
    roundTrip.push(timed.roundTrip);
    server.push(timed.server);
    cpu.push(timed.cpu);
  }
  return { server: stats(server), roundTrip: stats(roundTrip), cpu: stats(cpu), last: last as T };
}

/** Reads a PDF answer and checks that it is one; returns its size in bytes. */
export async function readPdf(response: Response): Promise<number> {
  const bytes = Buffer.from(await response.arrayBuffer());
  if (
    !response.headers.get('content-type')?.startsWith('application/pdf') ||
    !bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))
  )
    throw new Error(`expected a PDF, got ${response.headers.get('content-type')}`);
  return bytes.length;
}

/** A statement as node-postgres runs it. */
export type Statement = { text: string; values: unknown[] };

/** The SQL statements `action` runs on a Drizzle database over `pool` (it really runs them). */
export async function captureStatements(
  pool: pg.Pool,
  action: (db: Database) => Promise<unknown>,
): Promise<Statement[]> {
  const statements: Statement[] = [];
  const db = drizzle(pool, {
    casing: 'snake_case',
    logger: { logQuery: (text, values) => statements.push({ text, values }) },
  }) as unknown as Database;
  await action(db);
  return statements;
}

/** Runs `statements` one after the other on `client`; how long that took (ms). */
function timeStatements(client: pg.PoolClient, statements: Statement[]): Promise<number> {
  return timeIt(async () => {
    for (const statement of statements) await client.query(statement.text, statement.values);
  });
}

/** Times `statements` run one after the other on one raw `pg` connection. */
export async function measureStatements(
  pool: pg.Pool,
  statements: Statement[],
  { runs = RUNS, warmUp = WARM_UP }: { runs?: number; warmUp?: number } = {},
): Promise<Stats> {
  const timings: number[] = [];
  const client = await pool.connect();
  try {
    for (let run = 0; run < warmUp + runs; run += 1) {
      const elapsed = await timeStatements(client, statements);
      if (run >= warmUp) timings.push(elapsed);
    }
  } finally {
    client.release();
  }
  return stats(timings);
}

/** Times `action` in this process. */
export async function measureCalls(
  action: (run: number) => Promise<unknown>,
  { runs = RUNS, warmUp = WARM_UP }: { runs?: number; warmUp?: number } = {},
): Promise<Stats> {
  const timings: number[] = [];
  for (let run = 0; run < warmUp + runs; run += 1) {
    const elapsed = await timeIt(() => action(run));
    if (run >= warmUp) timings.push(elapsed);
  }
  return stats(timings);
}

/**
 * The speed goal of every API search: the server median under 50 ms and within 2× of the raw SQL
 * of the same search run straight through `pg` (API median / raw SQL median).
 */
/** Search goals at scale: the server's p95 under 50 ms and within 1.5× of its SQL's p95 run alone. */
export const SEARCH_GOALS = { p95Ms: 50, rawSqlRatio: 1.5 } as const;

/** An API search's timings beside those of its raw SQL. */
export type SearchTimings = { server: Stats; roundTrip: Stats; rawSql: Stats };

/** API server p95 / raw SQL p95, rounded to 0.1 (raw SQL under 0.1 ms counts as 0.1 ms). */
export function rawSqlRatio({ server, rawSql }: SearchTimings): number {
  return Math.round((server.p95 / Math.max(0.1, rawSql.p95)) * 10) / 10;
}

/**
 * Times an API search: GET `path` over HTTP (as {@link measureRequests}) and the SQL its repository
 * runs for the same query (`search`, on the Drizzle database it is given) straight through `pg`, one
 * after the other in each of {@link SEARCH_RUNS} runs, so that a busy moment of the machine falls on
 * both alike.
 * `found` reads from an answer what it found (a `count`, or the rows of a list); the last one is kept.
 *
 * Whether a count above 10,000 is exact depends on a timing (`SEARCH_COUNT_BUDGET_MS`), so the same
 * search may count its matches in one run and estimate them in the next: `search` is given the budget
 * to search with, the SQL of both outcomes is captured (an unlimited budget, none), and each run times
 * the SQL of the outcome that the server's answer reports (`countIsExact`).
 */
export async function measureSearch(
  context: BenchContext,
  {
    path,
    found,
    search,
  }: {
    path: string;
    found: (response: Response) => Promise<number>;
    search: (db: Database, countBudgetMs: number) => Promise<unknown>;
  },
): Promise<{ found: number; timings: SearchTimings }> {
  const counted = await captureStatements(context.pool, (db) => search(db, UNLIMITED_COUNT_BUDGET_MS));
  const estimated = await captureStatements(context.pool, (db) => search(db, 0));
  const read = async (response: Response) => {
    const answer = (await response.clone().json()) as { countIsExact?: boolean };
    return { found: await found(response), countIsExact: answer.countIsExact };
  };
  const server: number[] = [];
  const roundTrip: number[] = [];
  const rawSql: number[] = [];
  let last = 0;
  const client = await context.pool.connect();
  try {
    for (let run = 0; run < WARM_UP + SEARCH_RUNS; run += 1) {
      const timed = await timedRequest(context, path, read);
      const raw = await timeStatements(client, timed.body.countIsExact === false ? estimated : counted);
      last = timed.body.found;
      if (run < WARM_UP) continue;
      server.push(timed.server);
      roundTrip.push(timed.roundTrip);
      rawSql.push(raw);
    }
  } finally {
    client.release();
  }
  return {
    found: last,
    timings: { server: stats(server), roundTrip: stats(roundTrip), rawSql: stats(rawSql) },
  };
}

/** A count budget (ms) that every exact count fits: the raw SQL of a search that counted its matches. */
const UNLIMITED_COUNT_BUDGET_MS = 10_000;

/** What `{count, models}` search answers found: their `count`. */
export const countOfAnswer = async (response: Response) =>
  ((await response.json()) as { count: number }).count;

/** The table line of an API search against {@link SEARCH_GOALS}. */
export function searchRow(figure: string, timings: SearchTimings): BenchRow {
  const { server, roundTrip, rawSql } = timings;
  const ratio = rawSqlRatio(timings);
  return {
    figure: `${figure}: server p95`,
    goal: `< ${SEARCH_GOALS.p95Ms} ms, <= ${SEARCH_GOALS.rawSqlRatio}× raw SQL`,
    measured: `${server.p95} ms = ${ratio}× raw SQL ${rawSql.p95} ms (medians ${server.median} vs ${rawSql.median}; HTTP round trip ${roundTrip.median} / p95 ${roundTrip.p95})`,
    passed: server.p95 < SEARCH_GOALS.p95Ms && ratio <= SEARCH_GOALS.rawSqlRatio,
    value: server.p95,
    unit: 'ms',
    baseline: { value: rawSql.p95, label: 'raw SQL' },
  };
}

/** Runs `command args` to its end; its standard output as text. Throws on a non-zero exit. */
async function runForOutput(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env: env ?? process.env });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`${command} failed (exit code ${code})`);
  return output;
}

/**
 * Downloads `url` with curl (another process, so that only the server's memory and CPU are this
 * process's), throwing the bytes away; returns how many there were. Throws on a non-2xx answer.
 */
export async function downloadWithCurl(url: string, token: string): Promise<number> {
  const output = await runForOutput('curl', [
    '--silent',
    '--show-error',
    '--fail',
    '--output',
    '/dev/null',
    '--write-out',
    '%{size_download}',
    '--header',
    `authorization: Bearer ${token}`,
    url,
  ]);
  return Number(output);
}

/**
 * The reference of an export (the goal: CSV within 3× of COPY): `COPY (<select>) TO STDOUT (FORMAT csv,
 * HEADER)` run by psql against `databaseUrl`, its output counted by `wc -c` and thrown away; returns the
 * bytes. `select` is plain SQL (COPY takes no bind parameters).
 */
export async function copyToStdout(databaseUrl: string, select: string): Promise<number> {
  const output = await runForOutput(
    'bash',
    [
      '-o',
      'pipefail',
      '-c',
      'psql -X -q -v ON_ERROR_STOP=1 -d "$BENCH_COPY_URL" -c "$BENCH_COPY_SQL" | wc -c',
    ],
    {
      ...process.env,
      PGOPTIONS: POSTGRES_SESSION_OPTIONS,
      BENCH_COPY_URL: databaseUrl,
      BENCH_COPY_SQL: `copy (${select}) to stdout with (format csv, header)`,
    },
  );
  return Number(output.trim());
}

let clockTicks: number | undefined;

/** CPU seconds used so far by the PostgreSQL backends serving this database, by process id; null when not readable (remote server). */
export async function postgresBackendCpu(db: Database): Promise<Map<number, number> | null> {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const rows = await queryRows<{ pid: number }>(
    db,
    sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which is in parentheses): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / (clockTicks ?? 100));
    } catch {
      return null;
    }
  }
  return cpu;
}

/** CPU seconds the backends used between two {@link postgresBackendCpu} readings (a new backend counts from 0). */
export function postgresCpuBetween(before: Map<number, number> | null, after: Map<number, number> | null) {
  if (!before || !after) return null;
  let seconds = 0;
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0);
  return seconds;
}

/** CRC-32 of `bytes` (PNG chunks). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A 360 × 120 RGB PNG (two coloured bands and a frame) as a data URL: an organisation logo of a usual size. */
export function benchLogoDataUrl(): string {
  const width = 360;
  const height = 120;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x += 1) {
      const frame = x < 4 || y < 4 || x >= width - 4 || y >= height - 4;
      const [r, g, b] = frame ? [20, 40, 90] : x < width / 3 ? [30 + y, 90, 160] : [250, 250 - y, 240];
      raw.set([r, g, b], row + 1 + x * 3);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter method, not interlaced
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/**
 * Fills the organisation settings as a real organisation has them (name, address, structured address,
 * a euro and a franc account, signatory, texts and a logo), so that receipts and invoices carry
 * everything they print, a Swiss sale's invoice its QR-bill; left alone once they have all that.
 */
export async function ensureBenchSettings(context: BenchContext) {
  const current = await fetch(`${context.base}/api/settings`, { headers: context.headers });
  if (!current.ok) throw new Error(`GET /api/settings failed: ${current.status}`);
  const settings = (await current.json()) as Record<string, unknown>;
  if (settings.organisationName && Array.isArray(settings.bankAccounts) && settings.bankAccounts.length > 0)
    return;
  const response = await fetch(`${context.base}/api/settings`, {
    method: 'PUT',
    headers: { ...context.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      ...settings,
      organisationName: 'Association des Amis de la Revue',
      address: '12 rue des Lilas\n74100 Annemasse',
      addressStreet: 'rue des Lilas',
      addressBuildingNumber: '12',
      addressPostcode: '74100',
      addressTown: 'Annemasse',
      addressCountry: 'FR',
      bankAccounts: [
        { currency: 'EUR', iban: 'FR7630006000011234567890189' },
        { currency: 'CHF', iban: 'CH4431999123000889012' },
      ],
      emailSenderName: 'Association des Amis de la Revue',
      emailSenderAddress: 'contact@amis-revue.example.org',
      sirenOrRna: 'W743001234',
      sepaCreditorId: 'FR72ZZZ123456',
      signatoryName: 'Claire Dubois',
      signatoryTitle: 'Présidente',
      organisationPurpose:
        'Association loi 1901 d’intérêt général à caractère culturel : édition d’une revue, conférences et rencontres entre la France et la Suisse romande.',
      receiptStatement:
        'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue aux articles 200, 238 bis et 978 du code général des impôts.',
      invoiceFooter:
        'Association des Amis de la Revue – IBAN FR76 3000 6000 0112 3456 7890 189 – BIC AGRIFRPP',
      paymentTermsText: 'Paiement à réception de facture, par chèque ou virement.',
      logo: benchLogoDataUrl(),
    }),
  });
  if (!response.ok) throw new Error(`PUT /api/settings failed: ${response.status} ${await response.text()}`);
}
