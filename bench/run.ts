/**
 * Benchmarks: `npm run bench -- <suite>` runs one suite, `npm run bench` all of them (the speed goals of
 * searches, documents, exports, load, start-up and the client). Suites run against PostgreSQL at
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench, created when missing) and seed it
 * as they need; one table of figures against their goals is printed, with the load average of the (shared)
 * machine, and each suite's results replace its entry in bench/results/latest.json. Exit code 1 when a
 * goal is missed.
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
    row.passed ? 'pass' : 'FAIL',
  ]);
  const header = ['suite', 'figure', 'goal', 'measured', 'pass'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, index) => value.padEnd(widths[index] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
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
  // The app serves the web client only when it is built before the app starts.
  if (chosen.includes(clientSuite)) ensureWebClientBuilt();
  const context = await openBenchContext();
  try {
    const records: Record<string, SuiteRecord> = {};
    const rows: Array<BenchRow & { suite: string }> = [];
    for (const suite of chosen) {
      process.stdout.write(`\n== ${suite.name} (load average ${loadAverage().join(' ')}) ==\n`);
      const before = loadAverage();
      const started = performance.now();
      const result = await suite.run(context);
      const after = loadAverage();
      records[suite.name] = {
        at: new Date().toISOString(),
        loadAverage: { before, after },
        seconds: Math.round((performance.now() - started) / 100) / 10,
        passed: result.rows.every((row) => row.passed),
        rows: result.rows,
        ...result.details,
      };
      rows.push(...result.rows.map((row) => ({ ...row, suite: suite.name })));
      process.stdout.write(
        `${suite.name}: done in ${records[suite.name]?.seconds} s, load average ${after.join(' ')}\n`,
      );
    }

    const [version] = await queryRows<{ version: string }>(context.db, sql`select version()`);
    const cpus = os.cpus();
    process.stdout.write(
      [
        '',
        `Benchmark: ${RUNS} runs per figure after ${WARM_UP} warm-up runs; PostgreSQL at ${new URL(context.url).host}${new URL(context.url).pathname}; ${cpus.length} CPUs; load average (1, 5, 15 min) at the end ${loadAverage().join(' ')}`,
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
      postgres: version?.version,
      suites: { ...previous.suites, ...records },
    };
    await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
    await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`Results written to ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
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
