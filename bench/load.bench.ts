/**
 * `npm run bench -- load` (mixed-load goal): 50 connections for 30 s of autocannon against ONE
 * server process (`apps/server/src/main.ts` on the benchmark database, in a child process so that the
 * load generator's CPU is not the server's), sending the mixed work of signed-in staff: subscriber
 * searches by name prefix, town, postcode, tag, category and country, records opened with their
 * history, one record saved per cycle (with the version read, each save on a subscriber of its own so
 * that no save meets another), donation and sales searches, and the dashboard ({@link staffCycle}).
 * Goals: 0 errors (no non-2xx answer, no socket error or timeout), p99 < 250 ms, and requests per
 * second at least 15 % of the ceiling: the same autocannon settings against an empty Fastify route
 * (`GET /empty` -> `{}`) in a child process, measured in the same run. Beside it, to read the figure:
 * the CPU per request of the server process and of PostgreSQL (from /proc), and the same settings
 * against the cheapest signed-in read alone (one subscriber record by id) on the same server.
 *
 * Before the load, on the idle in-process app: opening a subscriber (record, history, donations and
 * sales asked for at once) answers in under 30 ms at the p95.
 *
 * BENCH_LOAD_SECONDS shortens the runs for trials (the goals are measured at 30 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isValidIban } from '@back-office/contract/subscribers';
import autocannon from 'autocannon';
import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { DONATIONS } from './donations.bench.ts';
import {
  BENCH_EMAIL,
  type BenchContext,
  type BenchRow,
  postgresBackendCpu,
  postgresCpuBetween,
  type Stats,
  SUBSCRIBERS,
  type Suite,
  type SuiteResult,
  seedInChildProcess,
  stats,
  vacuumAnalyze,
} from './harness.ts';
import { SALES } from './sales.bench.ts';

const GOALS = { p99Ms: 250, errors: 0, ceilingShare: 0.15, openSubscriberP95Ms: 30 } as const;
const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
/** Sessions the connections share (several staff members signed in), round robin. */
const STAFF_SESSIONS = 10;

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(repositoryRoot, 'apps', 'server');

/** A free loopback TCP port. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The PostgreSQL client variables of this process's environment (`PG*`). */
function postgresEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[0].startsWith('PG') && entry[1] !== undefined,
    ),
  );
}

/** A server in a child process: its URL, its CPU seconds so far (from /proc) and a stop function. */
type ChildServer = { url: string; cpuSeconds: () => Promise<number | null>; stop: () => Promise<void> };

/**
 * Starts `node <args>` in `cwd` with `env` (plus PATH and PORT) and waits until GET `readyPath`
 * answers 2xx; throws with what it printed when it exits or is not ready within 60 s.
 */
