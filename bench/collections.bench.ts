/**
 * `npm run bench -- collections` (docs/decisions/029; EPC SEPA Core Direct Debit rulebook, ISO 20022
 * pain.008): a collection of {@link DEBTORS} debtors, each a subscriber with an active recurring
 * mandate and a monthly plan due the same day, is built (`POST /api/collections`) and exported (the
 * first `GET /api/collections/{id}/file`: the pain.008 file written and stored, one pre-notification
 * queued per debtor) in under 10 s together, HTTP round trips, median of {@link COLLECTION_RUNS} runs.
 * The build and the export are reported apart as well.
 *
 * The debtors are the suite's own (email `debtor-<n>@debtors.bench.invalid`, RUM `BENCH-COLL-<n>`),
 * inserted by one SQL statement before the measurement and deleted after it with their collections
 * and queued emails, so the other suites find the database as they left it. The due date is the first
 * one the settings allow (today + `sepaPreNotificationDays`, day of the month at most 28); before each
 * run the suite's collections of that day and the emails the previous run queued are deleted, so that
 * each run builds and exports the whole collection afresh.
 */
import { addCalendarDays, calendarDay } from '@back-office/contract/calendar';
import type { CollectionSummary } from '@back-office/contract/collections';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import {
  BENCH_USER_NAME,
  type BenchContext,
  type BenchRow,
  ensureBenchSettings,
  type Stats,
  type Suite,
  type SuiteResult,
  serverTiming,
  stats,
  vacuumAnalyze,
} from './harness.ts';

/**
 * Debtors of the collection: 10,000 (the collections' speed goal); BENCH_COLLECTION_DEBTORS sets
 * another number for trials.
 */
const DEBTORS = Number(process.env.BENCH_COLLECTION_DEBTORS ?? 10_000);
/** Timed runs, after {@link COLLECTION_WARM_UP} not counted (each takes seconds). */
const COLLECTION_RUNS = 5;
const COLLECTION_WARM_UP = 1;
const GOALS = { buildAndExportSeconds: 10 } as const;
/** The pain.008 version written (the server's default). */
const FILE_VERSION = 'pain.008.001.08';
/** What marks the suite's debtors: their email domain and their mandates' RUM prefix. */
const EMAIL_DOMAIN = 'debtors.bench.invalid';
const RUM_PREFIX = 'BENCH-COLL-';
/** One debtor in this many has a mandate never collected (FRST); the others are recurrent (RCUR). */
const FIRST_COLLECTION_EVERY = 10;
/**
 * The creditor the file is written for when the settings lack a valid one: an ICS with good check
 * digits (ISO 7064 MOD 97-10) and an IBAN and BIC that pass ibantools.
 */
const CREDITOR = { id: 'FR72ZZZ123456', iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' } as const;

/** Deletes the suite's debtors with everything hanging on them: collections, queued emails, mandates, plans. */
async function removeDebtors(context: BenchContext) {
  await context.db.transaction(async (tx) => {
    const debtors = sql`select id from subscribers where email like ${`%@${EMAIL_DOMAIN}`}`;
    await tx.execute(sql`
      delete from collections where id in (
        select l.collection_id from collection_lines l where l.subscriber_id in (${debtors}))`);
    await tx.execute(sql`delete from outbox_messages where subscriber_id in (${debtors})`);
    // Plans and mandates go with their subscriber (on delete cascade).
    await tx.execute(sql`delete from subscribers where email like ${`%@${EMAIL_DOMAIN}`}`);
  });
}

/**
 * Inserts {@link DEBTORS} subscribers in one statement, each with an active recurring mandate on a
 * German IBAN (check digits computed in SQL, ISO 13616) and a monthly plan of 5 to 100 euros due on
 * `dueDate`'s day of the month, started a year before.
 */
async function seedDebtors(context: BenchContext, dueDate: string) {
  await context.db.execute(sql`
    with due as (select ${dueDate}::date as day),
    added as (
      insert into subscribers (title, first_name, last_name, email, address1, postcode, town, country_id,
                               currency_id, added_by, search_first_name, search_last_name, search_town,
                               search_postcode)
      select case when n % 2 = 0 then 'Mme' else 'M.' end, 'Prénom' || n, 'Débiteur' || n,
             'debtor-' || n || ${`@${EMAIL_DOMAIN}`}, n || ' rue des Lilas', '74100', 'Annemasse',
             (select id from countries where iso_code = 'FR'), (select id from currencies where iso_code = 'EUR'),
             ${BENCH_USER_NAME}, 'prenom' || n, 'debiteur' || n, 'annemasse', '74100'
        from generate_series(1, ${DEBTORS}::int) as n
      returning id
    ),
    numbered as (select id, row_number() over (order by id) as n from added),
    accounts as (
      select id, n, (array['37040044', '50010517', '10010010', '20041133'])[1 + n % 4] || lpad(n::text, 10, '0') as bban
        from numbered
    ),
    signed as (
      insert into mandates (subscriber_id, rum, iban, signed_on, type, status, last_collected_on)
      select a.id, ${RUM_PREFIX} || lpad(a.n::text, 6, '0'),
             'DE' || lpad((98 - (a.bban || '131400')::numeric % 97)::text, 2, '0') || a.bban,
             (due.day - interval '2 years')::date, 'recurring', 'active',
             case when a.n % ${FIRST_COLLECTION_EVERY} = 0 then null else (due.day - interval '1 month')::date end
        from accounts a cross join due
      returning id, subscriber_id
    )
    insert into plans (subscriber_id, mandate_id, amount, frequency, day_of_month, start_on, created_by)
    select m.subscriber_id, m.id, 5 + (m.subscriber_id * 37 % 9501) / 100.0, 'monthly',
           extract(day from due.day)::int, (due.day - interval '1 year')::date, ${BENCH_USER_NAME}
      from signed m cross join due`);
  await vacuumAnalyze(context, ['subscribers', 'mandates', 'plans', 'collections', 'collection_lines']);
}

/**
 * The organisation settings with a creditor the file can be written for (ICS, IBAN, BIC), set when the
 * ones there are missing or invalid; the pre-notification days (calendar days, rulebook PT-04.03).
 */
async function ensureCreditorSettings(context: BenchContext): Promise<{ preNotificationDays: number }> {
  await ensureBenchSettings(context);
  const current = await fetch(`${context.base}/api/settings`, { headers: context.headers });
  if (!current.ok) throw new Error(`GET /api/settings failed: ${current.status}`);
  const settings = (await current.json()) as Record<string, unknown>;
  if (
    settings.sepaCreditorId !== CREDITOR.id ||
    settings.sepaCreditorIban !== CREDITOR.iban ||
    settings.sepaCreditorBic !== CREDITOR.bic
  ) {
    const response = await fetch(`${context.base}/api/settings`, {
      method: 'PUT',
      headers: { ...context.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...settings,
        sepaCreditorId: CREDITOR.id,
        sepaCreditorIban: CREDITOR.iban,
        sepaCreditorBic: CREDITOR.bic,
      }),
    });
    if (!response.ok)
      throw new Error(`PUT /api/settings failed: ${response.status} ${await response.text()}`);
  }
  return { preNotificationDays: Number(settings.sepaPreNotificationDays ?? 14) };
}

