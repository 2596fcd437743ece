/**
 * `npm run bench -- import` (contract `imports`): a CSV of {@link IMPORT_ROWS} subscribers, as staff bring
 * from another tool (`;`, French headers, a few invalid rows and some people already in the register), is
 * uploaded, dry-run (goal: under 60 s) and committed by the app's own job runner (goal: under 2 minutes),
 * on top of the benchmark's register; then undone, which puts the register back as it was. Then the
 * whole register is scanned for likely duplicates by the `duplicates.scan` job (goal: under 5 minutes
 * at a million subscribers), and the retention report's first page is read with every subscriber
 * unchanged for five years (goal: under 3 s).
 */

import type { DuplicatePairs } from '@back-office/contract/duplicates';
import type { Import, ImportDryRun } from '@back-office/contract/imports';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import {
  type BenchContext,
  type BenchRow,
  runWithoutTimeout,
  SUBSCRIBERS,
  type Suite,
  type SuiteResult,
  seedInChildProcess,
  vacuumAnalyze,
} from './harness.ts';

const IMPORT_ROWS = 100_000;
/** One row in this many is invalid (an email without @), one in this many repeats someone of the register. */
const INVALID_EVERY = 500;
const DUPLICATE_EVERY = 200;
const GOALS = {
  dryRunSeconds: 60,
  commitSeconds: 120,
  duplicateScanSeconds: 300,
  retentionReportSeconds: 3,
} as const;

const FIRST_NAMES = ['Élodie', 'Marc', 'Zoé', 'Jean', 'Inès', 'Luc', 'Chloé', 'Hugo', 'Léa', 'Noé'];
const LAST_NAMES = [
  'Lefèvre',
  'Müller',
  'Dubois',
  'Roux',
  'Garnier',
  'Schmid',
  'Fontaine',
  'Perret',
  'Aubert',
];
const TOWNS = [
  ['Lyon', '69001', 'France'],
  ['Genève', '1204', 'Suisse'],
  ['Lausanne', '1003', 'Suisse'],
  ['Paris', '75011', 'France'],
  ['Annecy', '74000', 'France'],
] as const;

