/**
 * `npm run bench -- subscribers` (search and export speed goals): with 200,000 (or 1,000,000) generated
 * subscribers on PostgreSQL, every search filter alone, common pairs and page 100 answer with a p95
 * under 50 ms (server time) and within 1.5× of the p95 of their SQL run alone through `pg`; the XLSX export of all of them finishes in
 * under 30 s and within 3× of COPY of the same rows, with the server's memory growing by less than 150 MB.
 * The real app (buildApp) listens on a loopback port in this process.
 */
import type { ExportFile } from '@back-office/contract/exports';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { createSubscribersRepository } from '../apps/server/src/modules/subscribers/subscribers.repository.ts';
import {
  type BenchContext,
  type BenchRow,
  copyToStdout,
  countOfAnswer,
  downloadWithCurl,
  measureSearch,
  RUNS,
  rawSqlRatio,
  SEARCH_GOALS,
  SEARCH_RUNS,
  type SearchTimings,
  SUBSCRIBERS,
  type Suite,
  type SuiteResult,
  searchRow,
  seedInChildProcess,
  vacuumAnalyze,
} from './harness.ts';

const GOALS = { search: SEARCH_GOALS, exportSeconds: 30, exportCopyRatio: 3, exportMemoryMb: 150 } as const;

/**
 * The export's baseline: every column of "Export All Details" for every visible subscriber, names
 * joined and tags aggregated, in the export's order, as one statement (what COPY of the same rows takes).
 */
const EXPORT_BASELINE_SQL = `
  select s.id, s.title, s.first_name, s.last_name, cat.name as category, s.association, s.address1, s.address2,
         s.address3, s.town, s.postcode, c.name as country, s.billing_address, s.phone, s.mobile, s.fax, s.email,
         s.on_mail_chimp_list, s.newsletter_email, pm.name as payment_method, s.bank, s.iban, cur.name as currency,
         s.amount, s.rum, s.start_date, s.end_date, st.name as subscription_type, s.copies, s.recommended_by,
         not s.inactive, s.inactive_reason,
         coalesce((select string_agg(t.name, ', ' order by fold_text(t.name))
                     from subscriber_tags stg join tags t on t.id = stg.tag_id
                    where stg.subscriber_id = s.id), '') as tags,
         s.notes, s.added_by, s.added_on
    from subscribers s
    left join countries c on c.id = s.country_id
    left join categories cat on cat.id = s.category_id
    left join payment_methods pm on pm.id = s.payment_method_id
    left join currencies cur on cur.id = s.currency_id
    left join subscription_types st on st.id = s.subscription_type_id
   where not s.hidden
   order by s.search_last_name, s.search_first_name, s.id`;

type SearchFigure = SearchTimings & { label: string; query: string; matches: number };

