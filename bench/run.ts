/**
 * Benchmarks: `npm run bench -- [<suite>] [--scale 200k|1m]` runs one suite or all of them (the speed
 * goals of searches, documents, exports, load, start-up and the client) on data of that scale (200k by
 * default: 200,000 subscribers, 1,000,000 donations, 300,000 sales; 1m: 1,000,000, 5,000,000 and
 * 1,000,000). Suites run against PostgreSQL at BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/bench, or bench_1m, created when missing) and seed it as they need;
 * one table of figures against their goals is printed, with the load average of the (shared) machine.
 * Written under bench/results/: latest.json and <scale>.json (one row per figure: suite, name, value,
 * unit, goal, pass, baseline; this run's suites replace their entries), <scale>.md (the report) and
 * scales.svg (the figures of both scales side by side). A suite that cannot run here (no Chromium, no
 * PostgreSQL) is reported as skipped with the reason, and one that fails as failed with its error; the
 * others still run and the results are written. Exit code 1 when a goal is missed or a suite failed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { clientSuite, ensureWebClientBuilt } from './client.bench.ts';
import { collectionsSuite } from './collections.bench.ts';
import { donationsSuite } from './donations.bench.ts';
import {
  type BenchRow,
  loadAverage,
  openBenchContext,
  RUNS,
  SEARCH_RUNS,
  type Suite,
  WARM_UP,
} from './harness.ts';
import { importSuite } from './import.bench.ts';
import { loadSuite } from './load.bench.ts';
import { comparisonSvg, type FigureRow, figureRows, markdownReport } from './report.ts';
import { salesSuite } from './sales.bench.ts';
import { parseBenchArguments, SCALE_NAME, SCALES, type ScaleName } from './scale.ts';
import { startupSuite } from './startup.bench.ts';
import { statementsSuite } from './statements.bench.ts';
import { subscribersSuite } from './subscribers.bench.ts';

const SUITES: Suite[] = [
  subscribersSuite,
  donationsSuite,
  salesSuite,
  collectionsSuite,
  statementsSuite,
  importSuite,
  loadSuite,
  startupSuite,
  clientSuite,
];
const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
const RESULTS_FILE = path.join(RESULTS_DIR, 'latest.json');
const scaleFile = (scale: ScaleName, extension: 'json' | 'md') =>
  path.join(RESULTS_DIR, `${scale}.${extension}`);

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

/**
 * The results file: the scale, machine and PostgreSQL of the last run, one row per figure, and the latest
 * result of each suite.
 */
type ResultsFile = {
  at: string;
  scale: ScaleName;
  machine: Record<string, unknown>;
  postgres: string | undefined;
  rows: FigureRow[];
  suites: Record<string, SuiteRecord>;
};

/** A results file as it is, its old one-suite form read as a `suites` entry; empty when missing. */
async function readResults(file: string): Promise<Partial<ResultsFile>> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
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
  return {
    figure: '(whole suite)',
    goal: '-',
    measured: `skipped: ${reason}`,
    passed: true,
    skipped: true,
    value: null,
    unit: '',
  };
}

/** The rows of every suite of a results file, in suite order, each with its suite. */
function rowsOfSuites(suites: Record<string, SuiteRecord>): Array<BenchRow & { suite: string }> {
  return SUITES.flatMap((suite) => {
    const record = suites[suite.name];
    if (!record) return [];
    if (record.skipped) return [{ suite: suite.name, ...skippedRow(record.skipped) }];
    if (record.error)
      return [
        {
          suite: suite.name,
          figure: '(whole suite)',
          goal: 'runs',
          measured: `failed: ${record.error.split('\n')[0]}`,
          passed: false,
          value: null,
          unit: '',
        },
      ];
    // Rows of an older results file may lack value and unit.
    return record.rows.map((row) => ({
      ...row,
      value: row.value ?? null,
      unit: row.unit ?? '',
      suite: suite.name,
    }));
  });
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
      `Benchmark: ${RUNS} runs per figure (${SEARCH_RUNS} per search) after ${WARM_UP} warm-up runs; ${where}; ${cpus.length} CPUs; load average (1, 5, 15 min) at the end ${loadAverage().join(' ')}`,
      '',
      formatTable(rows),
      '',
    ].join('\n'),
  );

  // This run's suites replace their entries in the file of this scale; the others are kept.
  const previous = await readResults(scaleFile(SCALE_NAME, 'json'));
  const suites = { ...previous.suites, ...records };
  const allRows = rowsOfSuites(suites);
  const results: ResultsFile = {
    at: new Date().toISOString(),
    scale: SCALE_NAME,
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    postgres,
    rows: figureRows(allRows),
    suites,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  await writeFile(RESULTS_FILE, json);
  await writeFile(scaleFile(SCALE_NAME, 'json'), json);
  await writeFile(scaleFile(SCALE_NAME, 'md'), markdownReport({ ...results, details: allRows }));
  const measured: Array<{ scale: ScaleName; rows: FigureRow[] }> = [];
  for (const scale of Object.keys(SCALES) as ScaleName[]) {
    const file = await readResults(scaleFile(scale, 'json'));
    if (file.rows) measured.push({ scale, rows: file.rows });
  }
  await writeFile(path.join(RESULTS_DIR, 'scales.svg'), comparisonSvg(measured));
  const written = ['latest.json', `${SCALE_NAME}.json`, `${SCALE_NAME}.md`, 'scales.svg'];
  process.stdout.write(
    `Results written to ${path.relative(process.cwd(), RESULTS_DIR)}/: ${written.join(', ')}\n`,
  );
}

async function main(): Promise<boolean> {
  const name = parseBenchArguments().suite;
  const chosen = name ? SUITES.filter((suite) => suite.name === name) : SUITES;
  if (chosen.length === 0) {
    process.stderr.write(
      `Usage: npm run bench [-- <suite>] [--scale ${Object.keys(SCALES).join('|')}]   where <suite> is one of: ${SUITES.map((suite) => suite.name).join(', ')} (all when left out)\n`,
    );
    process.exit(2);
  }
  process.stdout.write(`Scale ${SCALE_NAME}: ${JSON.stringify(SCALES[SCALE_NAME])}\n`);
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
    await report(rowsOfSuites(records), records, 'no PostgreSQL', undefined);
    return false;
  }
  try {
    const records: Record<string, SuiteRecord> = {};
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
        process.stdout.write(`${suite.name}: skipped, ${reason}\n`);
        continue;
      }
      try {
        const result = await suite.run(context);
        record({ passed: result.rows.every((row) => row.passed), rows: result.rows, ...result.details });
      } catch (error) {
        // One suite's failure is reported; the next suites still run.
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        record({ passed: false, rows: [], error: message });
        process.stderr.write(`${suite.name} failed: ${message}\n`);
      }
      process.stdout.write(
        `${suite.name}: done in ${records[suite.name]?.seconds} s, load average ${loadAverage().join(' ')}\n`,
      );
    }

    const [version] = await queryRows<{ version: string }>(context.db, sql`select version()`);
    const where = new URL(context.url);
    // The lines of this run's suites, as the results file has them.
    const rows = rowsOfSuites(records);
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
