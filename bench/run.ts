/**
 * Benchmarks: `npm run bench -- <suite>` runs one suite, `npm run bench` all of them (the speed goals of
 * searches, documents, exports, load, start-up and the client). Suites run against PostgreSQL at
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench, created when missing) and seed it
 * as they need; one table of figures against their goals is printed, with the load average of the (shared)
 * machine, and each suite's results replace its entry in bench/results/latest.json. A suite that cannot
 * run here (no Chromium) is reported as skipped with the reason, and one that fails as failed with its
 * error; the others still run and the results are written. Exit code 1 when a goal is missed or a suite
 * failed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { clientSuite, ensureWebClientBuilt } from './client.bench.ts';
import { donationsSuite } from './donations.bench.ts';
import { type BenchRow, loadAverage, openBenchContext, RUNS, type Suite, WARM_UP } from './harness.ts';
import { loadSuite } from './load.bench.ts';
import { salesSuite } from './sales.bench.ts';
import { startupSuite } from './startup.bench.ts';
import { subscribersSuite } from './subscribers.bench.ts';

const SUITES: Suite[] = [subscribersSuite, donationsSuite, salesSuite, loadSuite, startupSuite, clientSuite];
const RESULTS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');

/** One suite's entry in the results file. */
type SuiteRecord = {
  at: string;
  loadAverage: { before: number[]; after: number[] };
  seconds: number;
  passed: boolean;
  rows: BenchRow[];
  /** Why the suite did not run on this machine. */
  skipped?: string;
  /** The error that stopped the suite. */
  error?: string;
} & Record<string, unknown>;

/** The results file: the machine and PostgreSQL of the last run, and the latest result of each suite. */
type ResultsFile = {
  at: string;
  machine: Record<string, unknown>;
  postgres: string | undefined;
  suites: Record<string, SuiteRecord>;
};

/** The results file as it is, its old one-suite form read as a `suites` entry; empty when missing. */
async function readResults(): Promise<Partial<ResultsFile>> {
  try {
    const parsed = JSON.parse(await readFile(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
    if (parsed.suites && typeof parsed.suites === 'object') return parsed as Partial<ResultsFile>;
    if (typeof parsed.suite === 'string') {
      const { suite, ...rest } = parsed;
      return { suites: { [suite]: rest as SuiteRecord } };
    }
  } catch {
    // missing or unreadable: start afresh
  }
  return {};
}

/** The rows as a Markdown table. */
function formatTable(rows: Array<BenchRow & { suite: string }>) {
  const cells = rows.map((row) => [
    row.suite,
    row.figure,
    row.goal,
    row.measured,
    'skipped' in row ? 'skipped' : row.passed ? 'pass' : 'FAIL',
  ]);
  const header = ['suite', 'figure', 'goal', 'measured', 'pass'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, index) => value.padEnd(widths[index] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}

/** The table line of a suite that did not run on this machine. */
function skippedRow(reason: string): BenchRow & { skipped: true } {
  return { figure: '(whole suite)', goal: '-', measured: reason, passed: true, skipped: true };
}

/**
 * Prints the table of figures and writes bench/results/latest.json: this run's suites replace their
 * entries, the others are kept. `where` names the database measured, `postgres` its `version()`.
 */
async function report(
  rows: Array<BenchRow & { suite: string }>,
  records: Record<string, SuiteRecord>,
  where: string,
  postgres: string | undefined,
): Promise<void> {
  const cpus = os.cpus();
  process.stdout.write(
    [
      '',
      `Benchmark: ${RUNS} runs per figure after ${WARM_UP} warm-up runs; ${where}; ${cpus.length} CPUs; load average (1, 5, 15 min) at the end ${loadAverage().join(' ')}`,
      '',
      formatTable(rows),
      '',
    ].join('\n'),
  );

  const previous = await readResults();
  const results: ResultsFile = {
    at: new Date().toISOString(),
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    postgres,
    suites: { ...previous.suites, ...records },
  };
  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`Results written to ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
}

async function main(): Promise<boolean> {
  const name = process.argv[2];
  const chosen = name ? SUITES.filter((suite) => suite.name === name) : SUITES;
  if (chosen.length === 0) {
    process.stderr.write(
      `Usage: npm run bench [-- <suite>]   where <suite> is one of: ${SUITES.map((suite) => suite.name).join(', ')} (all when left out)\n`,
    );
    process.exit(2);
  }
  const unavailable = new Map(chosen.map((suite) => [suite, suite.unavailable?.() ?? null]));
  // The app serves the web client only when it is built before the app starts.
  if (chosen.includes(clientSuite) && !unavailable.get(clientSuite)) ensureWebClientBuilt();
  let context: Awaited<ReturnType<typeof openBenchContext>>;
  try {
    context = await openBenchContext();
  } catch (error) {
    // Every suite needs the database: each is reported as skipped, and the run fails (nothing measured).
    const reason = `no PostgreSQL: ${error instanceof Error ? error.message : String(error)}`;
    const records: Record<string, SuiteRecord> = {};
    for (const suite of chosen) {
      const at = new Date().toISOString();
      records[suite.name] = {
        at,
        loadAverage: { before: [], after: [] },
        seconds: 0,
        passed: false,
        rows: [],
        skipped: reason,
      };
    }
    const rows = chosen.map((suite) => ({ suite: suite.name, ...skippedRow(reason) }));
    await report(rows, records, 'no PostgreSQL', undefined);
    return false;
  }
  try {
    const records: Record<string, SuiteRecord> = {};
    const rows: Array<BenchRow & { suite: string }> = [];
    for (const suite of chosen) {
      process.stdout.write(`\n== ${suite.name} (load average ${loadAverage().join(' ')}) ==\n`);
      const before = loadAverage();
      const started = performance.now();
      const record = (fields: Pick<SuiteRecord, 'passed' | 'rows'> & Record<string, unknown>) => {
        records[suite.name] = {
          at: new Date().toISOString(),
          loadAverage: { before, after: loadAverage() },
          seconds: Math.round((performance.now() - started) / 100) / 10,
          ...fields,
        };
      };
      const reason = unavailable.get(suite);
      if (reason) {
        record({ passed: true, rows: [], skipped: reason });
        rows.push({
          suite: suite.name,
          figure: '(whole suite)',
          goal: '-',
          measured: `skipped: ${reason}`,
          passed: true,
        });
        process.stdout.write(`${suite.name}: skipped, ${reason}\n`);
        continue;
      }
      try {
        const result = await suite.run(context);
        record({ passed: result.rows.every((row) => row.passed), rows: result.rows, ...result.details });
        rows.push(...result.rows.map((row) => ({ ...row, suite: suite.name })));
      } catch (error) {
        // One suite's failure is reported; the next suites still run.
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        record({ passed: false, rows: [], error: message });
        rows.push({
          suite: suite.name,
          figure: '(whole suite)',
          goal: 'runs',
          measured: `failed: ${message.split('\n')[0]}`,
          passed: false,
        });
        process.stderr.write(`${suite.name} failed: ${message}\n`);
      }
      process.stdout.write(
        `${suite.name}: done in ${records[suite.name]?.seconds} s, load average ${loadAverage().join(' ')}\n`,
      );
    }

    const [version] = await queryRows<{ version: string }>(context.db, sql`select version()`);
    const where = new URL(context.url);
    await report(rows, records, `PostgreSQL at ${where.host}${where.pathname}`, version?.version);
    return rows.every((row) => row.passed);
  } finally {
    await context.close();
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