/** The first due date the settings allow, a day after today + `days`, on a day of the month up to 28. */
function firstDueDate(context: BenchContext, days: number): string {
  let day = addCalendarDays(calendarDay(new Date(), context.config.orgTimezone), days + 1);
  while (Number(day.slice(8)) > 28) day = addCalendarDays(day, 1);
  return day;
}

/** Deletes the suite's collections of `dueDate` (their lines with them) and the emails queued after `lastOutboxId`. */
async function resetCollection(context: BenchContext, dueDate: string, lastOutboxId: string) {
  await context.db.execute(
    sql`delete from collections where due_date = ${dueDate}::date and created_by = ${BENCH_USER_NAME}`,
  );
  await context.db.execute(sql`delete from outbox_messages where id > ${lastOutboxId}::bigint`);
}

/** One run: HTTP round trips and server times (ms) of the build and of the export, and what they gave. */
type CollectionRun = {
  buildMs: number;
  buildServerMs: number;
  exportMs: number;
  exportServerMs: number;
  storedMs: number;
  lines: number;
  transactions: number;
  bytes: number;
  queued: number;
};

/** Builds and exports the collection of `dueDate` over HTTP once; checks every debtor is in the file. */
async function buildAndExport(
  context: BenchContext,
  dueDate: string,
  lastOutboxId: string,
): Promise<CollectionRun> {
  const buildStarted = performance.now();
  const built = await fetch(`${context.base}/api/collections`, {
    method: 'POST',
    headers: { ...context.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ dueDate }),
  });
  const summary = (await built.json()) as CollectionSummary;
  const buildMs = performance.now() - buildStarted;
  if (built.status !== 201)
    throw new Error(`POST /api/collections answered ${built.status}: ${JSON.stringify(summary)}`);

  const path = `/api/collections/${summary.id}/file?version=${FILE_VERSION}`;
  const exportStarted = performance.now();
  const file = await fetch(`${context.base}${path}`, { headers: context.headers });
  const xml = Buffer.from(await file.arrayBuffer());
  const exportMs = performance.now() - exportStarted;
  if (!file.ok) throw new Error(`GET ${path} answered ${file.status}: ${xml.toString('utf8')}`);

  // A later download returns the stored bytes.
  const storedStarted = performance.now();
  const stored = await fetch(`${context.base}${path}`, { headers: context.headers });
  const storedXml = Buffer.from(await stored.arrayBuffer());
  const storedMs = performance.now() - storedStarted;
  if (!stored.ok || !storedXml.equals(xml)) throw new Error(`a later GET ${path} gave other bytes`);

  const transactions = Number(/<NbOfTxs>(\d+)<\/NbOfTxs>/.exec(xml.toString('utf8'))?.[1] ?? 0);
  const [queued] = await queryRows<{ n: number }>(
    context.db,
    sql`select count(*)::int as n from outbox_messages where id > ${lastOutboxId}::bigint`,
  );
  if (summary.count !== DEBTORS || transactions !== DEBTORS) {
    throw new Error(
      `the collection of ${dueDate} has ${summary.count} lines and its file ${transactions} transactions, not ${DEBTORS}`,
    );
  }
  return {
    buildMs,
    buildServerMs: serverTiming(built),
    exportMs,
    exportServerMs: serverTiming(file),
    storedMs,
    lines: summary.count,
    transactions,
    bytes: xml.length,
    queued: queued?.n ?? 0,
  };
}