async function startChildServer(
  args: string[],
  { cwd, env, readyPath }: { cwd: string; env: Record<string, string>; readyPath: string },
): Promise<ChildServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd,
    // PG* variables (PGOPTIONS, PGSSLMODE...) reach the child as they would a server started by hand.
    env: { ...postgresEnvironment(), PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    // Only the end matters (why it stopped); a warn-level log under load could grow without bound.
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited (${child.exitCode}):\n${output}`);
    const answer = await fetch(`${url}${readyPath}`).catch(() => undefined);
    if (answer?.ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${args.join(' ')} was not ready in 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ticks = 100; // USER_HZ on Linux
  const cpuSeconds = async () => {
    try {
      const stat = await readFile(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      return null;
    }
  };
  return { url, cpuSeconds, stop };
}

/** The empty-route reference: a plain Fastify instance with `GET /empty` -> `{}`, nothing else. */
const EMPTY_SERVER_SCRIPT = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/empty', async () => ({}));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

/** A subscriber as staff look them up: by the start of the last name, town, postcode or country. */
type KnownSubscriber = { id: number; lastName: string; town: string; postcode: string; countryId: number };

/** What the workload picks from at random: subscribers, filter values and ids found in the database. */
type WorkloadPools = {
  /** Subscribers looked up and opened (read only), any number of times. */
  lookedUp: KnownSubscriber[];
  /** Subscribers saved, each at most once in a run (taken in turn), their record valid as it stands. */
  saved: KnownSubscriber[];
  /** Tag ids, as often as subscribers carry them. */
  tagIds: number[];
  categoryIds: number[];
  productIds: number[];
  /** The first days of the last 24 months (`YYYY-MM-DD`). */
  months: string[];
};

/** Reads the pools from the benchmark database. */
async function readPools(context: BenchContext): Promise<WorkloadPools> {
  const { db } = context;
  const column = async <T>(query: SQL) => (await queryRows<{ value: T }>(db, query)).map((row) => row.value);
  const subscribers = (limit: number) =>
    queryRows<KnownSubscriber & { iban: string }>(
      db,
      sql`select id, last_name as "lastName", town, postcode, coalesce(country_id, 0) as "countryId", iban
            from subscribers
           where not hidden and length(last_name) >= 3 and length(postcode) >= 3 and town <> ''
           order by random() limit ${limit}`,
    );
  const pools: WorkloadPools = {
    lookedUp: await subscribers(20_000),
    // The demo data has IBANs that the form's check refuses (staff would correct them before saving).
    saved: (await subscribers(25_000)).filter((row) => row.iban === '' || isValidIban(row.iban)),
    tagIds: await column<number>(
      sql`select tag_id as value from subscriber_tags order by random() limit 2000`,
    ),
    categoryIds: await column<number>(
      sql`select distinct category_id as value from subscribers where category_id is not null`,
    ),
    productIds: await column<number>(sql`select distinct product_id as value from sale_lines`),
    months: await column<string>(
      sql`select to_char(m, 'YYYY-MM-DD') as value from generate_series(date_trunc('month', current_date) - interval '23 months', current_date, interval '1 month') m`,
    ),
  };
  for (const [name, values] of Object.entries(pools)) {
    if ((values as unknown[]).length === 0) throw new Error(`the benchmark database has no ${name} to load`);
  }
  return pools;
}

/** The kinds of request of the workload, as the table and results file name them. */
type RequestKind =
  | 'dashboard'
  | 'subscriber search'
  | 'subscriber record'
  | 'subscriber history'
  | 'subscriber save'
  | 'donation search'
  | 'sales search';

/** Per kind of request: client-side latencies (ms) and answers that were not 2xx, by status. */
type Tally = Map<RequestKind, { latencies: number[]; failures: Record<string, number> }>;

/** A cycle's state on one connection (autocannon resets it at the start of each cycle). */
type CycleContext = {
  sentAt?: number;
  lookedUp?: KnownSubscriber;
  saved?: KnownSubscriber;
  record?: Record<string, unknown>;
};

const pick = <T>(values: T[]): T => values[Math.floor(Math.random() * values.length)] as T;

/** The Subscribers screen's query: every filter, empty ones as empty strings, first page of 50. */
function subscriberSearch(filters: Record<string, string>) {
  const params = new URLSearchParams({
    firstname: '',
    name: '',
    assoc: '',
    tag: '',
    town: '',
    postcode: '',
    country: '',
    category: '',
    addedafter: '',
    addedbefore: '',
    pmeth: '',
    copies: '',
    status: '',
    ...filters,
    listfrom: '1',
    listlength: '50',
  });
  return `/api/subscribers/?${params}`;
}

/** The Donations screen's query (part 2 §5). */
function donationSearch(filters: Record<string, string>) {
  const params = new URLSearchParams({
    id: '',
    name: '',
    zip: '',
    addedafter: '',
    addedbefore: '',
    amountMin: '',
    amountMax: '',
    isdebit: '0',
    country: '0',
    category: '0',
    listfrom: '1',
    listlength: '50',
    ...filters,
  });
  return `/api/donations?${params}`;
}

/** The Sales screen's query (part 2 §5, §7). */
function salesSearch(filters: Record<string, string>) {
  const params = new URLSearchParams({
    id: '-1',
    salesref: '',
    name: '',
    zip: '',
    addedafter: '',
    addedbefore: '',
    greaterThan: '',
    lessThan: '',
    listfrom: '1',
    listlength: '50',
    productid: '',
    ...filters,
  });
  return `/api/sales?${params}`;
}

/** The first day of the month after `month` (`YYYY-MM-01`). */
function nextMonth(month: string): string {
  const date = new Date(`${month}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * One cycle of a staff member's work, 20 requests sent one after the other on a connection with
 * `token`, each timed (client side) into `tally`:
 * - the dashboard (its two widgets);
 * - a look-up: the first 3 letters of a last name, the record, its history, its donations, its sales;
 * - an edit: search by the full last name, the record, its save (the version read, one box changed);
 * - broad searches: a town, a postcode's first 3 characters, a tag, a category (on the mailing list),
 *   a country with the first 3 letters of a name; donations by the first 3 letters of a name and of
 *   one month over 50; the newest sales, sales by the first 3 letters of a name, sales of one
 *   product since last year.
 * Names, towns, postcodes and countries are those of random subscribers (so frequent values come up
 * as often as they are), tags as often as subscribers carry them.
 */
function staffCycle(
  pools: WorkloadPools,
  token: string,
  tally: Tally,
  nextSaved: () => KnownSubscriber,
): autocannon.Request[] {
  const headers = { authorization: `Bearer ${token}` };
  const step = (
    kind: RequestKind,
    build: (context: CycleContext) => Partial<autocannon.Request>,
    onBody?: (body: string, context: CycleContext) => void,
  ): autocannon.Request => ({
    method: 'GET',
    setupRequest: (request, raw) => {
      const context = raw as CycleContext;
      const built = build(context);
      context.sentAt = performance.now();
      return {
        ...request,
        ...built,
        method: built.method ?? 'GET',
        headers: { ...headers, ...built.headers },
      };
    },
    onResponse: (status, body, raw) => {
      const context = raw as CycleContext;
      let entry = tally.get(kind);
      if (!entry) {
        entry = { latencies: [], failures: {} };
        tally.set(kind, entry);
      }
      if (context.sentAt !== undefined) entry.latencies.push(performance.now() - context.sentAt);
      if (status < 200 || status >= 300) entry.failures[status] = (entry.failures[status] ?? 0) + 1;
      else onBody?.(body, context);
    },
  });
  const lookedUp = (context: CycleContext) => {
    context.lookedUp ??= pick(pools.lookedUp);
    return context.lookedUp;
  };
  const saved = (context: CycleContext) => {
    context.saved ??= nextSaved();
    return context.saved;
  };
  const lastYear = `${new Date().getUTCFullYear() - 1}-01-01`;
  return [
    step('dashboard', () => ({ path: '/api/dash/subs' })),
    step('dashboard', () => ({ path: '/api/dash/prods' })),
    step('subscriber search', (context) => ({
      path: subscriberSearch({ name: lookedUp(context).lastName.slice(0, 3) }),
    })),
    step('subscriber record', (context) => ({ path: `/api/subscribers/${lookedUp(context).id}` })),
    step('subscriber history', (context) => ({ path: `/api/subscribers/${lookedUp(context).id}/history` })),
    step('donation search', (context) => ({ path: donationSearch({ id: String(lookedUp(context).id) }) })),
    step('sales search', (context) => ({ path: salesSearch({ id: String(lookedUp(context).id) }) })),
    step('subscriber search', (context) => ({ path: subscriberSearch({ name: saved(context).lastName }) })),
    step(
      'subscriber record',
      (context) => ({ path: `/api/subscribers/${saved(context).id}` }),
      (body, context) => {
        context.record = JSON.parse(body) as Record<string, unknown>;
      },
    ),
    step('subscriber save', (context) => {
      const record = context.record ?? {};
      // The form sends every field with the version it read; one box is ticked or unticked.
      const { addedBy: _addedBy, addedOn: _addedOn, ...fields } = record;
      return {
        method: 'PATCH',
        path: `/api/subscribers/${saved(context).id}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...fields, onMailChimpList: !record.onMailChimpList, hidden: false }),
      };
    }),
    step('subscriber search', () => ({ path: subscriberSearch({ town: pick(pools.lookedUp).town }) })),
    step('subscriber search', () => ({
      path: subscriberSearch({ postcode: pick(pools.lookedUp).postcode.slice(0, 3) }),
    })),
    step('subscriber search', () => ({ path: subscriberSearch({ tag: String(pick(pools.tagIds)) }) })),
    step('subscriber search', () => ({
      path: subscriberSearch({ category: String(pick(pools.categoryIds)), status: '1' }),
    })),
    step('subscriber search', () => {
      const someone = pick(pools.lookedUp);
      return {
        path: subscriberSearch({ country: String(someone.countryId), name: someone.lastName.slice(0, 3) }),
      };
    }),
    step('donation search', () => ({
      path: donationSearch({ name: pick(pools.lookedUp).lastName.slice(0, 3) }),
    })),
    step('donation search', () => {
      const month = pick(pools.months);
      return { path: donationSearch({ addedafter: month, addedbefore: nextMonth(month), amountMin: '50' }) };
    }),
    step('sales search', () => ({ path: salesSearch({}) })),
    step('sales search', () => ({ path: salesSearch({ name: pick(pools.lookedUp).lastName.slice(0, 3) }) })),
    step('sales search', () => ({
      path: salesSearch({ productid: String(pick(pools.productIds)), addedafter: lastYear }),
    })),
  ];
}

/** Runs autocannon to its end. */
function fire(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error: unknown, result) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
  });
}

/** The figures of one autocannon run. */
type LoadFigure = {
  requests: number;
  requestsPerSecond: number;
  latency: { median: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  serverCpuSeconds: number | null;
  loadAverage: number[];
};

/** The figures of `result`; latencies in ms rounded to 0.1, CPU seconds of the server beside them. */
function loadFigure(result: autocannon.Result, serverCpuSeconds: number | null): LoadFigure {
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    latency: {
      median: round(result.latency.p50),
      p90: round(result.latency.p90),
      p99: round(result.latency.p99),
      max: round(result.latency.max),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuSeconds: serverCpuSeconds === null ? null : round(serverCpuSeconds),
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

/** The empty-route ceiling: autocannon with the same settings against `GET /empty`. */
async function measureCeiling(): Promise<LoadFigure> {
  const server = await startChildServer(['--input-type=module', '--eval', EMPTY_SERVER_SCRIPT], {
    cwd: repositoryRoot,
    env: { NODE_ENV: 'production' },
    readyPath: '/empty',
  });
  try {
    const cpuBefore = await server.cpuSeconds();
    const result = await fire({
      url: `${server.url}/empty`,
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
    });
    const cpuAfter = await server.cpuSeconds();
    return loadFigure(result, cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore);
  } finally {
    await server.stop();
  }
}

/** Signs in `count` times on `url` as the bench account; the id tokens. */
async function signInStaff(url: string, password: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let session = 0; session < count; session += 1) {
    const answer = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: BENCH_EMAIL, password }),
    });
    if (!answer.ok)
      throw new Error(`sign-in on the load server failed: ${answer.status} ${await answer.text()}`);
    tokens.push(((await answer.json()) as { id_token: string }).id_token);
  }
  return tokens;
}

/** The mixed staff workload against one server process on the benchmark database. */
async function measureWorkload(context: BenchContext, pools: WorkloadPools) {
  const server = await startChildServer(['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: context.url,
      DATA_DIR: path.join(os.tmpdir(), 'back-office-bench-load'),
      PUBLIC_URL: 'http://bench.invalid',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
    },
    readyPath: '/readyz',
  });
  try {
    const tokens = await signInStaff(server.url, context.password, STAFF_SESSIONS);
    // One autocannon run with the same settings; the CPU the server process and PostgreSQL used.
    const run = async (requestsFor: (token: string) => autocannon.Request[]) => {
      let connection = 0;
      const postgresBefore = await postgresBackendCpu(context.db);
      const cpuBefore = await server.cpuSeconds();
      const result = await fire({
        url: server.url,
        connections: CONNECTIONS,
        duration: DURATION_SECONDS,
        setupClient: (client) => {
          client.setRequests(requestsFor(tokens[connection++ % tokens.length] as string));
        },
      });
      const cpuAfter = await server.cpuSeconds();
      const postgresSeconds = postgresCpuBetween(postgresBefore, await postgresBackendCpu(context.db));
      const figure = loadFigure(
        result,
        cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      );
      const cpuMsPerRequest =
        figure.serverCpuSeconds === null || postgresSeconds === null
          ? null
          : Math.round(
              ((figure.serverCpuSeconds + postgresSeconds) * 10_000) / Math.max(1, figure.requests),
            ) / 10;
      return {
        ...figure,
        postgresCpuSeconds: postgresSeconds === null ? null : Math.round(postgresSeconds * 10) / 10,
        cpuMsPerRequest,
      };
    };

    // The app's own ceiling: the cheapest signed-in read (one record by id) and nothing else.
    const recordTally: Tally = new Map();
    const recordsOnly = await run((token) =>
      staffCycle(pools, token, recordTally, () => pick(pools.saved)).filter((_, index) => index === 3),
    );

    const tally: Tally = new Map();
    let saves = 0;
    const nextSaved = () => pools.saved[saves++ % pools.saved.length] as KnownSubscriber;
    const workload = await run((token) => staffCycle(pools, token, tally, nextSaved));
    const byKind: Record<
      string,
      { requests: number; latency: Stats; p99: number; failures: Record<string, number> }
    > = {};
    for (const [kind, entry] of tally) {
      const sorted = [...entry.latencies].sort((a, b) => a - b);
      byKind[kind] = {
        requests: entry.latencies.length,
        latency: stats(entry.latencies),
        p99: Math.round((sorted[Math.ceil(0.99 * sorted.length) - 1] ?? 0) * 10) / 10,
        failures: entry.failures,
      };
    }
    for (const token of tokens) {
      await fetch(`${server.url}/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
    }
    return { recordsOnly, workload: { ...workload, saves, byKind } };
  } finally {
    await server.stop();
  }
}

/** Subscribers opened for the record-opening figure, each once after the warm-up. */
const OPENED_SUBSCRIBERS = 30;

/**
 * Opening a subscriber as staff do, one after the other on an idle server (the in-process app): the
 * record, its history, its donations and its sales, asked for at once; the time until all four have
 * answered. Subscribers with both donations and sales, spread over the register.
 */
async function measureSubscriberOpen(context: BenchContext) {
  const ids = await queryRows<{ id: number }>(
    context.db,
    sql`select s.id from subscribers s
         where not s.hidden
           and exists (select 1 from donations d where d.subscriber_id = s.id)
           and exists (select 1 from sales x where x.subscriber_id = s.id)
         order by md5(s.id::text) limit ${OPENED_SUBSCRIBERS + 3}`,
  );
  if (ids.length === 0) throw new Error('no subscriber has both donations and sales');
  const times: number[] = [];
  for (const [index, { id }] of ids.entries()) {
    const started = performance.now();
    const answers = await Promise.all(
      [
        `/api/subscribers/${id}`,
        `/api/subscribers/${id}/history`,
        `/api/donations?id=${id}`,
        `/api/sales?id=${id}`,
      ].map((path) => fetch(`${context.base}${path}`, { headers: context.headers })),
    );
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    const failed = answers.find((answer) => !answer.ok);
    if (failed) throw new Error(`opening subscriber ${id}: ${failed.url} answered ${failed.status}`);
    if (index >= 3) times.push(performance.now() - started);
  }
  return { opened: times.length, ...stats(times) };
}

/** Seeds (or reuses) the large dataset, measures the empty-route ceiling, then the staff workload. */
async function runLoadBench(context: BenchContext): Promise<SuiteResult> {
  await seedInChildProcess(context, { subscribers: SUBSCRIBERS, donations: DONATIONS, sales: SALES });
  await vacuumAnalyze(context, [
    'subscribers',
    'subscriber_tags',
    'subscriber_last_names',
    'donations',
    'sales',
    'sale_lines',
  ]);
  const pools = await readPools(context);
  const opening = await measureSubscriberOpen(context);
  const ceiling = await measureCeiling();
  const { recordsOnly, workload } = await measureWorkload(context, pools);

  // autocannon counts timeouts among its connection errors.
  const errors = workload.non2xx + workload.errors;
  const share = workload.requestsPerSecond / Math.max(1, ceiling.requestsPerSecond);
  const percent = (value: number) => `${Math.round(value * 1000) / 10} %`;
  const failures = Object.entries(workload.byKind)
    .filter(([, entry]) => Object.keys(entry.failures).length > 0)
    .map(([kind, entry]) => `${kind} ${JSON.stringify(entry.failures)}`);
  const slowest = Object.entries(workload.byKind)
    .sort(([, a], [, b]) => b.p99 - a.p99)
    .slice(0, 3)
    .map(([kind, entry]) => `${kind} ${entry.p99}`)
    .join(', ');
  const setting = `${CONNECTIONS} connections, ${DURATION_SECONDS} s`;
  const rows: BenchRow[] = [
    {
      figure: `Opening a subscriber: record, history, donations and sales at once (${opening.opened} subscribers): p95`,
      goal: `< ${GOALS.openSubscriberP95Ms} ms`,
      measured: `${opening.p95} ms (median ${opening.median}, max ${opening.max})`,
      passed: opening.p95 < GOALS.openSubscriberP95Ms,
      value: opening.p95,
      unit: 'ms',
    },
    {
      figure: `Mixed staff workload on one server (${setting}): errors`,
      goal: `${GOALS.errors}`,
      measured: `${errors} (non-2xx ${workload.non2xx}, connection errors ${workload.errors} of which timeouts ${workload.timeouts}${failures.length > 0 ? `; ${failures.join(', ')}` : ''}) of ${workload.requests} requests`,
      passed: errors === GOALS.errors,
      value: errors,
      unit: 'errors',
    },
    {
      figure: `Mixed staff workload on one server (${setting}): latency p99`,
      goal: `< ${GOALS.p99Ms} ms`,
      measured: `${workload.latency.p99} ms (median ${workload.latency.median}, p90 ${workload.latency.p90}, max ${workload.latency.max}; slowest p99: ${slowest})`,
      passed: workload.latency.p99 < GOALS.p99Ms,
      value: workload.latency.p99,
      unit: 'ms',
    },
    {
      figure: `Mixed staff workload on one server (${setting}): requests per second`,
      goal: `>= ${percent(GOALS.ceilingShare)} of the empty route`,
      measured: `${workload.requestsPerSecond} /s = ${percent(share)} of the empty Fastify route's ${ceiling.requestsPerSecond} /s (CPU per request ${workload.cpuMsPerRequest ?? '?'} ms: server ${workload.serverCpuSeconds} s + PostgreSQL ${workload.postgresCpuSeconds ?? '?'} s; one signed-in record read alone: ${recordsOnly.requestsPerSecond} /s, ${recordsOnly.cpuMsPerRequest ?? '?'} ms CPU per request)`,
      passed: share >= GOALS.ceilingShare,
      value: workload.requestsPerSecond,
      unit: '/s',
      baseline: { value: ceiling.requestsPerSecond, label: 'empty route' },
    },
  ];
  return {
    rows,
    details: {
      connections: CONNECTIONS,
      durationSeconds: DURATION_SECONDS,
      staffSessions: STAFF_SESSIONS,
      goals: GOALS,
      ceiling,
      recordsOnly,
      opening,
      workload,
      ceilingShare: Math.round(share * 1000) / 1000,
    },
  };
}

/** The load suite (mixed-load goal). */
export const loadSuite: Suite = { name: 'load', run: runLoadBench };
