/**
 * `npm run bench -- subscribers` (issue 4 "Speed"): with 200,000 generated subscribers on PostgreSQL,
 * the search by last-name prefix, by town and by tag answers in under 50 ms at the median (server time),
 * and the XLSX export of all of them finishes in under 30 s with the server's memory growing by less
 * than 150 MB. The real app (buildApp) listens on a loopback port in this process.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase, queryRows } from '../apps/server/src/db/client.ts';
import { prepareDatabase } from '../apps/server/src/db/seed.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { createSubscribersRepository } from '../apps/server/src/modules/subscribers/subscribers.repository.ts';
import { createUsersRepository } from '../apps/server/src/modules/users/users.repository.ts';

const SUBSCRIBERS = 200_000;
const RUNS = 30;
const WARM_UP = 3;
const GOALS = { searchMedianMs: 50, exportSeconds: 30, exportMemoryMb: 150 } as const;
const BENCH_EMAIL = 'bench@example.org';
const RESULTS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');

type Stats = { median: number; p95: number; min: number; max: number };

/** Median, 95th percentile, min and max of `values` (milliseconds), rounded to 0.1. */
function stats(values: number[]): Stats {
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

/** Runs `seed-demo.ts` against `url` until it holds {@link SUBSCRIBERS}; returns how many there were and were added. */
async function seedInChildProcess(url: string) {
  const script = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    'apps',
    'server',
    'scripts',
    'seed-demo.ts',
  );
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--subscribers', String(SUBSCRIBERS)], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
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
  const existing = Number(/(\d+) subscribers exist/.exec(output)?.[1] ?? 0);
  const added = Number(/Done: (\d+) subscribers added/.exec(output)?.[1] ?? 0);
  return { existing, added };
}

/** Downloads `url` with curl, throwing the bytes away; returns how many there were. */
async function downloadWithCurl(url: string, token: string): Promise<number> {
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      'curl',
      [
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
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`the export download failed (curl exit code ${code})`);
  return Number(output);
}

/** A staff account with a known password for the benchmark's requests. */
async function ensureBenchUser(db: Database, password: string) {
  const users = createUsersRepository();
  const passwordHash = await hashPassword(password);
  const existing = await users.findUserByEmail(db, { email: BENCH_EMAIL });
  if (existing) await users.setPasswordHash(db, { id: existing.id, passwordHash });
  else await users.insertUser(db, { fullName: 'Benchmark', email: BENCH_EMAIL, role: 'User', passwordHash });
}

/** The SQL statements (text and parameters) the search repository runs for `query`. */
async function capturedSearchSql(pool: pg.Pool, query: Record<string, string>) {
  const statements: Array<{ text: string; values: unknown[] }> = [];
  const db = drizzle(pool, {
    casing: 'snake_case',
    logger: { logQuery: (text, values) => statements.push({ text, values }) },
  }) as unknown as Database;
  const { subscriberSearchQuerySchema } = await import('@back-office/contract/subscribers');
  await createSubscribersRepository().search(db, subscriberSearchQuerySchema.parse(query));
  return statements;
}

