import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
/**
 * `npm run bench -- sales` (sales speed goals): with 300,000 sales of 1–5 lines on
 * PostgreSQL (1,000,000 at the 1m scale), a sales search answers in under 50 ms at the p95 (server time)
 * and within 1.5× of its raw SQL through `pg`: no filter (newest first), by last-name prefix and by
 * product; one invoice PDF renders in under 100 ms; the CSV exports of every sale (one row per sale, one
 * per line) take at most 1.5× the time of COPY of the same rows to STDOUT (the scale issue's goal).
 */
import { saleSearchQuerySchema } from '@back-office/contract/sales';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { renderPdf } from '../apps/server/src/lib/pdf/pdf-renderer.ts';
import { createDonationsRepository } from '../apps/server/src/modules/donations/donations.repository.ts';
import { createDonationWrites } from '../apps/server/src/modules/donations/donations.service.ts';
import { createMailRepository } from '../apps/server/src/modules/mail/mail.repository.ts';
import { invoiceDocument } from '../apps/server/src/modules/sales/invoice-document.ts';
import { createSalesRepository } from '../apps/server/src/modules/sales/sales.repository.ts';
import { createSalesService } from '../apps/server/src/modules/sales/sales.service.ts';
import { createSettingsRepository } from '../apps/server/src/modules/settings/settings.repository.ts';
import { createSettingsService } from '../apps/server/src/modules/settings/settings.service.ts';
import { createSubscribersRepository } from '../apps/server/src/modules/subscribers/subscribers.repository.ts';
import { createSubscribersService } from '../apps/server/src/modules/subscribers/subscribers.service.ts';
import {
  type BenchContext,
  type BenchRow,
  captureStatements,
  copyToStdout,
  downloadWithCurl,
  ensureBenchSettings,
  measureCalls,
  measureRequests,
  measureSearch,
  measureStatements,
  RUNS,
  rawSqlRatio,
  readPdf,
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
import { SCALE } from './scale.ts';

/** Sales in the benchmark database (sales speed goals). */
export const SALES = SCALE.sales;
const GOALS = { search: SEARCH_GOALS, invoiceMedianMs: 100, csvCopyRatio: 1.5 } as const;

/** A search as the Sales screen sends it: every filter, empty ones as empty strings (part 2 §5, §7). */
function searchParams(filters: Record<string, string>) {
  return {
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
  };
}

type SearchFigure = SearchTimings & { label: string; query: string; rows: number };

/** The searches: no filter, the most frequent last-name prefix of buyers and the most sold product. */
async function measureSearches(context: BenchContext): Promise<SearchFigure[]> {
  const { db } = context;
  const [prefix] = await queryRows<{ value: string }>(
    db,
    sql`select left(s.search_last_name, 3) as value from sales x join subscribers s on s.id = x.subscriber_id
         group by 1 order by count(*) desc limit 1`,
  );
  const [product] = await queryRows<{ id: number; name: string; sales: number }>(
    db,
    sql`select p.id, p.name, count(distinct l.sale_id)::int as sales from sale_lines l join products p on p.id = l.product_id
         group by p.id, p.name order by 3 desc limit 1`,
  );
  // And the rarest one: the sales that have it are far apart, newest first.
  const [rare] = await queryRows<{ id: number; name: string; sales: number }>(
    db,
    sql`select p.id, p.name, count(distinct l.sale_id)::int as sales from sale_lines l join products p on p.id = l.product_id
         group by p.id, p.name order by 3 asc limit 1`,
  );
  if (!prefix || !product || !rare) throw new Error('the benchmark database has no sales to search');
  const repository = createSalesRepository();
  const figures: SearchFigure[] = [];
  for (const [label, filters] of [
    ['no filter, newest first', {}],
    [`last-name prefix "${prefix.value}"`, { name: prefix.value }],
    [`product "${product.name}" (in ${product.sales} sales)`, { productid: String(product.id) }],
    [`product "${rare.name}" (in ${rare.sales} sales)`, { productid: String(rare.id) }],
  ] as const) {
    const params = searchParams(filters);
    const { found, timings } = await measureSearch(context, {
      path: `/api/sales?${new URLSearchParams(params)}`,
      found: async (response) => ((await response.json()) as unknown[]).length,
      search: (logged) =>
        repository.search(
          logged,
          saleSearchQuerySchema.parse(params),
          calendarDay(new Date(), DEFAULT_TIME_ZONE),
        ),
    });
    figures.push({ label, query: new URLSearchParams(filters).toString(), rows: found, ...timings });
  }
  return figures;
}

/** The invoice of the newest sale with five lines, a discount or delivery when there is one. */
async function measureInvoice(context: BenchContext) {
  const { db } = context;
  const [sale] = await queryRows<{ id: number; ref: number }>(
    db,
    sql`select s.id, s.ref from sales s
         where (select count(*) from sale_lines l where l.sale_id = s.id) = 5
         order by (s.discount_amount > 0 or s.delivery_charge > 0) desc, s.id desc limit 1`,
  );
  if (!sale) throw new Error('the benchmark database has no sale of five lines');
  const series = await measureRequests(context, () => `/api/sales/receipt/${sale.id}`, readPdf);
  const statements = await captureStatements(context.pool, (logged) => {
    const subscribersService = createSubscribersService({
      db: logged,
      repository: createSubscribersRepository(),
    });
    return createSalesService({
      db: logged,
      clock: systemClock,
      repository: createSalesRepository(),
      subscribersService,
      settingsService: createSettingsService({ db: logged, repository: createSettingsRepository() }),
      donations: createDonationWrites({ repository: createDonationsRepository(), subscribersService }),
      mailRepository: createMailRepository(),
      onMailQueued: () => undefined,
    }).invoice(sale.id);
  });
  const found = await createSalesRepository().findSale(db, sale.id);
  if (!found) throw new Error(`sale ${sale.id} vanished`);
  const settings = await createSettingsService({ db, repository: createSettingsRepository() }).get();
  const renderOnly = await measureCalls(() =>
    renderPdf(
      invoiceDocument(
        { sale: found.sale, lines: found.lines, currencySymbol: found.currencySymbol },
        settings,
      ),
    ),
  );
  return {
    saleId: sale.id,
    ref: sale.ref,
    bytes: series.last,
    server: series.server,
    roundTrip: series.roundTrip,
    cpu: series.cpu,
    rawSql: await measureStatements(context.pool, statements),
    renderOnly,
  };
}

/** Timed runs of each CSV export and of its COPY reference (each takes seconds). */
const EXPORT_RUNS = 3;

/** The sales export's rows and columns (sales-export.routes.ts), newest first, for COPY. */
const SALES_COPY_SQL = `select s.ref, to_char(s.added_on at time zone 'UTC', 'YYYY-MM-DD') as date, s.subscriber_id,
  s.full_name as name, s.association, s.addr1 as address1, s.addr2 as address2, s.addr3 as address3, s.town,
  s.postcode, s.country, sub.email, c.symbol as currency, s.sub_total, s.discount_percentage::float8,
  s.discount_amount, s.delivery_charge, s.donation, s.total, s.order_number, s.added_by
  from sales s join subscribers sub on sub.id = s.subscriber_id join currencies c on c.id = s.currency_id
  order by s.added_on desc, s.id desc`;

/**
 * The detailed export's rows and columns: one per sale line, sales newest first, lines in order, each
 * with its sale's own fields (the file imports back as sales).
 */
const SALE_LINES_COPY_SQL = `select s.ref, to_char(s.added_on at time zone 'UTC', 'YYYY-MM-DD') as date,
  s.full_name as name, s.postcode, c.symbol as currency, l.product_id, l.product_name as product, l.quantity,
  l.unit_price, l.line_total, sub.email, s.association, s.addr1 as address1, s.addr2 as address2,
  s.addr3 as address3, s.town, s.country, s.discount_percentage::float8, s.delivery_charge, s.donation,
  s.total, s.order_number
  from sales s join subscribers sub on sub.id = s.subscriber_id join currencies c on c.id = s.currency_id
  join sale_lines l on l.sale_id = s.id
  order by s.added_on desc, s.id desc, l.position`;

/**
 * The two CSV exports of every sale downloaded by curl, each beside its reference (the export goal: at
 * most 1.5× its time): COPY of the same rows and columns to STDOUT, by psql. Medians of {@link EXPORT_RUNS}.
 */
async function measureCsvExports(context: BenchContext) {
  const [counted] = await queryRows<{ sales: number; lines: number }>(
    context.db,
    sql`select (select count(*) from sales)::int as sales, (select count(*) from sale_lines)::int as lines`,
  );
  const seconds = async (action: () => Promise<number>) => {
    let bytes = 0;
    const timing = await measureCalls(
      async () => {
        bytes = await action();
      },
      { runs: EXPORT_RUNS, warmUp: 0 },
    );
    return { seconds: Math.round(timing.median) / 1000, megabytes: Math.round(bytes / 1024 / 102.4) / 10 };
  };
  const figures = [];
  for (const [label, query, rows, copySql] of [
    ['one row per sale', '', counted?.sales ?? 0, SALES_COPY_SQL],
    ['one row per sale line', '?isdetailed=true', counted?.lines ?? 0, SALE_LINES_COPY_SQL],
  ] as const) {
    const api = await seconds(() =>
      downloadWithCurl(`${context.base}/api/sales/export${query}`, context.token),
    );
    const copy = await seconds(() => copyToStdout(context.url, copySql));
    figures.push({ label, rows, api, copy, ratio: Math.round((api.seconds / copy.seconds) * 10) / 10 });
  }
  return figures;
}

/** Seeds the sales, then measures the searches and the invoice. */
async function runSalesBench(context: BenchContext): Promise<SuiteResult> {
  const seeded = await seedInChildProcess(context, { subscribers: SUBSCRIBERS, sales: SALES });
  await vacuumAnalyze(context, ['sales', 'sale_lines', 'products']);
  await ensureBenchSettings(context);
  const searches = await measureSearches(context);
  const invoice = await measureInvoice(context);
  const csvExports = await measureCsvExports(context);
  const rows: BenchRow[] = [
    ...searches.map((figure) =>
      searchRow(`Sales search, ${figure.label} (first ${figure.rows} rows)`, figure),
    ),
    {
      figure: `Invoice PDF of sale #${invoice.ref}, 5 lines (${Math.round(invoice.bytes / 1024)} KB): server median`,
      goal: `< ${GOALS.invoiceMedianMs} ms`,
      measured: `${invoice.server.median} ms (p95 ${invoice.server.p95}; HTTP round trip ${invoice.roundTrip.median} / p95 ${invoice.roundTrip.p95}; raw SQL ${invoice.rawSql.median} / p95 ${invoice.rawSql.p95}; PDF rendering alone ${invoice.renderOnly.median} / p95 ${invoice.renderOnly.p95}; CPU per request ${invoice.cpu.median})`,
      passed: invoice.server.median < GOALS.invoiceMedianMs,
      value: invoice.server.median,
      unit: 'ms',
      baseline: { value: invoice.rawSql.median, label: 'raw SQL' },
    },
    ...csvExports.map((figure) => ({
      figure: `Sales CSV export, ${figure.label} (${figure.rows} rows)`,
      goal: `<= ${GOALS.csvCopyRatio}× COPY`,
      measured: `${figure.api.seconds} s = ${figure.ratio}× COPY ${figure.copy.seconds} s (${figure.api.megabytes} MB vs ${figure.copy.megabytes} MB)`,
      passed: figure.ratio <= GOALS.csvCopyRatio,
      value: figure.api.seconds,
      unit: 's',
      baseline: { value: figure.copy.seconds, label: 'COPY' },
    })),
  ];
  return {
    rows,
    details: {
      sales: { target: SALES, existedBefore: seeded.sales.existing, added: seeded.sales.added },
      runs: RUNS,
      searchRuns: SEARCH_RUNS,
      goals: GOALS,
      searches: searches.map((figure) => ({ ...figure, rawSqlRatio: rawSqlRatio(figure) })),
      invoice,
      csvExports,
    },
  };
}

/** The sales suite (sales speed goals). */
export const salesSuite: Suite = { name: 'sales', run: runSalesBench };