/** Seeds the subscribers, then measures the searches (each filter alone, common pairs, page 100) and the export. */
async function runSubscribersBench(context: BenchContext): Promise<SuiteResult> {
  const { db } = context;
  // Seeding runs in a child process, so that the memory it used does not hide this process's growth.
  const seeded = await seedInChildProcess(context, { subscribers: SUBSCRIBERS });
  // Fresh rows are not marked all-visible until autovacuum passes; a live database has had that pass.
  await vacuumAnalyze(context, ['subscribers', 'subscriber_tags', 'subscriber_last_names']);

  // The hardest common case of each filter: its most frequent value (a 3-letter prefix for names).
  const mostFrequent = async (expression: string, where = 'true') => {
    const [row] = await queryRows<{ value: string | number }>(
      db,
      sql.raw(
        `select ${expression} as value from subscribers where not hidden and ${where} group by 1 order by count(*) desc limit 1`,
      ),
    );
    if (row === undefined)
      throw new Error(`the benchmark database has no subscribers to search (${expression})`);
    return String(row.value);
  };
  const [tag] = await queryRows<{ value: number; name: string }>(
    db,
    sql`select t.id as value, t.name from subscriber_tags st join tags t on t.id = st.tag_id group by t.id, t.name order by count(*) desc limit 1`,
  );
  if (!tag) throw new Error('the benchmark database has no tagged subscribers');
  const name = await mostFrequent('left(search_last_name, 3)');
  const firstName = await mostFrequent('left(search_first_name, 3)');
  const association = await mostFrequent('left(search_association, 3)', "search_association <> ''");
  const town = await mostFrequent('search_town');
  const postcode = await mostFrequent('left(search_postcode, 2)', "search_postcode <> ''");
  const country = await mostFrequent('country_id', 'country_id is not null');
  const category = await mostFrequent('category_id', 'category_id is not null');
  const paymentMethod = await mostFrequent('payment_method_id', 'payment_method_id is not null');
  const [recent] = await queryRows<{ value: string }>(
    db,
    sql`select to_char(percentile_disc(0.9) within group (order by added_on), 'YYYY-MM-DD') as value from subscribers`,
  );
  const tagId = String(tag.value);
  /** Page 100 of 50 rows. */
  const page100 = { listfrom: '4951', listlength: '50' };

  const { subscriberSearchQuerySchema } = await import('@back-office/contract/subscribers');
  const searches: SearchFigure[] = [];
  const queries: Array<[string, Record<string, string>]> = [
    [`last-name prefix "${name}"`, { name }],
    [`first-name prefix "${firstName}"`, { firstname: firstName }],
    [`association prefix "${association}"`, { assoc: association }],
    [`town "${town}"`, { town }],
    [`postcode prefix "${postcode}"`, { postcode }],
    [`tag "${tag.name}"`, { tag: tagId }],
    [`country ${country}`, { country }],
    [`category ${category}`, { category }],
    [`payment method ${paymentMethod}`, { pmeth: paymentMethod }],
    ['status "excluded only"', { status: '2' }],
    [`added after ${recent?.value}`, { addedafter: recent?.value ?? '2000-01-01' }],
    [`country ${country} and category ${category}`, { country, category }],
    [`tag "${tag.name}" and country ${country}`, { tag: tagId, country }],
    [`last-name prefix "${name}" and country ${country}`, { name, country }],
    [`tag "${tag.name}", page 100`, { tag: tagId, ...page100 }],
    [`country ${country}, page 100`, { country, ...page100 }],
    ['no filter, page 100', page100],
  ];
  for (const [label, query] of queries) {
    const { found, timings } = await measureSearch(context, {
      path: `/api/subscribers/?${new URLSearchParams(query)}`,
      found: countOfAnswer,
      search: (logged, countBudgetMs) =>
        createSubscribersRepository({ countBudgetMs }).search(
          logged,
          subscriberSearchQuerySchema.parse(query),
        ),
    });
    searches.push({ label, query: new URLSearchParams(query).toString(), matches: found, ...timings });
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
  // As staff get an export of more than 50,000 rows: started, written by its background job, then
  // downloaded by curl in another process (so that only the server's memory is measured here).
  const started = performance.now();
  const job = await fetch(`${context.base}/api/exports`, {
    method: 'POST',
    headers: { ...context.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'subscribers', query: {} }),
  });
  if (job.status !== 202) throw new Error(`POST /api/exports: ${job.status} ${await job.text()}`);
  const { id } = (await job.json()) as ExportFile;
  await context.app.jobs.runDue();
  const written = (await (
    await fetch(`${context.base}/api/exports/${id}`, { headers: context.headers })
  ).json()) as ExportFile;
  if (written.state !== 'succeeded')
    throw new Error(`the export job ended ${written.state}: ${written.error}`);
  const writtenSeconds = (performance.now() - started) / 1000;
  const bytes = await downloadWithCurl(`${context.base}/api/exports/${id}/file`, context.token);
  const exportSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const [counted] = await queryRows<{ n: number }>(
    db,
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
    writtenSeconds: Math.round(writtenSeconds * 100) / 100,
  };

  // The reference (of the export goal: CSV within 3× of COPY): the same rows and columns as CSV through
  // COPY, by psql.
  const copySql = EXPORT_BASELINE_SQL;
  const copyStarted = performance.now();
  const copyBytes = await copyToStdout(context.url, copySql);
  const copySeconds = (performance.now() - copyStarted) / 1000;
  const exportReference = {
    copySeconds: Math.round(copySeconds * 100) / 100,
    copyMegabytes: mb(copyBytes),
    ratio: Math.round((exportSeconds / copySeconds) * 10) / 10,
  };

  const rows: BenchRow[] = [
    ...searches.map((figure) =>
      searchRow(`Subscriber search by ${figure.label} (${figure.matches} matches)`, figure),
    ),
    {
      figure: `XLSX export of all ${exportFigure.rows} subscribers (start, background job, download)`,
      goal: `< ${GOALS.exportSeconds} s, <= ${GOALS.exportCopyRatio}× COPY`,
      measured: `${exportFigure.seconds} s, ${exportFigure.megabytes} MB (background job ${exportFigure.writtenSeconds} s, then the download; reference: COPY of the same rows as CSV ${exportReference.copySeconds} s, ${exportReference.copyMegabytes} MB; ratio ${exportReference.ratio}×)`,
      passed: exportFigure.seconds < GOALS.exportSeconds && exportReference.ratio <= GOALS.exportCopyRatio,
      value: exportFigure.seconds,
      unit: 's',
      baseline: { value: exportReference.copySeconds, label: 'COPY' },
    },
    {
      figure: 'Server memory growth during the export (RSS)',
      goal: `< ${GOALS.exportMemoryMb} MB`,
      measured: `${exportFigure.rssGrowthMb} MB (heap ${exportFigure.heapGrowthMb} MB)`,
      passed: exportFigure.rssGrowthMb < GOALS.exportMemoryMb,
      value: exportFigure.rssGrowthMb,
      unit: 'MB',
    },
  ];
  return {
    rows,
    details: {
      subscribers: {
        target: SUBSCRIBERS,
        existedBefore: seeded.subscribers.existing,
        added: seeded.subscribers.added,
      },
      runs: RUNS,
      searchRuns: SEARCH_RUNS,
      goals: GOALS,
      searches: searches.map((figure) => ({ ...figure, rawSqlRatio: rawSqlRatio(figure) })),
      export: { ...exportFigure, reference: exportReference },
    },
  };
}

/** The subscribers suite (search and export speed goals). */
export const subscribersSuite: Suite = { name: 'subscribers', run: runSubscribersBench };