async function timeIt(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

type SearchFigure = {
  label: string;
  query: string;
  matches: number;
  server: Stats;
  roundTrip: Stats;
  rawSql: Stats;
};

export async function runSubscribersBench(): Promise<boolean> {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';
  await ensureDatabase(url);
  const password = randomBytes(12).toString('base64url');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    DATA_DIR: path.join(os.tmpdir(), 'back-office-bench'),
    PUBLIC_URL: 'http://bench.invalid',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
  });
  const database = await openDatabase({ databaseUrl: url });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const app = await buildApp({ config, database });
  try {
    // Seeding runs in a child process, so that the memory it used does not hide this process's growth.
    const seeded = await seedInChildProcess(url);
    await prepareDatabase(database, config);
    // Fresh rows are not marked all-visible until autovacuum passes; a live database has had that pass.
    await database.db.execute(sql`vacuum (analyze) subscribers, subscriber_tags`);
    await ensureBenchUser(database.db, password);

    // Server time: from the request's arrival to its answer being ready, sent back in a Server-Timing header.
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
    const headers = { authorization: `Bearer ${token}` };

    // The hardest common case of each filter: the most frequent 3-letter name prefix, town and tag.
    const [prefix] = await queryRows<{ value: string }>(
      database.db,
      sql`select left(search_last_name, 3) as value from subscribers where not hidden group by 1 order by count(*) desc limit 1`,
    );
    const [town] = await queryRows<{ value: string }>(
      database.db,
      sql`select search_town as value from subscribers where not hidden group by 1 order by count(*) desc limit 1`,
    );
    const [tag] = await queryRows<{ value: number; name: string }>(
      database.db,
      sql`select t.id as value, t.name from subscriber_tags st join tags t on t.id = st.tag_id group by t.id, t.name order by count(*) desc limit 1`,
    );
    if (!prefix || !town || !tag) throw new Error('the benchmark database has no subscribers to search');

    const searches: SearchFigure[] = [];
    for (const [label, query] of [
      [`last-name prefix "${prefix.value}"`, { name: prefix.value }],
      [`town "${town.value}"`, { town: town.value }],
      [`tag "${tag.name}"`, { tag: String(tag.value) }],
    ] as const) {
      const search = `${base}/api/subscribers/?${new URLSearchParams(query)}`;
      const server: number[] = [];
      const roundTrip: number[] = [];
      let matches = 0;
      for (let run = 0; run < WARM_UP + RUNS; run += 1) {
        const started = performance.now();
        const response = await fetch(search, { headers });
        const body = (await response.json()) as { count: number };
        const elapsed = performance.now() - started;
        if (!response.ok) throw new Error(`search failed: ${response.status}`);
        matches = body.count;
        if (run < WARM_UP) continue;
        roundTrip.push(elapsed);
        server.push(
          Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN),
        );
      }
      const statements = await capturedSearchSql(pool, query);
      const rawSql: number[] = [];
      const client = await pool.connect();
      try {
        for (let run = 0; run < WARM_UP + RUNS; run += 1) {
          const elapsed = await timeIt(async () => {
            for (const statement of statements) await client.query(statement.text, statement.values);
          });
          if (run >= WARM_UP) rawSql.push(elapsed);
        }
      } finally {
        client.release();
      }
      searches.push({
        label,
        query: new URLSearchParams(query).toString(),
        matches,
        server: stats(server),
        roundTrip: stats(roundTrip),
        rawSql: stats(rawSql),
      });
    }

    // The export of every subscriber, read and thrown away as it arrives, memory sampled meanwhile.
    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 25);
    // Downloaded by curl in another process, so that only the server's memory is measured here.
    const started = performance.now();
    const bytes = await downloadWithCurl(`${base}/api/subscribers/export`, token);
    const exportSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const [counted] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from subscribers where not hidden`,
    );
    const mb = (value: number) => Math.round((value / 1024 / 1024) * 10) / 10;
    const exportFigure = {
      rows: counted?.n ?? 0,
      seconds: Math.round(exportSeconds * 100) / 100,
      megabytes: mb(bytes),
      rssGrowthMb: mb(peakRss - before.rss),
      heapGrowthMb: mb(peakHeap - before.heapUsed),
      rssBeforeMb: mb(before.rss),
    };

    const rows: Array<[string, string, string, boolean]> = [
      ...searches.map((figure): [string, string, string, boolean] => [
        `Search by ${figure.label} (${figure.matches} matches): server median`,
        `< ${GOALS.searchMedianMs} ms`,
        `${figure.server.median} ms (p95 ${figure.server.p95}; HTTP round trip ${figure.roundTrip.median} / p95 ${figure.roundTrip.p95}; raw SQL ${figure.rawSql.median} / p95 ${figure.rawSql.p95})`,
        figure.server.median < GOALS.searchMedianMs,
      ]),
      [
        `XLSX export of all ${exportFigure.rows} subscribers`,
        `< ${GOALS.exportSeconds} s`,
        `${exportFigure.seconds} s (${exportFigure.megabytes} MB)`,
        exportFigure.seconds < GOALS.exportSeconds,
      ],
      [
        'Server memory growth during the export (RSS)',
        `< ${GOALS.exportMemoryMb} MB`,
        `${exportFigure.rssGrowthMb} MB (heap ${exportFigure.heapGrowthMb} MB)`,
        exportFigure.rssGrowthMb < GOALS.exportMemoryMb,
      ],
    ];
    const widths = [0, 1, 2].map((column) =>
      Math.max(
        ...rows.map((row) => String(row[column]).length),
        ['figure', 'goal', 'measured'][column]?.length ?? 0,
      ),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 4)).join(' | ')} |`;
    const output = [
      '',
      `Subscribers benchmark: ${RUNS} runs per search after ${WARM_UP} warm-up runs; PostgreSQL at ${new URL(url).host}${new URL(url).pathname}`,
      '',
      line(['figure', 'goal', 'measured', 'pass']),
      line(
        widths
          .map((width) => '-'.repeat(width))
          .concat('----')
          .slice(0, 4),
      ),
      ...rows.map(([figure, goal, measured, passed]) =>
        line([figure, goal, measured, passed ? 'pass' : 'FAIL']),
      ),
      '',
    ];
    process.stdout.write(`${output.join('\n')}\n`);

    const [version] = await queryRows<{ version: string }>(database.db, sql`select version()`);
    await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
    await writeFile(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          suite: 'subscribers',
          at: new Date().toISOString(),
          machine: {
            cpus: os.cpus().length,
            cpuModel: os.cpus()[0]?.model,
            memoryGb: Math.round(os.totalmem() / 2 ** 30),
            node: process.version,
          },
          postgres: version?.version,
          subscribers: { target: SUBSCRIBERS, existedBefore: seeded.existing, added: seeded.added },
          runs: RUNS,
          goals: GOALS,
          searches,
          export: exportFigure,
          passed: rows.every((row) => row[3]),
        },
        null,
        2,
      )}\n`,
    );
    process.stdout.write(`Results written to ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
    return rows.every((row) => row[3]);
  } finally {
    await app.close();
    await pool.end();
    await database.close();
  }
}