/** The CSV: header row, then rows; `duplicates` are emails of the register that some rows repeat. */
function buildCsv(duplicates: string[]): Buffer {
  const lines = [
    'Civilité;Prénom;Nom;Courriel;Adresse;Code postal;Ville;Pays;Montant;Date de début;Remarques',
  ];
  for (let index = 1; index <= IMPORT_ROWS; index += 1) {
    const [town, postcode, country] = TOWNS[index % TOWNS.length] ?? TOWNS[0];
    const duplicate = index % DUPLICATE_EVERY === 0 ? duplicates[index % duplicates.length] : undefined;
    const email =
      index % INVALID_EVERY === 0 ? `sans-arobase-${index}` : (duplicate ?? `import-${index}@example.org`);
    lines.push(
      [
        index % 2 ? 'Mme' : 'M.',
        FIRST_NAMES[index % FIRST_NAMES.length],
        `${LAST_NAMES[index % LAST_NAMES.length]}-${index}`,
        email,
        `${index % 200} rue des Lilas`,
        postcode,
        town,
        country,
        `${index % 90},50`,
        `${String((index % 28) + 1).padStart(2, '0')}/0${(index % 9) + 1}/2024`,
        index % 10 === 0 ? 'Ancien fichier; à vérifier' : '',
      ]
        .map((cell) => (cell?.includes(';') ? `"${cell}"` : cell))
        .join(';'),
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

async function call<T>(context: BenchContext, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${context.base}${url}`, {
    method,
    headers: { ...context.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function runImportBench(context: BenchContext): Promise<SuiteResult> {
  // The register the file lands in: 200,000 subscribers, or a million with `--scale 1m`.
  await seedInChildProcess(context, { subscribers: SUBSCRIBERS });
  await vacuumAnalyze(context, ['subscribers', 'subscriber_last_names']);
  const duplicates = (
    await queryRows<{ email: string }>(
      context.db,
      sql`select email from subscribers where email <> '' and not hidden order by id limit 1000`,
    )
  ).map((row) => row.email);
  const csv = buildCsv(duplicates);

  const form = new FormData();
  form.append('kind', 'subscribers');
  form.append('file', new Blob([new Uint8Array(csv)]), 'registre.csv');
  let started = performance.now();
  const response = await fetch(`${context.base}/api/imports`, {
    method: 'POST',
    headers: context.headers,
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as Import;
  const uploadMs = performance.now() - started;

  started = performance.now();
  const checked = await call<ImportDryRun>(context, 'POST', `/api/imports/${created.id}/dry-run`);
  const dryRunMs = performance.now() - started;

  started = performance.now();
  await call<Import>(context, 'POST', `/api/imports/${created.id}/commit`, { decisions: [] });
  await context.app.jobs.runDue();
  const committed = await call<Import>(context, 'GET', `/api/imports/${created.id}`);
  const commitMs = performance.now() - started;
  if (committed.status !== 'committed') {
    throw new Error(
      `the import ended ${committed.status}: ${committed.failure} ${JSON.stringify(committed.errors)}`,
    );
  }

  started = performance.now();
  await call<Import>(context, 'POST', `/api/imports/${created.id}/undo`);
  const undoMs = performance.now() - started;

  // The scan for duplicates of the whole register, as the Duplicates screen starts it.
  const [{ n: registered = 0 } = {}] = await queryRows<{ n: number }>(
    context.db,
    sql`select count(*)::int as n from subscribers where not hidden`,
  );
  started = performance.now();
  const scan = await fetch(`${context.base}/api/subscribers/duplicates/scan`, {
    method: 'POST',
    headers: context.headers,
  });
  if (scan.status !== 202) throw new Error(`scan: ${scan.status} ${await scan.text()}`);
  await context.app.jobs.runDue();
  const scanned = await call<DuplicatePairs>(context, 'GET', '/api/subscribers/duplicates?listlength=1');
  const scanMs = performance.now() - started;
  if (scanned.scanning || !scanned.scannedAt) throw new Error('the scan for duplicates did not finish');

  // The retention report at its worst: every subscriber unchanged for five years is a candidate whose
  // last gift and sale are looked up; the first page sorts them all by last activity. Two minutes for
  // a million subscribers the first time (every index of the table is written), so rows already that
  // old are left as they are.
  await runWithoutTimeout(
    context,
    "update subscribers set updated_at = now() - interval '5 years' where updated_at > now() - interval '5 years'",
  );
  await vacuumAnalyze(context, ['subscribers', 'subscriber_last_names']);
  started = performance.now();
  const report = await call<{ count: number }>(context, 'GET', '/api/subscribers/inactive?listlength=50');
  const reportMs = performance.now() - started;

  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const figure = `Import of ${IMPORT_ROWS.toLocaleString('en')} subscribers from CSV`;
  const rows: BenchRow[] = [
    {
      figure: `${figure}: dry run (${checked.valid} valid, ${checked.invalid} invalid, ${checked.duplicates} duplicates)`,
      goal: `< ${GOALS.dryRunSeconds} s`,
      measured: `${seconds(dryRunMs)} s`,
      passed: dryRunMs < GOALS.dryRunSeconds * 1000,
      value: seconds(dryRunMs),
      unit: 's',
    },
    {
      figure: `${figure}: commit (${committed.created} created, ${committed.skipped} skipped)`,
      goal: `< ${GOALS.commitSeconds} s`,
      measured: `${seconds(commitMs)} s`,
      passed: commitMs < GOALS.commitSeconds * 1000,
      value: seconds(commitMs),
      unit: 's',
    },
    {
      figure: `Scan for duplicates of ${registered.toLocaleString('en')} subscribers (${scanned.count} pairs)`,
      goal: `< ${GOALS.duplicateScanSeconds} s`,
      measured: `${seconds(scanMs)} s`,
      passed: scanMs < GOALS.duplicateScanSeconds * 1000,
      value: seconds(scanMs),
      unit: 's',
    },
    {
      figure: `Retention report, first page (${report.count.toLocaleString('en')} subscribers inactive for the years set)`,
      goal: `< ${GOALS.retentionReportSeconds} s`,
      measured: `${seconds(reportMs)} s`,
      passed: reportMs < GOALS.retentionReportSeconds * 1000,
      value: seconds(reportMs),
      unit: 's',
    },
  ];
  return {
    rows,
    details: {
      importedRows: IMPORT_ROWS,
      fileBytes: csv.length,
      uploadSeconds: seconds(uploadMs),
      dryRunSeconds: seconds(dryRunMs),
      commitSeconds: seconds(commitMs),
      undoSeconds: seconds(undoMs),
      duplicateScanSeconds: seconds(scanMs),
      retentionReportSeconds: seconds(reportMs),
      duplicatePairs: scanned.count,
      dryRun: { valid: checked.valid, invalid: checked.invalid, duplicates: checked.duplicates },
    },
  };
}

export const importSuite: Suite = { name: 'import', run: runImportBench };