/** Milliseconds as seconds, rounded to 0.01. */
const seconds = (ms: number) => Math.round(ms / 10) / 100;
const secondsOf = (series: Stats) => `${seconds(series.median)} s (p95 ${seconds(series.p95)})`;

/** Seeds the debtors, measures the build and the export, then removes the debtors. */
async function runCollectionsBench(context: BenchContext): Promise<SuiteResult> {
  const { preNotificationDays } = await ensureCreditorSettings(context);
  const dueDate = firstDueDate(context, preNotificationDays);
  await removeDebtors(context);
  const seedStarted = performance.now();
  await seedDebtors(context, dueDate);
  const seedSeconds = seconds(performance.now() - seedStarted);
  process.stdout.write(`${DEBTORS} debtors with a plan due ${dueDate} seeded in ${seedSeconds} s.\n`);

  const runs: CollectionRun[] = [];
  try {
    for (let run = 0; run < COLLECTION_WARM_UP + COLLECTION_RUNS; run += 1) {
      const [outbox] = await queryRows<{ last: string }>(
        context.db,
        sql`select coalesce(max(id), 0)::text as last from outbox_messages`,
      );
      const lastOutboxId = outbox?.last ?? '0';
      await resetCollection(context, dueDate, lastOutboxId);
      const measured = await buildAndExport(context, dueDate, lastOutboxId);
      await resetCollection(context, dueDate, lastOutboxId);
      if (run >= COLLECTION_WARM_UP) runs.push(measured);
    }
  } finally {
    await removeDebtors(context);
  }

  const total = stats(runs.map((run) => run.buildMs + run.exportMs));
  const build = stats(runs.map((run) => run.buildMs));
  const exported = stats(runs.map((run) => run.exportMs));
  const buildServer = stats(runs.map((run) => run.buildServerMs));
  const exportServer = stats(runs.map((run) => run.exportServerMs));
  const storedDownload = stats(runs.map((run) => run.storedMs));
  const last = runs.at(-1);
  const megabytes = Math.round((last?.bytes ?? 0) / 1024 / 102.4) / 10;
  const rows: BenchRow[] = [
    {
      figure: `SEPA collection of ${DEBTORS.toLocaleString('en-GB')} debtors: build and export (${FILE_VERSION}, ${megabytes} MB, ${last?.queued} pre-notifications queued), HTTP round trips, median of ${COLLECTION_RUNS}`,
      goal: `< ${GOALS.buildAndExportSeconds} s`,
      measured: `${secondsOf(total)}: build ${seconds(build.median)} s + export ${seconds(exported.median)} s`,
      passed: seconds(total.median) < GOALS.buildAndExportSeconds,
      value: seconds(total.median),
      unit: 's',
    },
    {
      figure: `SEPA collection of ${DEBTORS.toLocaleString('en-GB')} debtors: build alone (POST /api/collections)`,
      goal: `within the ${GOALS.buildAndExportSeconds} s`,
      measured: `${secondsOf(build)} (server ${secondsOf(buildServer)})`,
      passed: seconds(total.median) < GOALS.buildAndExportSeconds,
      value: seconds(build.median),
      unit: 's',
    },
    {
      figure: `SEPA collection of ${DEBTORS.toLocaleString('en-GB')} debtors: export alone (first GET …/file)`,
      goal: `within the ${GOALS.buildAndExportSeconds} s`,
      measured: `${secondsOf(exported)} (server ${secondsOf(exportServer)}; a later download of the stored file ${Math.round(storedDownload.median)} ms)`,
      passed: seconds(total.median) < GOALS.buildAndExportSeconds,
      value: seconds(exported.median),
      unit: 's',
    },
  ];
  return {
    rows,
    details: {
      debtors: DEBTORS,
      dueDate,
      seedSeconds,
      runs: COLLECTION_RUNS,
      warmUp: COLLECTION_WARM_UP,
      goals: GOALS,
      fileVersion: FILE_VERSION,
      fileBytes: last?.bytes,
      preNotificationsQueued: last?.queued,
      milliseconds: { total, build, export: exported, buildServer, exportServer, storedDownload },
    },
  };
}

/** The collections suite (SEPA direct-debit collections' speed goal, docs/decisions/029). */
export const collectionsSuite: Suite = { name: 'collections', run: runCollectionsBench };
