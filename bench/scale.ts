/**
 * The size of the data a benchmark run builds: `npm run bench -- --scale 1m` (or `BENCH_SCALE=1m`),
 * `200k` by default. Read once from the command line when the suites load, so that every suite seeds
 * and measures the same size.
 */
import { parseArgs } from 'node:util';

/** Subscribers, donations and sales of each scale (names, towns, tags and currencies as seed-demo draws them). */
export const SCALES = {
  '200k': { subscribers: 200_000, donations: 1_000_000, sales: 300_000 },
  '1m': { subscribers: 1_000_000, donations: 5_000_000, sales: 1_000_000 },
} as const;

export type ScaleName = keyof typeof SCALES;

const isScaleName = (value: string): value is ScaleName => Object.hasOwn(SCALES, value);

/** The command line of `npm run bench`: the suite named (all when none) and the scale. */
export function parseBenchArguments(argv: string[] = process.argv.slice(2)): {
  suite: string | undefined;
  scale: ScaleName;
} {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { scale: { type: 'string' } },
    allowPositionals: true,
    strict: false,
  });
  const wanted = String(values.scale ?? process.env.BENCH_SCALE ?? '200k').toLowerCase();
  if (!isScaleName(wanted)) {
    throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}, not "${wanted}"`);
  }
  return { suite: positionals[0], scale: wanted };
}

/** The scale of this run. */
export const SCALE_NAME: ScaleName = parseBenchArguments().scale;
export const SCALE = SCALES[SCALE_NAME];
