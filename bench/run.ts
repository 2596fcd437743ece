/**
 * Benchmarks: `npm run bench -- <suite>` (issue 4 "Speed"). Suites run against PostgreSQL at
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench, created when missing), print a
 * table of figures against their goals, and write bench/results/latest.json. Exit code 1 when a goal
 * is missed.
 */
import { runSubscribersBench } from './subscribers.bench.ts';

const SUITES: Record<string, () => Promise<boolean>> = {
  subscribers: runSubscribersBench,
};

const name = process.argv[2];
const suite = name ? SUITES[name] : undefined;
if (!suite) {
  process.stderr.write(
    `Usage: npm run bench -- <suite>   where <suite> is one of: ${Object.keys(SUITES).join(', ')}\n`,
  );
  process.exit(2);
}
suite().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
